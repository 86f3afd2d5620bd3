import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {EnclaveClient} from '../helpers/enclave.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let api: EnclaveClient
beforeAll(async () => {
  sbx = await startSandbox({challengeMinIntervalMs: 0, walletProcessingDelayMs: 50})
  api = new EnclaveClient(sbx)
})
afterAll(async () => sbx.stop())

const run = (args: string[]) => svc(args, {env: sbx.env})
const session = (id: string) => sbx.emu.db.get<{revoked?: boolean}>('walletSessions', id)
const storedKeys = async (accountId: string) => (await run(['wallet', 'keys', 'list', '--account', accountId, '--json'])).json().data as Array<{sessionId: string}>

async function loggedIn() {
  const {accountId} = await api.createCustomer()
  const r = await run(['wallet', 'login', accountId, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return {accountId, sessionId: r.json().session.id as string}
}

describe('wallet logout', () => {
  it('revokes every stored session on the Service and deletes the keys, in one step', async () => {
    const w = await loggedIn()
    const second = await run(['wallet', 'login', w.accountId, '--json'])
    const secondId = second.json().session.id as string
    expect((await storedKeys(w.accountId)).map((k) => k.sessionId).sort()).toEqual([w.sessionId, secondId].sort())

    const r = await run(['wallet', 'logout', w.accountId, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const out = r.json()
    expect(out).toMatchObject({accountId: w.accountId, alreadyEnded: [], keysDeleted: 2})
    expect(out.revoked.sort()).toEqual([w.sessionId, secondId].sort())
    expect(session(w.sessionId)?.revoked).toBe(true)
    expect(session(secondId)?.revoked).toBe(true)
    expect(await storedKeys(w.accountId)).toEqual([])

    // Again: nothing stored, nothing sent, exit 0.
    const before = sbx.requestCount()
    const again = await run(['wallet', 'logout', w.accountId])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`No stored session for ${w.accountId}: nothing to log out.`)
    expect(sbx.requestCount()).toBe(before)
  })

  it('a session the Service already ended only loses its key', async () => {
    const w = await loggedIn()
    const revoked = await run(['wallet', 'sessions', 'revoke', w.sessionId, '--account', w.accountId, '--json'])
    expect(revoked.code, revoked.stderr).toBe(0)
    // Put the key back as if another machine had revoked the session.
    const again = await loggedIn()
    sbx.emu.db.put('walletSessions', again.sessionId, {...sbx.emu.db.get<object>('walletSessions', again.sessionId), revoked: true})
    const r = await run(['wallet', 'logout', again.accountId])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`${again.sessionId} had already ended on the Service`)
    expect(r.stderr).toContain(`Logged out of ${again.accountId}: 1 key(s) deleted`)
    expect(await storedKeys(again.accountId)).toEqual([])
  })

  it('refuses a wrong id before any request (exit 2)', async () => {
    const before = sbx.requestCount()
    const r = await run(['wallet', 'logout', 'Customer:123', '--json'])
    expect(r.code).toBe(2)
    expect(JSON.stringify(r.json().error.details)).toMatch(/InternalAccount/)
    expect(sbx.requestCount()).toBe(before)
  })
})
