// On a real terminal (tmux), a mistyped command asks "Did you mean ...?" (@oclif/plugin-not-found's
// prompt) and runs the suggestion on Enter. Skipped where tmux is not installed.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0
const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
const session = `svc-suggest-${process.pid}`
const tmux = (...args: string[]) => spawnSync('tmux', args, {encoding: 'utf8'})
const pane = () => tmux('capture-pane', '-p', '-t', session).stdout

async function waitFor(re: RegExp, ms = 20_000): Promise<string> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const text = pane()
    if (re.test(text)) return text
  }
  throw new Error(`timed out waiting for ${re}; pane:\n${pane()}`)
}

let sbx: TestSandbox
beforeAll(async () => {
  if (!hasTmux) return
  sbx = await startSandbox()
})
afterAll(async () => {
  if (!hasTmux) return
  tmux('kill-session', '-t', session)
  await sbx.stop()
})

describe.skipIf(!hasTmux)('did you mean, on a terminal', () => {
  it('asks, and on Enter runs `customers list` instead of `custmers list`', async () => {
    const env = {...sbx.env, CI: undefined, SVC_NO_INPUT: undefined}
    const script = join(mkdtempSync(join(tmpdir(), 'svc-tty-')), 'run.sh')
    const exports = Object.entries(env).filter(([, v]) => v !== undefined).map(([k, v]) => `export ${k}=${JSON.stringify(v)}`).join('\n')
    // One customer to see in the list, then the typo.
    writeFileSync(script, `${exports}\nunset CI SVC_NO_INPUT\n${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} customers create --type individual --full-name "Tty Person" >/dev/null 2>&1\n${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} custmers list\necho "EXIT=$?"\nsleep 30\n`)
    expect(tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '50', `bash ${script}`).status).toBe(0)
    await waitFor(/Did you mean svc customers list\?/)
    tmux('send-keys', '-t', session, 'Enter')
    const text = await waitFor(/EXIT=\d+/)
    expect(text).toContain('Tty Person')
    expect(text).toContain('EXIT=0')
  }, 60_000)
})
