import {describe, expect, it} from 'vitest'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

// The wallet signs in on the machine's time (a login's settlement is a job), then the clock is frozen and moved on.
const fx = walletSandbox({walletProcessingDelayMs: 0})

describe('wallet sessions on the sandbox clock', () => {
  it('a session past its expiry: exit 4, naming the login to run; nothing changes', async () => {
    const w = await fx.cliWallet()
    const expiresAt = Date.parse(w.session.expiresAt)
    const api = (path: string, body: unknown) =>
      fetch(`${fx.sbx.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${fx.sbx.emu.credentials.tokenId}:${fx.sbx.emu.credentials.clientSecret}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
    expect((await api('/sandbox/clock/freeze', {})).status).toBe(200)
    // Just before the expiry the session still signs.
    expect((await api('/sandbox/clock/advance', {to: new Date(expiresAt - 1000).toISOString()})).status).toBe(200)
    const fine = await fx.run(['wallet', 'privacy', w.accountId, '--enabled', 'false', '--json'])
    expect(fine.code, fine.stderr).toBe(0)

    const moved = await fx.run(['sandbox', 'clock', 'advance', '2s', '--json'])
    expect(moved.code, moved.stderr).toBe(0)
    const r = await fx.run(['wallet', 'privacy', w.accountId, '--enabled', 'true', '--json'])
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: expect.stringContaining(`expired at ${w.session.expiresAt}`),
      hint: expect.stringContaining(`svc wallet login ${w.accountId}`),
    })
    expect(fx.sbx.emu.db.get<{privateEnabled?: boolean}>('internalAccounts', w.accountId)?.privateEnabled).not.toBe(
      true,
    )
  })
})
