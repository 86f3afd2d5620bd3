import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {MATRIX_POLICY, actionTransaction, fundedTarget, redeem, type Target} from '../helpers/delegation.js'
import {api} from '../helpers/money.js'
import {agentWith, call, tokenWith} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Issue 29, around the delegation matrix: what the refusals say (the permission, the grant, the
 * field), what an agent reads under VIEW_TRANSACTIONS, paused or orphaned, and that narrowing a
 * policy stays MANAGE's.
 */
let sbx: TestSandbox
let c: Target
const ALL = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS']
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 60_000})
  c = await fundedTarget(sbx, 'Ada Payer')
})
afterAll(async () => sbx.stop())

const agentDoc = (id: string) => JSON.stringify(sbx.emu.db.get('agents', id))
const transferOut = (t: Target, amount: number) => ({
  source: {accountId: t.usd},
  destination: {accountId: t.usdBank},
  amount,
})

describe('agent grants', () => {
  it('MANAGE alone narrows a paying agent but cannot widen it; the 403 names TRANSACT and why; nothing changes', async () => {
    const manage = await tokenWith(sbx, ['MANAGE'])
    const a = await agentWith(sbx, c.id, ['CREATE_QUOTES', 'EXECUTE_QUOTES'], MATRIX_POLICY)
    const narrowed = await call(sbx, manage.auth, 'PATCH', `/agents/${a.id}/policy`, {
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: {perTransactionLimit: 5000},
    })
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200)
    const before = agentDoc(a.id)
    const widened = await call(sbx, manage.auth, 'PATCH', `/agents/${a.id}/policy`, {
      defaultExecutionMode: 'AUTO',
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
    })
    expect(widened).toMatchObject({
      status: 403,
      body: {
        code: 'FORBIDDEN',
        details: {
          operation: 'updateAgentPolicy',
          required: ['TRANSACT'],
          granted: ['MANAGE'],
          because: ['grants CREATE_TRANSFERS', 'switches defaultExecutionMode to AUTO'],
        },
      },
    })
    expect(agentDoc(a.id)).toBe(before)
    // An agent that cannot move money is MANAGE's alone, from creation to device codes.
    const viewer = await call(sbx, manage.auth, 'POST', '/agents', {
      name: 'reader',
      customerId: c.id,
      policy: {...MATRIX_POLICY, permissions: ['VIEW_TRANSACTIONS']},
    })
    expect(viewer.status).toBe(201)
    expect((await call(sbx, manage.auth, 'POST', `/agents/${viewer.body.agent.id}/device-codes`)).status).toBe(201)
  })

  it('the agent answers to the token that last granted it: a newer grant survives the first token being deleted', async () => {
    const [t1, t2] = [await tokenWith(sbx, ['MANAGE', 'TRANSACT']), await tokenWith(sbx, ['MANAGE', 'TRANSACT'])]
    const made = await call(sbx, t1.auth, 'POST', '/agents', {
      name: 'payer',
      customerId: c.id,
      policy: {...MATRIX_POLICY, permissions: ALL},
    })
    const bearer = (await redeem(sbx, made.body.deviceCode.code))!
    await api(sbx, 'DELETE', `/tokens/${t1.id}`)
    const stopped = await call(sbx, bearer, 'POST', '/agents/me/transfer-out', transferOut(c, 1000))
    expect(stopped).toMatchObject({
      status: 403,
      body: {code: 'FORBIDDEN', details: {operation: 'agentCreateTransferOut', grantedBy: t1.id}},
    })
    expect(stopped.body.reason).toMatch(/was deleted/)
    // Reads go on; a TRANSACT holder's new device code grants it again.
    expect((await call(sbx, bearer, 'GET', '/agents/me')).status).toBe(200)
    const code = await call(sbx, t2.auth, 'POST', `/agents/${made.body.agent.id}/device-codes`)
    const again = (await redeem(sbx, code.body.code))!
    const paid = await call(sbx, again, 'POST', '/agents/me/transfer-out', transferOut(c, 1000))
    expect(paid).toMatchObject({status: 201, body: {status: 'APPROVED'}})
  })

  it('policy input: a threshold amount needs its currency, and every currency needs a rate (400, field named, nothing changes)', async () => {
    const a = await agentWith(sbx, c.id, ['VIEW_TRANSACTIONS'], MATRIX_POLICY)
    const before = agentDoc(a.id)
    const noCurrency = await api(sbx, 'PATCH', `/agents/${a.id}/policy`, {approvalThresholds: {amount: 100}})
    expect(noCurrency).toMatchObject({
      status: 400,
      body: {code: 'INVALID_INPUT', details: {errors: [{field: 'approvalThresholds.currency'}]}},
    })
    const noRate = await api(sbx, 'PATCH', `/agents/${a.id}/policy`, {
      spendingLimits: {currency: 'ACME'},
      approvalThresholds: {currency: 'ZZZ', amount: 1},
    })
    expect(noRate.status).toBe(400)
    expect(noRate.body.details.errors.map((e: {field: string}) => e.field)).toEqual([
      'spendingLimits.currency',
      'approvalThresholds.currency',
    ])
    expect(agentDoc(a.id)).toBe(before)
    const created = await api(sbx, 'POST', '/agents', {
      name: 'x',
      customerId: c.id,
      policy: {...MATRIX_POLICY, permissions: [], approvalThresholds: {amount: 5}},
    })
    expect(created.body.details.errors).toEqual([
      expect.objectContaining({field: 'policy.approvalThresholds.currency'}),
    ])
  })
})

