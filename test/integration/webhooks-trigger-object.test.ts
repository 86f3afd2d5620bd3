import {afterAll, beforeAll, describe, expect, inject, it} from 'vitest'
import {SANDBOX_UMA_DOMAIN} from '../../src/lib/schemas/uma.js'
import {OBJECT_FORMS} from '../../src/lib/webhook-trigger/object-forms.js'
import {Contract} from '../helpers/contract.js'
import {checkWebhookBody} from '../helpers/contract-webhooks.js'
import {api, approvedCustomer, balanceOf, fundedPayer, imbalance} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {startReceiver, type TestReceiver} from '../helpers/webhook-receiver.js'
import {eventually} from '../helpers/wait.js'

/**
 * `svc webhooks trigger TYPE --object ID [--set k=v]` for every type with an object form: an object
 * made beforehand waits in the state the transition starts from (every delay of the sandbox is an
 * hour, so nothing moves by itself); the command makes the sandbox move it; the sandbox's store
 * shows the new state and the receiver (the configured endpoint) gets the event, its body valid by the
 * contract's webhook schema.
 */
const HOUR = 3_600_000
let sbx: TestSandbox
let receiver: TestReceiver
let contract: Contract
beforeAll(async () => {
  contract = await Contract.load(undefined, inject('contractJson') || undefined)
  sbx = await startSandbox({
    decisionDelayMs: HOUR,
    paymentCompletionDelayMs: HOUR,
    incomingApprovalDelayMs: HOUR,
    bankValidationMs: HOUR,
    cardProcessingDelayMs: HOUR,
  })
  receiver = await startReceiver()
  sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: receiver.url})
})
afterAll(async () => {
  await receiver?.close()
  await sbx?.stop()
})

const stored = <T = any>(table: string, id: string) => sbx.emu.db.get<T>(table, id) as any

/** Runs the command; insists on exit 0, the event delivered to the receiver, and returns the result document. */
async function trigger(type: string, objectId: string, ...set: string[]) {
  const r = await sbx.run([
    'webhooks',
    'trigger',
    type,
    '--object',
    objectId,
    ...set.flatMap((s) => ['--set', s]),
    '--json',
  ])
  expect(r.code, r.stderr).toBe(0)
  const out = r.json()
  expect(out).toMatchObject({
    type,
    objectId,
    eventLog: true,
    event: {type},
    delivery: {state: 'delivered', endpointStatus: 200},
  })
  await eventually(() => receiver.got.some((d) => d.id === out.event.id))
  const body = JSON.parse(receiver.got.find((d) => d.id === out.event.id)!.body)
  expect(body).toEqual(out.event)
  const check = checkWebhookBody(contract, body)
  expect(check.errors, `${type} against the contract (${check.operation ?? 'no operation'})`).toEqual([])
  return out
}

/** Objects in their waiting states, made the ordinary way (recipes, the API, the simulators). */
async function pendingCustomer(kind: 'KYC' | 'KYB'): Promise<string> {
  const made = await sbx.json(['webhooks', 'trigger', `CUSTOMER.${kind}_PENDING`], {timeoutMs: 60_000})
  expect(stored('customers', made.objectId)[kind === 'KYC' ? 'kycStatus' : 'kybStatus']).toBe('PENDING')
  return made.objectId as string
}

async function incomingPending(): Promise<{id: string; account: string}> {
  const c = await approvedCustomer(sbx, ['USD'])
  const r = await api(sbx, 'POST', '/sandbox/uma/receive', {
    senderUmaAddress: `$pending.long.usd@${SANDBOX_UMA_DOMAIN}`,
    customerId: c.id,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 700,
  })
  expect(r.body.status).toBe('PENDING')
  return {id: r.body.id, account: c.account('USD')}
}

async function outgoingQuote(): Promise<{quoteId: string; account: string}> {
  const p = await fundedPayer(sbx)
  const q = await api(sbx, 'POST', '/quotes', {
    source: {sourceType: 'ACCOUNT', accountId: p.account('USD')},
    destination: {destinationType: 'ACCOUNT', accountId: p.dest},
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  })
  expect(q.status, JSON.stringify(q.body)).toBe(201)
  return {quoteId: q.body.id, account: p.account('USD')}
}

