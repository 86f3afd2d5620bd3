import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  api,
  balanceOf,
  CHASE_USD_FLAGS,
  clabeEnding,
  externalAddArgs,
  fundedPayer,
  imbalance,
  until,
} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50})
})
afterAll(async () => sbx.stop())

/** The same environment without platform credentials: only the agent profile's token is available. */
const asAgent = (args: string[], profile = 'agent') =>
  sbx.run([...args, '--profile', profile], {env: {SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined}})
const tokenOf = (profile = 'agent') =>
  JSON.parse(readFileSync(join(sbx.env.SVC_CONFIG_DIR, 'agent-tokens.json'), 'utf8')).profiles[profile] as string

async function setup() {
  const c = await fundedPayer(sbx)
  const created = await sbx.run([
    'agents',
    'create',
    '--customer',
    c.id,
    '--name',
    'Bill payer',
    '--permission',
    'CREATE_QUOTES',
    '--permission',
    'EXECUTE_QUOTES',
    '--permission',
    'VIEW_TRANSACTIONS',
    '--permission',
    'CREATE_TRANSFERS',
    '--per-transaction',
    '50.00',
    '--limit-currency',
    'USD',
    '--approval-threshold',
    '30.00',
    '--json',
  ])
  expect(created.code, created.stderr).toBe(0)
  return {
    ...c,
    agent: created.json().agent,
    code: created.json().deviceCode.code as string,
  }
}