describe('what an agent reads (F8)', () => {
  it('balances and the transactions inside actions need VIEW_TRANSACTIONS', async () => {
    const blind = await agentWith(sbx, c.id, ['CREATE_TRANSFERS'], MATRIX_POLICY)
    const sees = await agentWith(sbx, c.id, ['CREATE_TRANSFERS', 'VIEW_TRANSACTIONS'], MATRIX_POLICY)
    expect(await call(sbx, blind.auth, 'GET', '/agents/me/internal-accounts')).toMatchObject({
      status: 403,
      body: {details: {permission: 'VIEW_TRANSACTIONS', operation: 'agentListInternalAccounts'}},
    })
    const accounts = await call(sbx, sees.auth, 'GET', '/agents/me/internal-accounts')
    expect(accounts.body.data.map((x: {id: string}) => x.id)).toContain(c.usd)
    for (const [agent, shown] of [
      [blind, false],
      [sees, true],
    ] as const) {
      const x = await call(sbx, agent.auth, 'POST', '/agents/me/transfer-out', transferOut(c, 1000))
      expect(x.body.status).toBe('APPROVED')
      expect(Boolean(actionTransaction(sbx, x.body))).toBe(true)
      const read = await call(sbx, agent.auth, 'GET', `/agents/me/actions/${x.body.id}`)
      const listed = await call(sbx, agent.auth, 'GET', '/agents/me/actions')
      for (const doc of [x.body, read.body, listed.body.data[0]]) expect('transaction' in doc).toBe(shown)
    }
  })

  it('a paused agent reads as a running one and initiates nothing; a deleted customer stops its agents entirely', async () => {
    const a = await agentWith(sbx, c.id, ALL, MATRIX_POLICY)
    await api(sbx, 'PATCH', `/agents/${a.id}`, {isPaused: true})
    for (const path of ['/agents/me', '/agents/me/transactions', '/agents/me/internal-accounts', '/agents/me/actions'])
      expect((await call(sbx, a.auth, 'GET', path)).status, path).toBe(200)
    const refused = await call(sbx, a.auth, 'POST', '/agents/me/transfer-out', transferOut(c, 1000))
    expect(refused).toMatchObject({status: 403, body: {details: {agentId: a.id, operation: 'agentCreateTransferOut'}}})
    const gone = await fundedTarget(sbx, 'Leaving Customer')
    const orphan = await agentWith(sbx, gone.id, ALL, MATRIX_POLICY)
    expect((await call(sbx, orphan.auth, 'GET', '/agents/me')).status).toBe(200)
    await api(sbx, 'DELETE', `/customers/${gone.id}`)
    for (const path of ['/agents/me', '/agents/me/transactions', '/agents/me/internal-accounts'])
      expect(await call(sbx, orphan.auth, 'GET', path)).toMatchObject({
        status: 403,
        body: {code: 'FORBIDDEN', details: {customerId: gone.id}},
      })
  })
})