async function outgoingProcessing(): Promise<{id: string; account: string}> {
  const {quoteId, account} = await outgoingQuote()
  const x = await api(sbx, 'POST', `/quotes/${quoteId}/execute`, {})
  expect(x.status, JSON.stringify(x.body)).toBe(200)
  const id = x.body.transactionId as string
  expect(stored('transactions', id).status).toBe('PROCESSING')
  return {id, account}
}

async function card(suffix: '001' | '100', holder?: Awaited<ReturnType<typeof approvedCustomer>>): Promise<string> {
  const c = holder ?? (await approvedCustomer(sbx, ['USD']))
  await api(sbx, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(c.account('USD'))}/fund`, {amount: 10_000})
  const r = await api(sbx, 'POST', '/cards', {
    cardholderId: c.id,
    platformCardId: `trigger-object-${Math.random().toString(36).slice(2)}-${suffix}`,
    form: 'VIRTUAL',
    fundingSources: [c.account('USD')],
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

async function authorization(): Promise<string> {
  const cardId = await card('001')
  await trigger('CARD.STATE_CHANGE', cardId) // PROCESSING -> ACTIVE: provisioning finishes
  const r = await api(sbx, 'POST', `/sandbox/cards/${encodeURIComponent(cardId)}/simulate/authorization`, {
    amount: 1250,
    currency: {code: 'USD'},
    merchant: {descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US'},
  })
  expect(r.status, JSON.stringify(r.body)).toBe(202)
  const t = sbx.emu.db
    .all<{id: string; issuerTransactionToken: string}>('cardTransactions')
    .find((x) => x.issuerTransactionToken === r.body.issuerTransactionToken)!
  expect(stored('cardTransactions', t.id).status).toBe('AUTHORIZED')
  return t.id
}

async function hold(id: string, key: 'kycStatus' | 'kybStatus') {
  sbx.emu.db.put('customers', id, {...stored('customers', id), [key]: 'HOLD'}) // what a 004 decision leaves
}

/** Per type: make the object, trigger, and check the sandbox's state. */
const CASES: Record<string, () => Promise<void>> = {
  'INCOMING_PAYMENT.COMPLETED': async () => {
    const {id, account} = await incomingPending()
    await trigger('INCOMING_PAYMENT.COMPLETED', id)
    expect(stored('transactions', id)).toMatchObject({status: 'COMPLETED'})
    expect(balanceOf(sbx, account)).toBe(700)
  },
  'INCOMING_PAYMENT.FAILED': async () => {
    const {id, account} = await incomingPending()
    const out = await trigger('INCOMING_PAYMENT.FAILED', id, 'failureReason=PAYMENT_APPROVAL_TIMED_OUT')
    expect(out.event.data).toMatchObject({status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT'})
    expect(stored('transactions', id)).toMatchObject({status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT'})
    expect(balanceOf(sbx, account)).toBe(0)
  },
  'INCOMING_PAYMENT.REFUND_PENDING': async () => {
    const {id} = await incomingPending()
    await trigger('INCOMING_PAYMENT.REFUND_PENDING', id)
    expect(stored('transactions', id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'OFFRAMP_FAILED',
      refund: {status: 'PENDING'},
    })
  },
  'INCOMING_PAYMENT.REFUND_COMPLETED': async () => {
    const {id} = await incomingPending()
    await trigger('INCOMING_PAYMENT.REFUND_PENDING', id)
    await trigger('INCOMING_PAYMENT.REFUND_COMPLETED', id)
    expect(stored('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'COMPLETED'}})
  },
  'INCOMING_PAYMENT.REFUND_FAILED': async () => {
    const {id} = await incomingPending()
    await trigger('INCOMING_PAYMENT.REFUND_PENDING', id)
    await trigger('INCOMING_PAYMENT.REFUND_FAILED', id)
    expect(stored('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'FAILED'}})
  },
  'OUTGOING_PAYMENT.PROCESSING': async () => {
    const {quoteId} = await outgoingQuote()
    const x = await api(sbx, 'POST', `/sandbox/quotes/${quoteId}/execute-as-agent`, {})
    expect(x.status, JSON.stringify(x.body)).toBe(200)
    const id = x.body.transactionId as string
    expect(stored('transactions', id).status).toBe('PENDING')
    await trigger('OUTGOING_PAYMENT.PROCESSING', id)
    expect(stored('transactions', id).status).toBe('PROCESSING')
  },
  'OUTGOING_PAYMENT.COMPLETED': async () => {
    const {id, account} = await outgoingProcessing()
    await trigger('OUTGOING_PAYMENT.COMPLETED', id)
    expect(stored('transactions', id)).toMatchObject({status: 'COMPLETED'})
    expect(balanceOf(sbx, account)).toBe(90_000)
  },
  'OUTGOING_PAYMENT.FAILED': async () => {
    const {id, account} = await outgoingProcessing()
    await trigger('OUTGOING_PAYMENT.FAILED', id, 'failureReason=ACCOUNT_INVALID')
    expect(stored('transactions', id)).toMatchObject({status: 'FAILED', failureReason: 'ACCOUNT_INVALID'})
    expect(balanceOf(sbx, account)).toBe(100_000) // the hold came back
  },
  'OUTGOING_PAYMENT.REFUND_COMPLETED': async () => {
    const {id} = await outgoingProcessing()
    await trigger('OUTGOING_PAYMENT.REFUND_COMPLETED', id)
    expect(stored('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'COMPLETED'}})
  },
  'OUTGOING_PAYMENT.REFUND_FAILED': async () => {
    const {id} = await outgoingProcessing()
    await trigger('OUTGOING_PAYMENT.REFUND_FAILED', id)
    expect(stored('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'FAILED'}})
  },
  'CUSTOMER.KYC_PENDING': async () => {
    const id = await pendingCustomer('KYC')
    await hold(id, 'kycStatus')
    const out = await trigger('CUSTOMER.KYC_PENDING', id)
    expect(out.event.data.kycStatus).toBe('PENDING')
    expect(stored('customers', id).kycStatus).toBe('PENDING')
  },
  'CUSTOMER.KYC_APPROVED': async () => {
    const id = await pendingCustomer('KYC')
    await trigger('CUSTOMER.KYC_APPROVED', id)
    expect(stored('customers', id).kycStatus).toBe('APPROVED')
  },
  'CUSTOMER.KYC_REJECTED': async () => {
    const id = await pendingCustomer('KYC')
    await trigger('CUSTOMER.KYC_REJECTED', id)
    expect(stored('customers', id).kycStatus).toBe('REJECTED')
  },
  'CUSTOMER.KYB_PENDING': async () => {
    const id = await pendingCustomer('KYB')
    await hold(id, 'kybStatus')
    await trigger('CUSTOMER.KYB_PENDING', id)
    expect(stored('customers', id).kybStatus).toBe('PENDING')
  },
  'CUSTOMER.KYB_APPROVED': async () => {
    const id = await pendingCustomer('KYB')
    await trigger('CUSTOMER.KYB_APPROVED', id)
    expect(stored('customers', id).kybStatus).toBe('APPROVED')
  },
  'CUSTOMER.KYB_REJECTED': async () => {
    const id = await pendingCustomer('KYB')
    await trigger('CUSTOMER.KYB_REJECTED', id)
    expect(stored('customers', id).kybStatus).toBe('REJECTED')
  },
  'EXTERNAL_ACCOUNT.STATUS_UPDATED': async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const a = await api(sbx, 'POST', '/customers/external-accounts', {
      customerId: c.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '99887766',
        routingNumber: '021000021',
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace'},
      },
    })
    expect(a.body.status, JSON.stringify(a.body)).toBe('PENDING')
    const out = await trigger('EXTERNAL_ACCOUNT.STATUS_UPDATED', a.body.id)
    expect(out.event.data.status).toBe('ACTIVE')
    expect(stored('externalAccounts', a.body.id).status).toBe('ACTIVE')
  },
  'CARD.STATE_CHANGE': async () => {
    const id = await card('001')
    expect(stored('cards', id).state).toBe('PROCESSING')
    await trigger('CARD.STATE_CHANGE', id)
    expect(stored('cards', id).state).toBe('ACTIVE')
    const out = await trigger('CARD.STATE_CHANGE', id, 'state=FROZEN')
    expect(out.event.data.state).toBe('FROZEN')
    expect(stored('cards', id).state).toBe('FROZEN')
  },
  'CARD.FUNDING_SOURCE_CHANGE': async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const first = c.account('USD')
    const id = await card('001', c)
    await trigger('CARD.STATE_CHANGE', id)
    const other = await approvedCustomer(sbx, ['USD'])
    // Another customer's account is refused by the sandbox (the card's funding rule), and nothing changes.
    const refused = await sbx.run([
      'webhooks',
      'trigger',
      'CARD.FUNDING_SOURCE_CHANGE',
      '--object',
      id,
      '--set',
      `fundingSources=${other.account('USD')}`,
    ])
    expect(refused.code, refused.stderr).toBe(1) // the sandbox's 400
    expect(refused.stderr).toContain('is not an internal account of the cardholder')
    expect(stored('cards', id).fundingSources).toEqual([first])
    const sources = [first]
    const out = await trigger('CARD.FUNDING_SOURCE_CHANGE', id, `fundingSources=${sources.join(',')}`)
    expect(out.event.data.fundingSources).toEqual(sources)
    expect(stored('cards', id).fundingSources).toEqual(sources)
  },
  'CARD_TRANSACTION.PARTIALLY_SETTLED': async () => {
    const id = await authorization()
    await trigger('CARD_TRANSACTION.PARTIALLY_SETTLED', id, 'amount=5.00')
    expect(stored('cardTransactions', id)).toMatchObject({status: 'PARTIALLY_SETTLED', settledAmount: {amount: 500}})
  },
  'CARD_TRANSACTION.SETTLED': async () => {
    const id = await authorization()
    await trigger('CARD_TRANSACTION.PARTIALLY_SETTLED', id) // half of the 12.50
    expect(stored('cardTransactions', id).settledAmount.amount).toBe(625)
    await trigger('CARD_TRANSACTION.SETTLED', id)
    expect(stored('cardTransactions', id)).toMatchObject({status: 'SETTLED', settledAmount: {amount: 1250}})
  },
  'CARD_TRANSACTION.VOIDED': async () => {
    const id = await authorization()
    await trigger('CARD_TRANSACTION.VOIDED', id)
    expect(stored('cardTransactions', id)).toMatchObject({status: 'VOIDED', settledAmount: {amount: 0}})
  },
}

describe('svc webhooks trigger TYPE --object ID', () => {
  it('has a case here for every type with an object form, and --list shows them', async () => {
    expect(Object.keys(CASES).sort()).toEqual(OBJECT_FORMS.map((f) => f.type).sort())
    const listed = (await sbx.json(['webhooks', 'trigger', '--list'])).data as Array<{type: string; object?: unknown}>
    expect(
      listed
        .filter((t) => t.object)
        .map((t) => t.type)
        .sort(),
    ).toEqual(OBJECT_FORMS.map((f) => f.type).sort())
  })

  it.each(Object.keys(CASES))(
    '%s: the object moves in the sandbox and the event is delivered',
    async (type) => {
      await CASES[type]()
    },
    90_000,
  )

  it('for people: what the sandbox did on stderr, the event, the object and its new state on stdout', async () => {
    const {id} = await outgoingProcessing()
    const r = await sbx.run(['webhooks', 'trigger', 'OUTGOING_PAYMENT.COMPLETED', '--object', id])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`${id} is now COMPLETED; the sandbox emitted OUTGOING_PAYMENT.COMPLETED`)
    expect(r.stderr).toContain('OUTGOING_PAYMENT.COMPLETED happened and was delivered')
    expect(r.stdout).toMatch(new RegExp(`object\\s+${id}`))
    expect(r.stdout).toMatch(/now\s+COMPLETED/)
    expect(r.stdout).toMatch(/delivery\s+delivered \(endpoint answered HTTP 200\)/)
  })

  it('money stayed balanced through all of it', async () => {
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })
})

describe('svc webhooks trigger --object: refusals', () => {
  it('a state the transition does not start from: exit 6 naming the state and the states needed; nothing changed', async () => {
    const {id} = await incomingPending()
    await trigger('INCOMING_PAYMENT.COMPLETED', id)
    const events = sbx.emu.webhooks.list().length
    const r = await sbx.run(['webhooks', 'trigger', 'INCOMING_PAYMENT.FAILED', '--object', id])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`${id} is INCOMING COMPLETED`)
    expect(r.stderr).toContain('needs an INCOMING payment in PENDING')
    expect(stored('transactions', id).status).toBe('COMPLETED')
    expect(sbx.emu.webhooks.list().length).toBe(events)
  })

  it('a customer whose packet is incomplete: exit 6 naming what is missing', async () => {
    const c = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Grace Hopper'})
    const r = await sbx.run(['webhooks', 'trigger', 'CUSTOMER.KYC_PENDING', '--object', c.body.id])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toMatch(/UNVERIFIED with an incomplete packet \(.*birthDate/)
    expect(stored('customers', c.body.id).kycStatus).toBe('UNVERIFIED')
  })

  it('an unknown --set field or value: exit 2 listing the allowed ones, before any request', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'webhooks',
      'trigger',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      '--object',
      'CardTransaction:x',
      '--set',
      'colour=blue',
      '--set',
      'amount=lots',
      '--set',
      'nonsense',
    ])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain('set.colour')
    expect(r.stderr).toContain('allowed: amount')
    expect(r.stderr).toContain('"lots" must be a positive decimal amount')
    expect(r.stderr).toContain('"nonsense" must be field=value')
    const none = await sbx.run([
      'webhooks',
      'trigger',
      'OUTGOING_PAYMENT.COMPLETED',
      '--object',
      'Transaction:x',
      '--set',
      'amount=1',
    ])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('allowed: none (OUTGOING_PAYMENT.COMPLETED takes no parameters)')
    expect(sbx.requestCount()).toBe(before)
  })

  it('a type without an object form, or an id of the wrong kind: exit 2 before any request', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(['webhooks', 'trigger', 'INCOMING_PAYMENT.PENDING', '--object', 'Transaction:x'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('INCOMING_PAYMENT.PENDING has no object form')
    const k = await sbx.run(['webhooks', 'trigger', 'CUSTOMER.KYC_APPROVED', '--object', 'Transaction:x'])
    expect(k.code).toBe(2)
    expect(k.stderr).toContain('is not a Customer:... id')
    const s = await sbx.run(['webhooks', 'trigger', 'CUSTOMER.KYC_APPROVED', '--set', 'a=b'])
    expect(s.code).toBe(2)
    expect(sbx.requestCount()).toBe(before)
  })

  it('an object that does not exist: exit 5 (not found)', async () => {
    const r = await sbx.run(['webhooks', 'trigger', 'OUTGOING_PAYMENT.COMPLETED', '--object', 'Transaction:nope'])
    expect(r.code, r.stderr).toBe(5)
    expect(r.stderr).toContain('Transaction:nope')
  })

  it('--dry-run shows the one request and sends nothing', async () => {
    const {id} = await incomingPending()
    const before = sbx.requestCount()
    const r = await sbx.run([
      'webhooks',
      'trigger',
      'INCOMING_PAYMENT.FAILED',
      '--object',
      id,
      '--set',
      'failureReason=QUOTE_EXPIRED',
      '--dry-run',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({
      dryRun: true,
      request: {
        method: 'POST',
        body: {type: 'INCOMING_PAYMENT.FAILED', objectId: id, set: {failureReason: 'QUOTE_EXPIRED'}},
      },
    })
    expect(r.json().request.url).toMatch(/\/sandbox\/webhooks\/trigger$/)
    expect(sbx.requestCount()).toBe(before)
    expect(stored('transactions', id).status).toBe('PENDING')
  })

  it('the sandbox itself refuses bad input with every field listed and changes nothing', async () => {
    const {id} = await incomingPending()
    const r = await api(sbx, 'POST', '/sandbox/webhooks/trigger', {
      type: 'INCOMING_PAYMENT.FAILED',
      objectId: id,
      set: {failureReason: 'BORED', amount: '1'},
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field)).toEqual(['set.failureReason', 'set.amount'])
    const k = await api(sbx, 'POST', '/sandbox/webhooks/trigger', {type: 'CARD_TRANSACTION.VOIDED', objectId: id})
    expect(k.status).toBe(400)
    expect(k.body.details.errors[0].field).toBe('objectId')
    expect(stored('transactions', id).status).toBe('PENDING')
  })
})
