import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'
import {REPO_ROOT} from '../../helpers/contract.js'

const EMULATOR = join(REPO_ROOT, 'src', 'emulator')
/** The one module allowed to read the machine's time: everything else reads the sandbox clock. */
const CLOCK = 'clock.ts'

function files(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

/** `Date.now` (called or handed on), or `new Date()` with no argument: the machine's time. */
const MACHINE_TIME = /\bDate\.now\b|\bnew Date\(\s*\)/

describe('one clock per sandbox', () => {
  it('no file under src/emulator reads the machine time except the clock module', () => {
    const offenders = files(EMULATOR)
      .filter((f) => relative(EMULATOR, f) !== CLOCK)
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({line, at: `${relative(REPO_ROOT, f)}:${i + 1}`}))
          .filter(({line}) => MACHINE_TIME.test(line.replace(/\/\/.*$/, '')))
          .map(({at, line}) => `${at}: ${line.trim()}`),
      )
    expect(offenders).toEqual([])
  })

  it('the check catches what it is meant to catch', () => {
    for (const bad of ['const t = Date.now()', 'now: Date.now,', 'x = new Date()', 'new Date( )'])
      expect(MACHINE_TIME.test(bad), bad).toBe(true)
    for (const ok of ['new Date(ms).toISOString()', 'Date.parse(x)', 'emu.now()'])
      expect(MACHINE_TIME.test(ok), ok).toBe(false)
    expect(readFileSync(join(EMULATOR, CLOCK), 'utf8')).toMatch(MACHINE_TIME)
  })
})
