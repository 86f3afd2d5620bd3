import {homedir} from 'node:os'
import {describe, expect, it} from 'vitest'
import {configDir, dataDir, sandboxDataDir} from '../../../src/lib/paths.js'

describe('default places follow the run’s own environment', () => {
  it('HOME of the env given (an in-process run’s), not the host process’s', () => {
    expect(configDir({HOME: '/home/ada'})).toBe('/home/ada/.config/svc')
    expect(dataDir({HOME: '/home/ada'})).toBe('/home/ada/.local/share/svc')
    expect(sandboxDataDir({HOME: '/home/ada'})).toBe('/home/ada/.local/share/svc/sandbox')
  })

  it('XDG and SVC_* variables win over HOME; no HOME at all is the account’s home', () => {
    expect(configDir({HOME: '/h', XDG_CONFIG_HOME: '/x'})).toBe('/x/svc')
    expect(dataDir({HOME: '/h', XDG_DATA_HOME: '/x'})).toBe('/x/svc')
    expect(sandboxDataDir({HOME: '/h', SVC_SANDBOX_DIR: '/s'})).toBe('/s')
    expect(configDir({})).toBe(`${homedir()}/.config/svc`)
  })
})
