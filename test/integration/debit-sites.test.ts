import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {DEBIT_SITES, type DebitSite} from '../../src/emulator/domain/customer-debit.js'
import {
  api,
  approvedCustomer,
  clabeEnding,
  beneficiary,
  until,
  usdBankAccount,
  webhookEvents,
} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Issue 29: every operation that debits a customer's account runs the shared rule of
 * domain/customer-debit.ts. Each site in DEBIT_SITES is driven here with a customer who fails a check
 * (terms withdrawn; no SCA session where SCA applies) and must move nothing; and a debit primitive
 * called from a file this test does not account for fails it.
 */
let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({cardProcessingDelayMs: 50, paymentCompletionDelayMs: 60_000})
})
afterAll(async () => sbx.stop())

const DOMAIN = join(__dirname, '../../src/emulator/domain')
/** Files that call a ledger debit (hold, pull, money in transit) and how each is accounted for. */
const DEBITING_FILES: Record<string, {sites: DebitSite[]} | {why: string}> = {
  'quote-execute.ts': {sites: ['quote.execute', 'sandbox.realtime-funding']},
  'card-simulators.ts': {sites: ['card.authorization']},
  'card-transactions.ts': {
    why: 'clearing over-pulls, advice increases and return reversals follow an authorization checked at card.authorization',
  },
  'stablecoin-operations.ts': {why: "mints and burns debit only the platform's own accounts (issue 29 F3)"},
}
const DEBIT_CALL = /(?<![\w.])(hold|pull|arriveInTransit)\(ctx/

function domainFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((d) =>
    d.isDirectory() ? domainFiles(join(dir, d.name)).map((f) => `${d.name}/${f}`) : [d.name],
  )
}

describe('the registry of debit sites', () => {
  it('every file that debits an account is accounted for, and each site is checked in the code that names it', () => {
    const debiting = domainFiles(DOMAIN)
      .filter((f) => f.endsWith('.ts') && f !== 'ledger.ts')
      .filter((f) => DEBIT_CALL.test(readFileSync(join(DOMAIN, f), 'utf8')))
    expect(debiting.sort()).toEqual(Object.keys(DEBITING_FILES).sort())
    const all = domainFiles(DOMAIN)
      .map((f) => readFileSync(join(DOMAIN, f), 'utf8'))
      .join('\n')
    for (const site of Object.keys(DEBIT_SITES)) expect(all, site).toContain(`'${site}'`)
    for (const [file, how] of Object.entries(DEBITING_FILES))
      if ('sites' in how) expect(readFileSync(join(DOMAIN, file), 'utf8')).toContain('checkCustomerDebit(')
  })

  it('exemptions are the stated ones only', () => {
    expect(
      Object.entries(DEBIT_SITES).flatMap(([site, s]) => Object.keys(s.exempt).map((c) => `${site}:${c}`)),
    ).toEqual(['sandbox.realtime-funding:sca', 'card.authorization:terms', 'card.authorization:sca'])
  })
})

type Breaks = 'terms' | 'sca'
interface Payer {
  id: string
  usd: string
  mxn: string
  clabe: string
  bank: string
}

async function payer(): Promise<Payer> {
  const c = await approvedCustomer(sbx, ['USD', 'MXN'])
  for (const a of [c.account('USD'), c.account('MXN')])
    expect((await api(sbx, 'POST', `/sandbox/internal-accounts/${a}/fund`, {amount: 100_000})).status).toBe(200)
  const add = async (body: unknown) => {
    const r = await api(sbx, 'POST', '/customers/external-accounts', body)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.id as string
  }
  const clabe = await add({
    customerId: c.id,
    currency: 'MXN',
    accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
  })
  return {id: c.id, usd: c.account('USD'), mxn: c.account('MXN'), clabe, bank: await add(usdBankAccount(c.id))}
}

/** Makes the customer fail one check of the shared rule. */
async function breakIt(p: Payer, breaks: Breaks) {
  if (breaks === 'sca') {
    expect((await api(sbx, 'PATCH', '/config', {sandbox: {scaRequired: true}})).status).toBe(200)
    return
  }
  const stored = sbx.emu.db.get<Record<string, unknown>>('customers', p.id)!
  const {endUserTermsConsent: _withdrawn, ...rest} = stored
  await sbx.emu.db.unit(() => sbx.emu.db.put('customers', p.id, rest))
}

const quoteBody = (p: Payer, extra: Record<string, unknown> = {}) => ({
  source: {sourceType: 'ACCOUNT', accountId: p.usd},
  destination: {destinationType: 'ACCOUNT', accountId: p.mxn},
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 1_000,
  ...extra,
})

