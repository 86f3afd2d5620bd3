import {describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox()

describe('parallel wallet logins', () => {
  it('the ones whose challenge a newer login replaced are told so (exit 4), and at least one login holds a session', async () => {
    const w = await fx.api.createCustomer({})
    // Separate processes, started at once: each asks for a challenge and answers it while the others do.
    const runs = await Promise.all(
      Array.from({length: 6}, () => svc(['wallet', 'login', w.accountId, '--json'], {env: fx.sbx.env})),
    )
    const won = runs.filter((r) => r.code === 0)
    const lost = runs.filter((r) => r.code !== 0)
    expect(won.length).toBeGreaterThanOrEqual(1)
    expect(lost.length).toBeGreaterThanOrEqual(1)
    for (const r of lost) {
      expect(r.code).toBe(4)
      const error = r.json().error
      expect(error.reason).toMatch(/another login to this wallet started after this one and replaced its challenge/)
      expect(error.reason).not.toMatch(/Invalid OTP/)
      expect(error.hint).toMatch(/one login per wallet at a time/)
    }
    const sessions = await fx.run(['wallet', 'sessions', 'list', w.accountId, '--json'])
    expect(sessions.json().data.length).toBeGreaterThanOrEqual(won.length)
  }, 120_000)
})
