import {describe, expect, it} from 'vitest'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({walletProcessingDelayMs: 50})

const session = (id: string) => fx.sbx.emu.db.get<{revoked?: boolean}>('walletSessions', id)
const storedKeys = async (accountId: string) =>
  (await fx.run(['wallet', 'keys', 'list', '--account', accountId, '--json'])).json().data as Array<{sessionId: string}>

describe('wallet logout', () => {
  it('revokes every stored session on the Service and deletes the keys, in one step', async () => {
    const w = await fx.cliWallet()
    const second = await fx.run(['wallet', 'login', w.accountId, '--json'])
    const secondId = second.json().session.id as string
    expect((await storedKeys(w.accountId)).map((k) => k.sessionId).sort()).toEqual([w.sessionId, secondId].sort())

    const r = await fx.run(['wallet', 'logout', w.accountId, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const out = r.json()
    expect(out).toMatchObject({accountId: w.accountId, alreadyEnded: [], keysDeleted: 2})
    expect(out.revoked.sort()).toEqual([w.sessionId, secondId].sort())
    expect(session(w.sessionId)?.revoked).toBe(true)
    expect(session(secondId)?.revoked).toBe(true)
    expect(await storedKeys(w.accountId)).toEqual([])

    // Again: nothing stored, nothing sent, exit 0.
    const before = fx.sbx.requestCount()
    const again = await fx.run(['wallet', 'logout', w.accountId])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`No stored session for ${w.accountId}: nothing to log out.`)
    expect(fx.sbx.requestCount()).toBe(before)
  })

  it('a session the Service already ended only loses its key', async () => {
    const w = await fx.cliWallet()
    const revoked = await fx.run(['wallet', 'sessions', 'revoke', w.sessionId, '--account', w.accountId, '--json'])
    expect(revoked.code, revoked.stderr).toBe(0)
    // Put the key back as if another machine had revoked the session.
    const again = await fx.cliWallet()
    fx.sbx.emu.db.put('walletSessions', again.sessionId, {
      ...fx.sbx.emu.db.get<object>('walletSessions', again.sessionId),
      revoked: true,
    })
    const r = await fx.run(['wallet', 'logout', again.accountId])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`${again.sessionId} had already ended on the Service`)
    expect(r.stderr).toContain(`Logged out of ${again.accountId}: 1 key(s) deleted`)
    expect(await storedKeys(again.accountId)).toEqual([])
  })

  it('refuses a wrong id before any request (exit 2)', async () => {
    const before = fx.sbx.requestCount()
    const r = await fx.run(['wallet', 'logout', 'Customer:123', '--json'])
    expect(r.code).toBe(2)
    expect(JSON.stringify(r.json().error.details)).toMatch(/InternalAccount/)
    expect(fx.sbx.requestCount()).toBe(before)
  })
})