describe('agents through the CLI', () => {
  it('device code -> agent login -> a quote within policy runs, one past the threshold waits, one past the limit is refused; the platform approves one and rejects another', async () => {
    const s = await setup()
    expect(s.agent).toMatchObject({
      customerId: s.id,
      isConnected: false,
      policy: {
        spendingLimits: {currency: 'USD', perTransactionLimit: 5000},
        approvalThresholds: {currency: 'USD', amount: 3000},
        defaultExecutionMode: 'AUTO',
      },
    })

    const login = await sbx.run(['agents', 'login', s.code, '--as', 'agent', '--json'])
    expect(login.code, login.stderr).toBe(0)
    expect(login.json()).toMatchObject({profile: 'agent', agentId: s.agent.id, agentName: 'Bill payer'})
    const token = tokenOf()
    expect(token).toMatch(/^agt_/)
    expect(login.stdout + login.stderr).not.toContain(token)
    expect(statSync(join(sbx.env.SVC_CONFIG_DIR, 'agent-tokens.json')).mode & 0o777).toBe(0o600)
    const status = await sbx.run(['agents', 'device-code', 'status', s.code, '--json'])
    expect(status.json()).toEqual({code: s.code, redeemed: true})

    const me = await asAgent(['agents', 'me', 'show', '--json'])
    expect(me.code, me.stderr).toBe(0)
    expect(me.json()).toMatchObject({id: s.agent.id, isConnected: true})

    // Within the policy: runs at once.
    const small = await asAgent([
      'agents',
      'me',
      'quote',
      '--from',
      s.account('USD'),
      '--to',
      s.dest,
      '--send',
      '20.00',
      '--json',
    ])
    expect(small.code, small.stderr).toBe(0)
    const ran = await asAgent(['agents', 'me', 'execute', small.json().id, '--json'])
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.json()).toMatchObject({
      type: 'EXECUTE_QUOTE',
      status: 'APPROVED',
      transaction: {status: 'PROCESSING', agentId: s.agent.id},
    })

    // Beyond the per-transaction limit: refused (the contract's 403), nothing held, the quote still PENDING.
    const over = await asAgent([
      'agents',
      'me',
      'quote',
      '--from',
      s.account('USD'),
      '--to',
      s.dest,
      '--send',
      '80.00',
      '--json',
    ])
    const availableBefore = balanceOf(sbx, s.account('USD'))
    const refused = await asAgent(['agents', 'me', 'execute', over.json().id, '--json'])
    expect(refused.code).toBe(4)
    expect(refused.json().error).toMatchObject({status: 403, code: 'FORBIDDEN'})
    expect(refused.json().error.reason).toMatch(/spending limit exceeded: above the per-transaction limit of 5000 USD/)
    expect(sbx.emu.db.get<{status: string}>('quotes', over.json().id)!.status).toBe('PENDING')
    expect(balanceOf(sbx, s.account('USD'))).toBe(availableBefore)

    // At or above the approval threshold (within the limit): waits for the platform, funds held.
    const big = await asAgent([
      'agents',
      'me',
      'quote',
      '--from',
      s.account('USD'),
      '--to',
      s.dest,
      '--send',
      '45.00',
      '--json',
    ])
    const held = await asAgent(['agents', 'me', 'execute', big.json().id, '--json'])
    expect(held.code, held.stderr).toBe(0)
    expect(held.json()).toMatchObject({status: 'PENDING_APPROVAL'})
    expect(held.json().transaction).toBeUndefined()
    expect(held.stderr).toMatch(/waits for the platform's approval/)
    const webhook = sbx.emu.webhooks
      .list()
      .find((e) => e.type === 'AGENT_ACTION.PENDING_APPROVAL' && (e.data as {id: string}).id === held.json().id)
    expect(webhook).toBeDefined()

    const third = await asAgent([
      'agents',
      'me',
      'quote',
      '--from',
      s.account('USD'),
      '--to',
      s.dest,
      '--send',
      '40.00',
      '--json',
    ])
    const held2 = await asAgent(['agents', 'me', 'execute', third.json().id, '--json'])
    expect(held2.json().status).toBe('PENDING_APPROVAL')

    const pending = await sbx.run(['agents', 'approvals', '--agent', s.agent.id, '--json'])
    expect(pending.json().data.map((x: {id: string}) => x.id)).toEqual([held.json().id, held2.json().id])

    const approved = await sbx.run(['agents', 'approve', s.agent.id, held.json().id, '--yes', '--json'])
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.json()).toMatchObject({status: 'APPROVED', transaction: {status: 'PROCESSING'}})
    const rejected = await sbx.run([
      'agents',
      'reject',
      s.agent.id,
      held2.json().id,
      '--reason',
      'too much today',
      '--yes',
      '--json',
    ])
    expect(rejected.code, rejected.stderr).toBe(0)
    expect(rejected.json()).toMatchObject({status: 'REJECTED', rejectionReason: 'too much today'})

    // Approving again, or approving a transaction that is not waiting for approval, is refused and changes nothing.
    const before = JSON.stringify(sbx.emu.db.get('agentActions', held.json().id))
    const again = await sbx.run(['agents', 'approve', s.agent.id, held.json().id, '--yes', '--json'])
    expect(again.code).toBe(6)
    expect(again.json().error).toMatchObject({status: 409, code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL'})
    expect(again.json().error.hint).toMatch(/waiting for platform approval/)
    expect(JSON.stringify(sbx.emu.db.get('agentActions', held.json().id))).toBe(before)
    const notAgent = await sbx.run(['transactions', 'approve', ran.json().transaction.id, '--yes', '--json'])
    expect(notAgent.code).toBe(6)
    expect(notAgent.json().error.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')

    await until(
      () => sbx.emu.db.get<{status: string}>('transactions', approved.json().transaction.id)!,
      (t) => t.status === 'COMPLETED',
    )
    // 20.00 + 45.00 left (plus fees); the rejected 40.00 came back, the refused 80.00 never left.
    const balance = sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', s.account('USD'))!.balance.amount
    expect(balance).toBe(100_000 - 2000 - 4500)
    expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])

    const txs = await asAgent(['agents', 'me', 'transactions', '--json'])
    expect(txs.code, txs.stderr).toBe(0)
    expect(txs.json().data.every((t: {customerId: string}) => t.customerId === s.id)).toBe(true)
    for (const out of [me, small, ran, over, refused, big, held, txs])
      expect(out.stdout + out.stderr).not.toContain(token)
  })

  it('a transaction needing approval is also released by POST /transactions/{id}/approve', async () => {
    const s = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent2', '--json'])
    const q = await asAgent(
      ['agents', 'me', 'quote', '--from', s.account('USD'), '--to', s.dest, '--send', '35.00', '--json'],
      'agent2',
    )
    const held = await asAgent(['agents', 'me', 'execute', q.json().id, '--json'], 'agent2')
    expect(held.json().status).toBe('PENDING_APPROVAL')
    const txId = q.json().transactionId
    expect(sbx.emu.db.get<{status: string}>('transactions', txId)!.status).toBe('PENDING')
    const ok = await sbx.run(['transactions', 'approve', txId, '--yes', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    const action = await asAgent(['agents', 'me', 'actions', held.json().id, '--json'], 'agent2')
    expect(action.json()).toMatchObject({status: 'APPROVED', transaction: {id: txId}})
  })

  it('the agent token is refused on platform routes, Basic credentials on agent routes (401, exit 4); nothing changes', async () => {
    const s = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent3', '--json'])
    const token = tokenOf('agent3')
    const platform = await fetch(`${sbx.url}/customers`, {headers: {authorization: `Bearer ${token}`}})
    expect(platform.status).toBe(401)
    expect((await platform.json()).code).toBe('UNAUTHORIZED')
    const basic = await api(sbx, 'GET', '/agents/me')
    expect(basic.status).toBe(401)
    // Through the CLI: an agent profile running a platform command is refused with exit 4 and a hint.
    const r = await asAgent(['customers', 'list', '--json'], 'agent3')
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({status: 401, code: 'UNAUTHORIZED'})
    expect(r.json().error.hint).toBeTruthy()
    expect(r.stdout + r.stderr).not.toContain(token)
    // A second redemption of the same code is refused; the token stays the one issued.
    const again = await sbx.run(['agents', 'login', s.code, '--as', 'agent4', '--json'])
    expect(again.code).toBe(2)
    expect(again.json().error.details.errors[0]).toMatchObject({field: 'code'})
    // svc logout forgets the agent token too; the profile then says how to get a new one.
    const out = await sbx.run(['logout', '--profile', 'agent3', '--json'])
    expect(out.json()).toMatchObject({loggedOut: true})
    expect(readFileSync(join(sbx.env.SVC_CONFIG_DIR, 'agent-tokens.json'), 'utf8')).not.toContain(token)
    const none = await asAgent(['agents', 'me', 'show', '--json'], 'agent3')
    expect(none.code).toBe(4)
    expect(none.json().error.hint).toMatch(/svc agents login/)
  })

  it('policy: a paused agent is 403 on actions (exit 4) and still reads; a changed limit applies at once', async () => {
    const s = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent5', '--json'])
    const policy = await sbx.run([
      'agents',
      'policy',
      s.agent.id,
      '--per-transaction',
      '100.00',
      '--limit-currency',
      'USD',
      '--approval-threshold',
      '90.00',
      '--json',
    ])
    expect(policy.code, policy.stderr).toBe(0)
    expect(policy.json().policy.spendingLimits.perTransactionLimit).toBe(10_000)
    expect(policy.json().policy.approvalThresholds).toEqual({currency: 'USD', amount: 9000})
    const q = await asAgent(
      ['agents', 'me', 'quote', '--from', s.account('USD'), '--to', s.dest, '--send', '80.00', '--json'],
      'agent5',
    )
    const paused = await sbx.run(['agents', 'update', s.agent.id, '--pause', '--json'])
    expect(paused.json().isPaused).toBe(true)
    const refused = await asAgent(['agents', 'me', 'execute', q.json().id, '--json'], 'agent5')
    expect(refused.code).toBe(4)
    expect(refused.json().error).toMatchObject({status: 403, code: 'FORBIDDEN'})
    expect(sbx.emu.db.get<{status: string}>('quotes', q.json().id)!.status).toBe('PENDING')
    // Reads are not actions: a paused agent reads as a running one does.
    const pausedMe = await asAgent(['agents', 'me', 'show', '--json'], 'agent5')
    expect(pausedMe.code, pausedMe.stderr).toBe(0)
    expect(pausedMe.json()).toMatchObject({id: s.agent.id, isPaused: true})
    const pausedTxs = await asAgent(['agents', 'me', 'transactions', '--json'], 'agent5')
    expect(pausedTxs.code, pausedTxs.stderr).toBe(0)
    await sbx.run(['agents', 'update', s.agent.id, '--resume', '--json'])
    const ran = await asAgent(['agents', 'me', 'execute', q.json().id, '--json'], 'agent5')
    expect(ran.json().status).toBe('APPROVED')
    const list = await sbx.run(['agents', 'list', '--customer', s.id, '--json'])
    expect(list.json().data.map((a: {id: string}) => a.id)).toEqual([s.agent.id])
    const del = await sbx.run(['agents', 'delete', s.agent.id, '--yes', '--json'])
    expect(del.code, del.stderr).toBe(0)
    const gone = await asAgent(['agents', 'me', 'show', '--json'], 'agent5')
    expect(gone.code).toBe(4)
  })

  it('agents create with a MANAGE-only token: 403 naming TRANSACT, with the hint read from details.required; nothing is created', async () => {
    const c = await fundedPayer(sbx)
    const t = await api(sbx, 'POST', '/tokens', {name: 'manage-only', permissions: ['MANAGE']})
    const env = {env: {SVC_TOKEN_ID: t.body.clientId, SVC_CLIENT_SECRET: t.body.clientSecret}}
    const args = ['agents', 'create', '--customer', c.id, '--name', 'Payer', '--permission', 'EXECUTE_QUOTES']
    const before = sbx.emu.db.count('agents')
    const r = await sbx.run([...args, '--per-transaction', '1000000.00', '--json'], env)
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      details: {
        operation: 'createAgent',
        required: ['TRANSACT'],
        granted: ['MANAGE'],
        because: ['grants EXECUTE_QUOTES'],
      },
    })
    expect(r.json().error.hint).toBe(
      "createAgent needs an API token with TRANSACT; this profile's token holds MANAGE. Use a profile whose token has it, or have one made: `svc tokens create --name <name> --permission TRANSACT`.",
    )
    const human = await sbx.run([...args, '--per-transaction', '1.00'], env)
    expect(human.code).toBe(4)
    expect(human.stderr).toMatch(
      /Hint: createAgent needs an API token with TRANSACT; this profile's token holds MANAGE/,
    )
    expect(sbx.emu.db.count('agents')).toBe(before)
    for (const out of [r, human]) expect(out.stdout + out.stderr).not.toContain(t.body.clientSecret)
  })

  it('bad input is refused before any request (exit 2, every field named)', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'agents',
      'create',
      '--customer',
      'Customer:x',
      '--name',
      'A',
      '--per-transaction',
      '1.234',
      '--limit-currency',
      'XXX',
      '--json',
    ])
    expect(r.code).toBe(2)
    const fields = r.json().error.details.errors.map((e: {field: string}) => e.field)
    expect(fields).toEqual(expect.arrayContaining(['spendingLimits.currency', 'permissions']))
    const code = await sbx.run(['agents', 'login', 'not-a-code', '--json'])
    expect(code.code).toBe(2)
    expect(code.json().error.details.errors[0].field).toBe('code')
    expect(sbx.requestCount()).toBe(before)
  })

  it('transfers as the agent follow the policy too; --debug and --json never show the token', async () => {
    const s = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent6', '--json'])
    const token = tokenOf('agent6')
    const usd = await sbx.run(externalAddArgs(s.id, ...CHASE_USD_FLAGS, '--beneficiary-name', 'Ada Lovelace', '--json'))
    expect(usd.code, usd.stderr).toBe(0)
    const out = await asAgent(
      [
        'agents',
        'me',
        'transfer',
        '--out',
        '--account',
        s.account('USD'),
        '--external',
        usd.json().id,
        '--amount',
        '10.00',
        '--debug',
        '--json',
      ],
      'agent6',
    )
    expect(out.code, out.stderr).toBe(0)
    expect(out.json()).toMatchObject({
      type: 'TRANSFER_OUT',
      status: 'APPROVED',
      transferDetails: {amount: 1000, currency: 'USD'},
    })
    expect(out.stderr).toMatch(/authorization: \[REDACTED\]/)
    const afterOut = balanceOf(sbx, s.account('USD'))
    const over = await asAgent(
      [
        'agents',
        'me',
        'transfer',
        '--out',
        '--account',
        s.account('USD'),
        '--external',
        usd.json().id,
        '--amount',
        '75.00',
        '--json',
      ],
      'agent6',
    )
    // Past the 50.00 limit: 403, nothing held.
    expect(over.code).toBe(4)
    expect(over.json().error).toMatchObject({status: 403, code: 'FORBIDDEN'})
    expect(balanceOf(sbx, s.account('USD'))).toBe(afterOut)
    const big = await asAgent(
      [
        'agents',
        'me',
        'transfer',
        '--out',
        '--account',
        s.account('USD'),
        '--external',
        usd.json().id,
        '--amount',
        '40.00',
        '--json',
      ],
      'agent6',
    )
    expect(big.json()).toMatchObject({type: 'TRANSFER_OUT', status: 'PENDING_APPROVAL'})
    const actions = await asAgent(['agents', 'me', 'actions', '--status', 'PENDING_APPROVAL', '--json'], 'agent6')
    expect(actions.json().data.map((x: {id: string}) => x.id)).toEqual([big.json().id])
    const accounts = await asAgent(['agents', 'me', 'accounts', '--json'], 'agent6')
    expect(accounts.json().data.every((a: {customerId: string}) => a.customerId === s.id)).toBe(true)
    for (const r of [out, over, big, actions, accounts]) expect(r.stdout + r.stderr).not.toContain(token)
    // The redeem itself under --debug: the token in the answer body is redacted.
    const dc = await sbx.run(['agents', 'device-code', 'issue', s.agent.id, '--json'])
    const relog = await sbx.run(['agents', 'login', dc.json().code, '--as', 'agent6', '--debug', '--json'])
    expect(relog.code, relog.stderr).toBe(0)
    expect(relog.stderr).toMatch(/accessToken":"\[REDACTED\]"/)
    expect(relog.stdout + relog.stderr).not.toContain(tokenOf('agent6'))
    // The old token was replaced by the new redemption.
    const old = await fetch(`${sbx.url}/agents/me`, {headers: {authorization: `Bearer ${token}`}})
    expect(old.status).toBe(401)
  })

  it("external accounts as the agent need MANAGE_EXTERNAL_ACCOUNTS; another customer's data stays hidden", async () => {
    const s = await setup()
    const other = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent7', '--json'])
    const add = [
      'agents',
      'me',
      'external',
      'add',
      '--type',
      'CLABE',
      '--clabe',
      clabeEnding('124'),
      '--beneficiary-name',
      'Juan Perez',
      '--json',
    ]
    const before = sbx.emu.db.count('externalAccounts')
    const refused = await asAgent(add, 'agent7')
    expect(refused.code).toBe(4)
    expect(refused.json().error).toMatchObject({status: 403, code: 'FORBIDDEN'})
    expect(refused.json().error.hint).toBeTruthy()
    expect(sbx.emu.db.count('externalAccounts')).toBe(before)
    await sbx.run([
      'agents',
      'policy',
      s.agent.id,
      '--permission',
      'MANAGE_EXTERNAL_ACCOUNTS',
      '--permission',
      'VIEW_TRANSACTIONS',
      '--json',
    ])
    const ok = await asAgent(add, 'agent7')
    expect(ok.code, ok.stderr).toBe(0)
    expect(sbx.emu.db.get<{customerId: string}>('externalAccounts', ok.json().id)!.customerId).toBe(s.id)
    const list = await asAgent(['agents', 'me', 'accounts', '--external', '--json'], 'agent7')
    expect(list.json().data.map((a: {id: string}) => a.id)).toEqual(expect.arrayContaining([s.dest, ok.json().id]))
    expect(list.json().data.map((a: {id: string}) => a.id)).not.toContain(other.dest)
    const foreign = await asAgent(
      ['agents', 'me', 'quote', '--from', other.account('USD'), '--to', other.dest, '--send', '1.00', '--json'],
      'agent7',
    )
    expect(foreign.code).toBe(2)
    expect(foreign.json().error.details.errors[0].field).toBe('source.accountId')
    const del = await asAgent(['agents', 'me', 'external', 'delete', ok.json().id, '--yes', '--json'], 'agent7')
    expect(del.code, del.stderr).toBe(0)
  })

  it('without VIEW_TRANSACTIONS an agent reads no balances: accounts is 403, --send asks for --amount-minor', async () => {
    const s = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent9', '--json'])
    const narrowed = await sbx.run([
      'agents',
      'policy',
      s.agent.id,
      '--permission',
      'CREATE_QUOTES',
      '--permission',
      'EXECUTE_QUOTES',
      '--json',
    ])
    expect(narrowed.code, narrowed.stderr).toBe(0)
    const accounts = await asAgent(['agents', 'me', 'accounts', '--json'], 'agent9')
    expect(accounts.code).toBe(4)
    expect(accounts.json().error).toMatchObject({status: 403, details: {permission: 'VIEW_TRANSACTIONS'}})
    const quote = ['agents', 'me', 'quote', '--from', s.account('USD'), '--to', s.dest]
    const before = sbx.emu.db.count('quotes')
    const send = await asAgent([...quote, '--send', '10.00', '--json'], 'agent9')
    expect(send.code).toBe(2)
    expect(send.json().error.reason).toMatch(/--send needs the currency of .* its policy lacks VIEW_TRANSACTIONS/)
    expect(send.json().error.hint).toMatch(/--amount-minor/)
    expect(sbx.emu.db.count('quotes')).toBe(before)
    const minor = await asAgent([...quote, '--amount-minor', '1000', '--json'], 'agent9')
    expect(minor.code, minor.stderr).toBe(0)
    expect(minor.json()).toMatchObject({sendingCurrency: {code: 'USD'}})
  })

  it('a waiting action follows its transaction: cancelled by the platform, the action is FAILED and the funds are back', async () => {
    const s = await setup()
    await sbx.run(['agents', 'login', s.code, '--as', 'agent8', '--json'])
    const q = await asAgent(
      ['agents', 'me', 'quote', '--from', s.account('USD'), '--to', s.dest, '--send', '45.00', '--json'],
      'agent8',
    )
    const held = await asAgent(['agents', 'me', 'execute', q.json().id, '--json'], 'agent8')
    expect(held.json().status).toBe('PENDING_APPROVAL')
    const cancel = await sbx.run(['transactions', 'cancel', q.json().transactionId, '--yes', '--json'])
    expect(cancel.code, cancel.stderr).toBe(0)
    const action = await asAgent(['agents', 'me', 'actions', held.json().id, '--json'], 'agent8')
    expect(action.json().status).toBe('FAILED')
    const approve = await sbx.run(['agents', 'approve', s.agent.id, held.json().id, '--yes', '--json'])
    expect(approve.code).toBe(6)
    expect(approve.json().error.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
    expect(sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', s.account('USD'))!.balance.amount).toBe(
      100_000,
    )
  })
})
