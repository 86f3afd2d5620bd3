// Ctrl-C on `webhooks listen --register`: the sandbox is pointed back where it was (or told what is
// left and how to fix it), and svc exits 130 like every interrupt.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {interruptWhen} from '../helpers/cli.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {NO_TMUX, TmuxSession, hasTmux} from '../helpers/tmux.js'

const PREVIOUS = 'https://app.example.com/hooks/svc'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

const endpoint = (s = sbx) => s.emu.config().webhookEndpoint
const setEndpoint = (url: string | null, s = sbx) => s.emu.saveConfig({...s.emu.config(), webhookEndpoint: url})

describe.skipIf(!hasTmux)('Ctrl-C on webhooks listen --register (tmux)', () => {
  it('puts the previous endpoint back and exits 130', async () => {
    setEndpoint(PREVIOUS)
    const t = new TmuxSession(['webhooks', 'listen', '--port', '0', '--register'], {env: sbx.env})
    try {
      const screen = await t.waitFor(/Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/)
      const url = /Listening on (\S+)/.exec(screen)![1]
      expect(endpoint()).toBe(url)
      await t.waitFor(/TEST/) // the event registering sends arrived: the listener works
      t.keys('C-c')
      expect(await t.exitCode()).toBe(130)
      // Ctrl-C is how a listener stops: where the endpoint was left, and no "Error:" line
      expect(t.screen()).toContain(`Stopped listening (Ctrl-C).\nThe webhook endpoint is back to ${PREVIOUS}`)
      expect(t.screen()).not.toContain('Error')
      expect(endpoint()).toBe(PREVIOUS)
    } finally {
      t.kill()
      setEndpoint(null)
    }
  })

  it('with none set before, clears it again', async () => {
    setEndpoint(null)
    const t = new TmuxSession(['webhooks', 'listen', '--port', '0', '--register'], {env: sbx.env})
    try {
      await t.waitFor(/Listening on/)
      expect(endpoint()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/)
      t.keys('C-c')
      expect(await t.exitCode()).toBe(130)
      expect(t.screen()).toContain(
        'Stopped listening (Ctrl-C).\nThe webhook endpoint is cleared again (none was set before)',
      )
      expect(t.screen()).not.toContain('Error')
      expect(endpoint()).toBeNull()
    } finally {
      t.kill()
    }
  })
})

/** svc without a terminal; SIGINT once stderr matches `when`, then optionally `before` runs first. */
describe('SIGINT on webhooks listen --register, off a terminal', () => {
  it('--json: the events, then the INTERRUPTED document; the endpoint is back', async () => {
    setEndpoint(PREVIOUS)
    const r = await interruptWhen(
      ['webhooks', 'listen', '--port', '0', '--register', '--json'],
      sbx.env,
      /Listening on/,
    )
    expect(r.code, r.stderr).toBe(130)
    const [doc] = r.stdout.split(/\n(?=\{\n)/).slice(-1)
    expect(JSON.parse(doc).error).toMatchObject({
      code: 'INTERRUPTED',
      reason: `Interrupted. The webhook endpoint is back to ${PREVIOUS}`,
    })
    expect(endpoint()).toBe(PREVIOUS)
    setEndpoint(null)
  })

  it('when the sandbox cannot be reached any more, says what is left and the command that fixes it', async () => {
    const other = await startSandbox()
    setEndpoint(PREVIOUS, other)
    const r = await interruptWhen(
      ['webhooks', 'listen', '--port', '0', '--register', '--timeout', '5s'],
      other.env,
      /Listening on/,
      () => other.stop(),
    )
    expect(r.code, r.stderr).toBe(130)
    expect(r.stderr).toMatch(
      /Stopped listening \(Ctrl-C\)\.\n! The sandbox still sends events to http:\/\/127\.0\.0\.1:\d+\/webhooks, where nothing listens now .*\. Point it elsewhere with: svc webhooks endpoint https:\/\/app\.example\.com\/hooks\/svc\n/,
    )
    expect(r.stderr).not.toContain('Error')
  }, 60_000)
})

// Without tmux the skipped test's name is the reason, so a CI log says why pseudo-terminal tests did not run.
if (!hasTmux) it.skip(`Ctrl-C on webhooks listen on a terminal: ${NO_TMUX}`, () => {})
