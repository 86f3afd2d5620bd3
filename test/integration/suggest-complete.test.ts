import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

describe('did you mean', () => {
  it('suggests `customers list` for `custmers list`: exit 2, nothing sent', async () => {
    const before = sbx.requestCount()
    const r = await svc(['custmers', 'list'], {env: sbx.env})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('"custmers list" is not an svc command')
    expect(r.stderr).toContain('Did you mean `svc customers list`?')
    expect(r.stdout).toBe('')
    expect(sbx.requestCount()).toBe(before)
  })

  it('keeps the JSON error document under --json, with the suggestion as its hint', async () => {
    const r = await svc(['customers', 'lsit', '--json'], {env: sbx.env})
    expect(r.code).toBe(2)
    const {error} = r.json()
    expect(error).toMatchObject({status: null, code: 'USAGE', details: {}})
    expect(error.hint).toContain('Did you mean `svc customers list`?')
  })

  // Which command is offered is src/lib/suggest.ts's (test/unit/lib/suggest.test.ts: `snapshot`, `list`,
  // `frobnicate` ...); the binary shows how bin/run.js words it, the typed words kept as typed.
  it('across topics: `svc capture Customer:x` -> `svc flow capture`, keeping the id whole', async () => {
    const before = sbx.requestCount()
    const capture = await svc(['capture', 'Customer:x'], {env: sbx.env})
    expect([capture.code, capture.stdout]).toEqual([2, ''])
    expect(capture.stderr).toBe(
      'Error: "capture Customer:x" is not an svc command\n' +
        'Hint: Did you mean `svc flow capture`? Run `svc help` for the command list.\n',
    )
    expect(sbx.requestCount()).toBe(before)
  })

  it('`svc help capture`: exit 2 with the same did-you-mean, not oclif\'s "Command capture not found"', async () => {
    const r = await sbx.run(['help', 'capture'])
    expect([r.code, r.stdout]).toEqual([2, ''])
    expect(r.stderr).toBe(
      'Error: "capture" is not an svc command or topic\n' +
        'Hint: Did you mean `svc help flow capture`? Run `svc help` for the command list.\n',
    )
    const topic = await sbx.run(['help', 'snapshot'])
    expect(topic.code).toBe(2)
    expect(topic.stderr).toContain('Did you mean `svc help sandbox snapshot`?')
    expect((await sbx.run(['help', 'sandbox', 'snapshot'])).code).toBe(0)
  })

  it('suggests nothing for a word close to no command', async () => {
    const r = await svc(['frobnicate'], {env: sbx.env})
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain('Did you mean')
    expect(r.stderr).toContain('Run `svc help` for the command list.')
  })

  it('suggests the closest flag for a mistyped one and names the real command in the hint', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(['customers', 'list', '--include-delted', '--json'])
    expect(r.code).toBe(2)
    const {error} = r.json()
    expect(error.reason).toContain('--include-delted')
    expect(error.hint).toMatch(/^Did you mean --include-deleted\? See `svc customers list --help`/)
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('shell completion (@oclif/plugin-autocomplete)', () => {
  const cache = tempDir('svc-ac-')
  const env = () => ({...sbx.env, XDG_CACHE_HOME: cache})
  const dir = join(cache, 'svc', 'autocomplete')

  it('generates the bash script, and bash completes commands and flags from it', async () => {
    const r = await svc(['autocomplete', 'bash'], {env: env(), timeoutMs: 60_000})
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('svc autocomplete script bash')
    const setup = await svc(['autocomplete', 'script', 'bash'], {env: env(), timeoutMs: 60_000})
    expect(setup.code).toBe(0)
    expect(setup.stdout).toContain(join(dir, 'bash_setup'))
    const complete = (line: string) => {
      const words = line.split(' ')
      const script = `source ${JSON.stringify(join(dir, 'bash_setup'))}
        COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}
        COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}; _svc_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`
      const out = spawnSync('bash', ['-c', script], {encoding: 'utf8'})
      expect(out.status, out.stderr).toBe(0)
      return new Set(out.stdout.split('\n').filter(Boolean))
    }
    expect(complete('svc custo')).toEqual(new Set(['customers']))
    expect(complete('svc customers li')).toEqual(new Set(['list']))
    expect(complete('svc customers list --include-d')).toEqual(new Set(['--include-deleted']))
  })

  it('lists `autocomplete` in the root help, and `svc help autocomplete` shows its help', async () => {
    const root = await svc(['--help'], {env: env()})
    expect(root.stdout).toMatch(/^ {2}autocomplete /m)
    const help = await svc(['help', 'autocomplete'], {env: env()})
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toContain('$ svc autocomplete [SHELL]')
  })

  it('generates the zsh completion function with every command and its flags', async () => {
    const r = await svc(['autocomplete', 'zsh'], {env: env(), timeoutMs: 60_000})
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('svc autocomplete script zsh')
    const fn = join(dir, 'functions', 'zsh', '_svc')
    expect(existsSync(fn)).toBe(true)
    const text = readFileSync(fn, 'utf8')
    expect(text).toMatch(/^#compdef svc/)
    expect(text).toContain('"customers[')
    expect(text).toContain('--include-deleted')
    expect(readFileSync(join(dir, 'zsh_setup'), 'utf8')).toContain(join(dir, 'functions', 'zsh'))
    const zsh = spawnSync('zsh', ['-n', fn], {encoding: 'utf8'})
    if (!zsh.error) expect(zsh.status, zsh.stderr).toBe(0) // syntax check where zsh is installed
  })
})