/** Each site: set up while the customer passes, break it, try the debit; the answer (or declined event) code. */
const SCENARIOS: Record<DebitSite, (p: Payer, breaks: Breaks) => Promise<string>> = {
  'quote.create': async (p, breaks) => {
    await breakIt(p, breaks)
    return (await api(sbx, 'POST', '/quotes', quoteBody(p))).body.code
  },
  'quote.execute': async (p, breaks) => {
    const q = await api(sbx, 'POST', '/quotes', quoteBody(p))
    expect(q.status).toBe(201)
    await breakIt(p, breaks)
    return (await api(sbx, 'POST', `/quotes/${q.body.id}/execute`)).body.code
  },
  'transfer.out': async (p, breaks) => {
    await breakIt(p, breaks)
    const body = {source: {accountId: p.mxn}, destination: {accountId: p.clabe}, amount: 1_000}
    return (await api(sbx, 'POST', '/transfer-out', body)).body.code
  },
  'transfer.in': async (p, breaks) => {
    await breakIt(p, breaks)
    const body = {source: {accountId: p.bank}, destination: {accountId: p.usd}, amount: 1_000}
    return (await api(sbx, 'POST', '/transfer-in', body)).body.code
  },
  'sandbox.execute-as-agent': async (p, breaks) => {
    const q = await api(sbx, 'POST', '/quotes', quoteBody(p))
    expect(q.status).toBe(201)
    await breakIt(p, breaks)
    return (await api(sbx, 'POST', `/sandbox/quotes/${q.body.id}/execute-as-agent`, {})).body.code
  },
  'sandbox.realtime-funding': async (p, breaks) => {
    const q = await api(sbx, 'POST', '/quotes', {
      ...quoteBody(p),
      source: {sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: p.id},
    })
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    await breakIt(p, breaks)
    return (await api(sbx, 'POST', '/sandbox/send', {quoteId: q.body.id, currencyCode: 'USD'})).body.code
  },
  'card.authorization': async (p, breaks) => {
    const card = await api(sbx, 'POST', '/cards', {cardholderId: p.id, form: 'VIRTUAL', fundingSources: [p.usd]})
    expect(card.status, JSON.stringify(card.body)).toBe(201)
    await until(
      () => sbx.emu.db.get<{state: string}>('cards', card.body.id)!.state,
      (s) => s === 'ACTIVE',
    )
    await breakIt(p, breaks)
    const sim = await api(sbx, 'POST', `/sandbox/cards/${card.body.id}/simulate/authorization`, {
      amount: 1_000,
      currency: {code: 'USD'},
      merchant: {descriptor: 'SHOP'},
    })
    expect(sim.status).toBe(202)
    const token = sim.body.issuerTransactionToken
    const declined = await until(
      () =>
        webhookEvents(sbx, 'CARD_TRANSACTION.DECLINED').find((e) => (e.data as any).issuerTransactionToken === token),
      (e) => e !== undefined,
    )
    return (declined!.data as {declineReason: string}).declineReason
  },
}

const money = (p: Payer) => {
  const a = (id: string) =>
    sbx.emu.db.get<{balance: {amount: number}; totalBalance: {amount: number}}>('internalAccounts', id)!
  return {
    usd: [a(p.usd).balance.amount, a(p.usd).totalBalance.amount],
    mxn: [a(p.mxn).balance.amount, a(p.mxn).totalBalance.amount],
  }
}
const transactionsOf = (id: string) =>
  sbx.emu.db.sql.rows('SELECT id FROM transactions WHERE customer_id = ?', id).length

describe('every debit site refuses a customer who fails the shared rule, and moves nothing', () => {
  const cases = Object.entries(DEBIT_SITES).flatMap(([site, s]) =>
    (['terms', 'sca'] as const).filter((b) => !(b in s.exempt)).map((breaks) => ({site: site as DebitSite, breaks})),
  )
  it.each(cases)('$site with $breaks failing', async ({site, breaks}) => {
    const p = await payer()
    const before = {money: money(p), transactions: transactionsOf(p.id)}
    try {
      const code = await SCENARIOS[site](p, breaks)
      expect(code).toBe(breaks === 'terms' ? 'END_USER_TERMS_NOT_ACCEPTED' : 'SCA_SESSION_REQUIRED')
    } finally {
      await api(sbx, 'PATCH', '/config', {sandbox: {scaRequired: false}})
    }
    expect({money: money(p), transactions: transactionsOf(p.id)}).toEqual(before)
  })

  it('the scenarios cover every site', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(Object.keys(DEBIT_SITES).sort())
  })
})
