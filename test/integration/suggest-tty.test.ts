// On a real terminal (tmux), a mistyped command is answered with a suggestion only: the guess is
// never run, not even after an Enter, since the guess might be a destructive command nobody typed.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {NO_TMUX, TmuxSession, hasTmux} from '../helpers/tmux.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

describe.skipIf(!hasTmux)('did you mean, on a terminal (tmux)', () => {
  it('`custmers list --limit 1` suggests `svc customers list`, asks nothing, runs nothing, exits 2', async () => {
    const from = sbx.requestCount()
    const t = new TmuxSession(['custmers', 'list', '--limit', '1'], {env: sbx.env})
    try {
      expect(await t.exitCode()).toBe(2)
      t.keys('Enter') // an Enter after the fact changes nothing: there was no question
      const screen = t.screen()
      expect(screen).toContain('Error: "custmers list" is not an svc command')
      expect(screen).toContain('Hint: Did you mean `svc customers list`? Run `svc help` for the command list.')
      expect(screen).not.toMatch(/\(Y\/n\)|\?\s*$/m)
      expect(sbx.requestCount()).toBe(from)
    } finally {
      t.kill()
    }
  })

  it('a mistyped destructive command with --yes is not run: the customer is still there', async () => {
    const c = (await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Keep Me'})).body as {
      id: string
    }
    const from = sbx.requestCount()
    const t = new TmuxSession(['custmers', 'delete', c.id, '--yes'], {env: sbx.env})
    try {
      expect(await t.exitCode()).toBe(2)
      expect(t.screen()).toContain('Did you mean `svc customers delete`?')
      expect(sbx.requestCount()).toBe(from)
      expect(sbx.emu.db.get<{id: string; isDeleted: boolean}>('customers', c.id)).toMatchObject({
        id: c.id,
        isDeleted: false,
      })
    } finally {
      t.kill()
    }
  })
})

// Without tmux the skipped test's name is the reason, so a CI log says why pseudo-terminal tests did not run.
if (!hasTmux) it.skip(`did you mean on a terminal: ${NO_TMUX}`, () => {})
