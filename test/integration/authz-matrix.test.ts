import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AUTHZ_TABLE, type AuthzEntry} from '../../src/emulator/authz/table.js'
import type {Permission} from '../../src/emulator/principal.js'
import {api} from '../helpers/money.js'
import {agentWith, probe, tokenWith, tokenWithNoPermission} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/** A caller of the matrix: what it presents, and what it holds. */
interface Caller {
  name: string
  auth?: string
  kind: 'none' | 'platform' | 'agent'
  permissions: string[]
}

let sbx: TestSandbox
const callers: Caller[] = []
beforeAll(async () => {
  sbx = await startSandbox()
  const other = (
    await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Other Customer', currencies: ['USD']})
  ).body.id as string
  const token = async (permissions: Permission[]) => ({
    name: `${permissions.join('+')} token`,
    auth: (await tokenWith(sbx, permissions)).auth,
    kind: 'platform' as const,
    permissions,
  })
  callers.push(
    {name: 'no credentials', kind: 'none', permissions: []},
    {name: 'token with no permission', auth: tokenWithNoPermission(sbx).auth, kind: 'platform', permissions: []},
    await token(['VIEW']),
    await token(['TRANSACT']),
    await token(['MANAGE']),
    {
      name: 'agent of another customer (every permission)',
      auth: (
        await agentWith(sbx, other, [
          'VIEW_TRANSACTIONS',
          'CREATE_TRANSFERS',
          'CREATE_QUOTES',
          'EXECUTE_QUOTES',
          'MANAGE_EXTERNAL_ACCOUNTS',
        ])
      ).auth,
      kind: 'agent',
      permissions: [
        'VIEW_TRANSACTIONS',
        'CREATE_TRANSFERS',
        'CREATE_QUOTES',
        'EXECUTE_QUOTES',
        'MANAGE_EXTERNAL_ACCOUNTS',
      ],
    },
    {name: 'agent with no permission', auth: (await agentWith(sbx, other, [])).auth, kind: 'agent', permissions: []},
  )
})
afterAll(async () => sbx.stop())

// The simulator route of the sandbox's own is probed with the one kind the contract lacks (its allowance covers that path).
const concrete = (path: string) => path.replace('{kind}', 'authorization_expiry').replace(/\{[^}]+\}/g, 'Sample:1')
const operation = (e: AuthzEntry) => e.operationId ?? `${e.method} ${e.path}`

/** What the table says this caller gets: through (to the body, here a 413), or the refusal. */
function expected(e: AuthzEntry, c: Caller): {status: number; code: string; details?: Record<string, unknown>} {
  const through = {status: 413, code: 'PAYLOAD_TOO_LARGE'}
  const who = e.who
  if (who.kind === 'public') return through
  if (c.kind === 'none' || c.kind !== who.kind) return {status: 401, code: 'UNAUTHORIZED'}
  if (who.kind === 'platform')
    return who.anyOf.some((p) => c.permissions.includes(p))
      ? through
      : {status: 403, code: 'FORBIDDEN', details: {operation: operation(e), required: who.anyOf}}
  return !who.needs || c.permissions.includes(who.needs)
    ? through
    : {status: 403, code: 'FORBIDDEN', details: {operation: operation(e), permission: who.needs}}
}

describe('authorization matrix: every operation in the table, called by every kind of caller', () => {
  it(`covers the ${AUTHZ_TABLE.length} entries: each caller is admitted or refused exactly as the table says, before any body is read`, async () => {
    expect(AUTHZ_TABLE.filter((e) => e.operationId)).toHaveLength(153)
    const before = {
      tokens: sbx.emu.db.count('apiTokens'),
      customers: sbx.emu.db.count('customers'),
      quotes: sbx.emu.db.count('quotes'),
    }
    const wrong: string[] = []
    const tally = {admitted: 0, refused401: 0, refused403: 0}
    for (const e of AUTHZ_TABLE) {
      const answers = await Promise.all(callers.map((c) => probe(sbx, e.method, concrete(e.path), c.auth)))
      callers.forEach((c, i) => {
        const want = expected(e, c)
        const got = answers[i]
        const ok =
          got.status === want.status &&
          got.body.code === want.code &&
          (!want.details ||
            Object.entries(want.details).every(([k, v]) => JSON.stringify(got.body.details?.[k]) === JSON.stringify(v)))
        if (!ok)
          wrong.push(
            `${operation(e)} as ${c.name}: expected ${want.status} ${want.code}, got ${got.status} ${JSON.stringify(got.body)}`,
          )
        else if (want.status === 413) tally.admitted++
        else if (want.status === 401) tally.refused401++
        else tally.refused403++
      })
    }
    expect(wrong).toEqual([])
    // Every kind of outcome happened (the matrix is not vacuous), and no probe changed anything.
    // Issue 29: the eight session operations left TRANSACT (F13), and agentListInternalAccounts asks for VIEW_TRANSACTIONS (F8);
    // the public terms page, the card-exception simulator and the webhook listener registration are new entries;
    // issue 31: the object trigger (TRANSACT) is one more.
    expect(tally).toEqual({admitted: 331, refused401: 537, refused403: 371})
    expect({
      tokens: sbx.emu.db.count('apiTokens'),
      customers: sbx.emu.db.count('customers'),
      quotes: sbx.emu.db.count('quotes'),
    }).toEqual(before)
  })

  it('the permissions the contract spells out: reads for every token, payments for TRANSACT only, tokens/config/customers for MANAGE only', () => {
    const of = (id: string) => AUTHZ_TABLE.find((e) => e.operationId === id)!.who
    expect(of('getPlatformConfig')).toEqual({kind: 'platform', anyOf: ['VIEW', 'TRANSACT', 'MANAGE']})
    expect(of('createQuote')).toEqual({kind: 'platform', anyOf: ['TRANSACT']})
    expect(of('executeQuote')).toEqual({kind: 'platform', anyOf: ['TRANSACT']})
    expect(of('createToken')).toEqual({kind: 'platform', anyOf: ['MANAGE']})
    expect(of('updatePlatformConfig')).toEqual({kind: 'platform', anyOf: ['MANAGE']})
    expect(of('createCustomer')).toEqual({kind: 'platform', anyOf: ['MANAGE']})
    expect(of('redeemAgentDeviceCode')).toEqual({kind: 'public'})
    expect(of('agentCreateExternalAccount')).toEqual({kind: 'agent', needs: 'MANAGE_EXTERNAL_ACCOUNTS'})
    expect(of('agentDeleteExternalAccount')).toEqual({kind: 'agent', needs: 'MANAGE_EXTERNAL_ACCOUNTS'})
    // One rule for session operations: MANAGE, so a payments-only token cannot lock a customer out (F13).
    for (const id of ['startScaLogin', 'completeScaLogin', 'recordSecurityEvent', 'verifyAuthCredential'])
      expect(of(id)).toEqual({kind: 'platform', anyOf: ['MANAGE']})
    expect(of('agentListInternalAccounts')).toEqual({kind: 'agent', needs: 'VIEW_TRANSACTIONS'})
  })
})
