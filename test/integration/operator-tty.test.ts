// issue 21 items 1 and 3 in a real terminal (tmux, 80 columns): what an operator sees.
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {NO_TMUX, TmuxSession, hasTmux} from '../helpers/tmux.js'

const work = mkdtempSync(join(tmpdir(), 'svc-ops-tty-'))
const home = join(work, 'home')
mkdirSync(home)
/** A user with nothing configured: the built-in local profile. */
const userEnv = {HOME: home, SVC_CONFIG_DIR: join(home, 'config'), SVC_DATA_DIR: join(home, 'data'), NO_COLOR: '1'}

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => {
  await svcInProcess(['sandbox', 'stop'], {env: userEnv})
  const pid = join(home, 'data', 'sandbox', 'sandbox.pid')
  if (existsSync(pid)) {
    try {
      process.kill(Number(readFileSync(pid, 'utf8')), 'SIGKILL')
    } catch {}
  }
  await sbx?.stop()
  rmSync(work, {recursive: true, force: true})
})

async function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  expectScreen: RegExp,
): Promise<{screen: string; code: number}> {
  const t = new TmuxSession(args, {env})
  try {
    const code = await t.exitCode()
    const screen = await t.waitFor(expectScreen)
    return {screen, code}
  } finally {
    t.kill()
  }
}

describe.skipIf(!hasTmux)('on a terminal (tmux)', () => {
  it('item 1: after `sandbox serve --detach --port 0`, `svc whoami` checks the sandbox on its real port', async () => {
    // Off the terminal, in-process: only the server it starts is a process of its own.
    const started = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--json'], {env: userEnv})
    expect(started.code, started.stderr).toBe(0)
    const url: string = started.json().url
    const {screen, code} = await onTerminal(['whoami'], userEnv, /verified/)
    expect(code).toBe(0)
    expect(screen).toContain(`baseUrl      ${url} (from running sandbox)`)
    expect(screen).toMatch(/verified +yes/)
    expect(screen).not.toContain('4010')
  })

  it('item 3: `quote create` and `cards issue` name every missing flag on a terminal too (exit 2, nothing sent)', async () => {
    const before = sbx.requestCount()
    const quote = await onTerminal(['quote', 'create'], sbx.env, /Missing flags/)
    expect(quote.code).toBe(2)
    expect(quote.screen).toContain('Error: Missing flags: --from, --to, --send (INVALID_INPUT)')
    const card = await onTerminal(['cards', 'issue'], sbx.env, /Missing flags/)
    expect(card.code).toBe(2)
    expect(card.screen).toContain('Error: Missing flags: --account, --customer (INVALID_INPUT)')
    expect(card.screen).not.toContain('Missing required flag')
    expect(sbx.requestCount()).toBe(before)
  })

  it('item 3: `customers create --type business` asks for each field on a terminal; under CI=true it names the same fields as flags', async () => {
    const t = new TmuxSession(['customers', 'create', '--type', 'business'], {env: sbx.env})
    try {
      await t.waitFor(/legalName — legal name \[--legal-name\]/)
      t.keys('C-c')
      expect(await t.exitCode()).toBe(130)
    } finally {
      t.kill()
    }
    const ci = await sbx.run(['customers', 'create', '--type', 'business'], {env: {CI: 'true'}})
    expect(ci.code).toBe(2)
    expect(ci.stderr).toContain(
      'Error: Missing flags: --legal-name, --country, --incorporated-on, --tax-id (INVALID_INPUT)',
    )
  })
})

// Without tmux the skipped test's name is the reason, so a CI log says why pseudo-terminal tests did not run.
if (!hasTmux) it.skip(`operator defects on a terminal: ${NO_TMUX}`, () => {})
