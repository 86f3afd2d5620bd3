import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {svcLive} from '../helpers/cli.js'
import {api, approvedCustomer, expectConserved, storedAccount, until} from '../helpers/money.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({cardProcessingDelayMs: 50})
})
afterAll(async () => sbx.stop())

const money = (id: string) => ({
  spendable: storedAccount(sbx, id).balance.amount,
  total: storedAccount(sbx, id).totalBalance.amount,
})
let n = 0

/** A funded cardholder (USD 1,000.00) with an ACTIVE card issued through the CLI. */
async function cardWithFunds(extra: string[] = []) {
  const c = await approvedCustomer(sbx, ['USD'])
  const acc = c.account('USD')
  expect((await api(sbx, 'POST', `/sandbox/internal-accounts/${acc}/fund`, {amount: 100_000})).status).toBe(200)
  const r = await sbx.run([
    'cards',
    'issue',
    '--customer',
    c.id,
    '--account',
    acc,
    '--platform-card-id',
    `emp-${200 + ++n}`,
    '--wait',
    ...extra,
    '--json',
  ])
  expect(r.code, r.stderr).toBe(0)
  return {customer: c.id, account: acc, card: r.json().id as string}
}

/** Runs a simulator with --wait-for-event; returns the webhook that carried the outcome. */
async function sim(kind: string, card: string, args: string[]) {
  const r = await sbx.run(['sandbox', 'card', kind, card, ...args, '--wait-for-event', '--json'])
  expect(r.code, `${kind}: ${r.stdout} ${r.stderr}`).toBe(0)
  const out = r.json()
  expect(out.issuerTransactionToken).toMatch(/^sbx_txn_/)
  return out.event as {id: string; type: string; data: any}
}
const auth = (card: string, amount: string, descriptor = 'BLUE BOTTLE COFFEE SF') =>
  sim('authorization', card, ['--amount', amount, '--descriptor', descriptor, '--mcc', '5814', '--country', 'US'])

describe('card transactions through the CLI', () => {
  it('authorization -> clearing -> SETTLED, with the CARD_TRANSACTION.* webhooks received by `webhooks listen` in order', async () => {
    const h = await cardWithFunds()
    const {
      child,
      stdout: out,
      stderr: err,
      exited,
    } = svcLive(['webhooks', 'listen', '--port', '0', '--register', '--json', '--max-events', '3'], sbx.env)
    try {
      await until(
        () => /Listening on/.test(err()),
        (v) => v,
        15_000,
      )
      const authorized = await auth(h.card, '12.50')
      expect(authorized.type).toBe('CARD_TRANSACTION.AUTHORIZED')
      expect(authorized.data).toMatchObject({
        type: 'CARD',
        cardId: h.card,
        customerId: h.customer,
        status: 'AUTHORIZED',
        direction: 'DEBIT',
        accountId: h.account,
        authorizedAmount: {amount: 1250, currency: {code: 'USD'}},
        merchant: {descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US'},
      })
      expect(money(h.account)).toEqual({spendable: 98_750, total: 100_000})
      const tx = authorized.data.id as string
      const settled = await sim('clearing', h.card, ['--transaction', tx, '--amount', '12.50'])
      expect(settled.type).toBe('CARD_TRANSACTION.SETTLED')
      expect(settled.data).toMatchObject({
        id: tx,
        status: 'SETTLED',
        settledAmount: {amount: 1250},
        settlementSummary: {count: 1, totalAmount: 1250},
        pullSummary: {count: 1, totalAmount: 1250},
      })
      expect(money(h.account)).toEqual({spendable: 98_750, total: 98_750})
      expect(await exited).toBe(0)
      const lines = out()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(lines.map((e) => e.type)).toEqual(['TEST', 'CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED'])
      expect(lines.slice(1).map((e) => [e.data.id, e.data.status])).toEqual([
        [tx, 'AUTHORIZED'],
        [tx, 'SETTLED'],
      ])
    } finally {
      child.kill()
      sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: null})
    }
    const got = await sbx.run([
      'cards',
      'transactions',
      'get',
      (await sbx.run(['cards', 'transactions', 'list', '--card', h.card, '--json'])).json().data[0].id,
      '--json',
    ])
    expect(got.json()).toMatchObject({status: 'SETTLED', settledAmount: {amount: 1250}, refundedAmount: {amount: 0}})
    const human = await sbx.run(['cards', 'transactions', 'list', '--card', h.card])
    expect(human.stdout).toMatch(/SETTLED\tDEBIT\tBLUE BOTTLE COFFEE SF\tUSD 12\.50\tUSD 12\.50/)
    await expectConserved(sbx)
  })

  it('partial clearing -> PARTIALLY_SETTLED; an over-clearing pulls the difference (pull count 2) and SETTLES', async () => {
    const h = await cardWithFunds()
    const tx = (await auth(h.card, '50.00')).data.id
    const partial = await sim('clearing', h.card, ['--transaction', tx, '--amount', '20.00'])
    expect(partial).toMatchObject({
      type: 'CARD_TRANSACTION.PARTIALLY_SETTLED',
      data: {status: 'PARTIALLY_SETTLED', settledAmount: {amount: 2000}},
    })
    expect(money(h.account)).toEqual({spendable: 95_000, total: 98_000})
    const rest = await sim('clearing', h.card, ['--transaction', tx, '--amount', '40.00'])
    expect(rest).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {
        status: 'SETTLED',
        settledAmount: {amount: 6000},
        pullSummary: {count: 2, totalAmount: 6000},
        settlementSummary: {count: 2},
      },
    })
    expect(money(h.account)).toEqual({spendable: 94_000, total: 94_000})
    // Once any part has settled, the authorization can no longer expire.
    const late = await sbx.run(['sandbox', 'card', 'authorization_expiry', h.card, '--transaction', tx, '--json'])
    expect(late.code).toBe(2)
    expect(late.json().error.code).toBe('INVALID_INPUT')
    await expectConserved(sbx)
  })

  it('authorization -> authorization expiry -> VOIDED, the held funds released (also clearing with amount 0)', async () => {
    const h = await cardWithFunds()
    const tx = (await auth(h.card, '30.00')).data.id
    expect(money(h.account)).toEqual({spendable: 97_000, total: 100_000})
    const voided = await sim('authorization_expiry', h.card, ['--transaction', tx])
    expect(voided).toMatchObject({
      type: 'CARD_TRANSACTION.VOIDED',
      data: {id: tx, status: 'VOIDED', settledAmount: {amount: 0}},
    })
    expect(money(h.account)).toEqual({spendable: 100_000, total: 100_000})
    const tx2 = (await auth(h.card, '7.00')).data.id
    const viaClearing = await sim('clearing', h.card, ['--transaction', tx2, '--amount-minor', '0'])
    expect(viaClearing).toMatchObject({type: 'CARD_TRANSACTION.VOIDED', data: {id: tx2, status: 'VOIDED'}})
    expect(money(h.account)).toEqual({spendable: 100_000, total: 100_000})
    const list = await sbx.run(['cards', 'transactions', 'list', '--card', h.card, '--status', 'VOIDED', '--json'])
    expect(
      list
        .json()
        .data.map((t: {id: string}) => t.id)
        .sort(),
    ).toEqual([tx, tx2].sort())
    await expectConserved(sbx)
  })

  it('return re-fires SETTLED with refundedAmount; return_reversal takes it back; a reversal needs a posted return', async () => {
    const h = await cardWithFunds()
    const tx = (await auth(h.card, '40.00')).data.id
    const noReturn = await sbx.run([
      'sandbox',
      'card',
      'return',
      h.card,
      '--transaction',
      tx,
      '--amount',
      '5.00',
      '--json',
    ])
    expect(noReturn.code).toBe(2) // nothing settled yet
    await sim('clearing', h.card, ['--transaction', tx, '--amount', '40.00'])
    const early = await sbx.run(['sandbox', 'card', 'return_reversal', h.card, '--transaction', tx, '--json'])
    expect(early.code).toBe(2)
    expect(early.json().error.details.errors[0].message).toMatch(/no posted return/)
    const tooMuch = await sbx.run([
      'sandbox',
      'card',
      'return',
      h.card,
      '--transaction',
      tx,
      '--amount',
      '40.01',
      '--json',
    ])
    expect(tooMuch.code).toBe(2)
    expect(money(h.account)).toEqual({spendable: 96_000, total: 96_000})
    const returned = await sim('return', h.card, ['--transaction', tx, '--amount', '15.00'])
    expect(returned).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {
        id: tx,
        status: 'SETTLED',
        settledAmount: {amount: 4000},
        refundedAmount: {amount: 1500},
        refundSummary: {count: 1, totalAmount: 1500},
      },
    })
    expect(money(h.account)).toEqual({spendable: 97_500, total: 97_500})
    await expectConserved(sbx)
    const reversed = await sim('return_reversal', h.card, ['--transaction', tx])
    expect(reversed).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {id: tx, status: 'SETTLED', refundedAmount: {amount: 0}},
    })
    expect(money(h.account)).toEqual({spendable: 96_000, total: 96_000})
    await expectConserved(sbx)
    const events = sbx.emu.webhooks
      .list()
      .filter((e) => (e.data as {id?: string}).id === tx)
      .map((e) => `${e.type}:${(e.data as {refundedAmount: {amount: number}}).refundedAmount.amount}`)
    expect(events).toEqual([
      'CARD_TRANSACTION.AUTHORIZED:0',
      'CARD_TRANSACTION.SETTLED:0',
      'CARD_TRANSACTION.SETTLED:1500',
      'CARD_TRANSACTION.SETTLED:0',
    ])
  })

  it('a standalone merchant refund arrives as a CREDIT, SETTLED, with the value in settledAmount', async () => {
    const h = await cardWithFunds()
    const credit = await sim('financial_credit_authorization', h.card, [
      '--amount',
      '5.00',
      '--descriptor',
      'AMAZON RETAIL REFUND',
    ])
    expect(credit).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {direction: 'CREDIT', status: 'SETTLED', settledAmount: {amount: 500}},
    })
    expect(money(h.account)).toEqual({spendable: 100_500, total: 100_500})
    const creditAuth = await sim('credit_authorization', h.card, ['--amount', '3.00', '--descriptor', 'SHOP'])
    expect(creditAuth).toMatchObject({
      type: 'CARD_TRANSACTION.AUTHORIZED',
      data: {direction: 'CREDIT', status: 'AUTHORIZED'},
    })
    expect(money(h.account).total).toBe(100_500) // nothing moves until it clears
    const cleared = await sim('clearing', h.card, ['--transaction', creditAuth.data.id, '--amount', '3.00'])
    expect(cleared).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {direction: 'CREDIT', settledAmount: {amount: 300}},
    })
    const advice = await sim('credit_authorization_advice', h.card, [
      '--amount',
      '1.00',
      '--descriptor',
      'NETWORK ADVICE',
    ])
    expect(advice).toMatchObject({type: 'CARD_TRANSACTION.AUTHORIZED', data: {direction: 'CREDIT'}})
    expect(money(h.account)).toEqual({spendable: 100_800, total: 100_800})
    await expectConserved(sbx)
  })

  it('financial_authorization settles at once; authorization_advice resizes the hold; balance_inquiry is a 0-amount authorization', async () => {
    const h = await cardWithFunds()
    const atm = await sim('financial_authorization', h.card, ['--amount', '20.00', '--descriptor', 'ATM 42'])
    expect(atm).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {status: 'SETTLED', settledAmount: {amount: 2000}, direction: 'DEBIT'},
    })
    expect(money(h.account)).toEqual({spendable: 98_000, total: 98_000})
    const tx = (await auth(h.card, '10.00')).data.id
    const bigger = await sim('authorization_advice', h.card, ['--transaction', tx, '--amount', '25.00'])
    expect(bigger).toMatchObject({type: 'CARD_TRANSACTION.AUTHORIZED', data: {authorizedAmount: {amount: 2500}}})
    expect(money(h.account)).toEqual({spendable: 95_500, total: 98_000})
    const smaller = await sim('authorization_advice', h.card, ['--transaction', tx, '--amount', '5.00'])
    expect(smaller.data.authorizedAmount.amount).toBe(500)
    expect(money(h.account)).toEqual({spendable: 97_500, total: 98_000})
    const inquiry = await sim('balance_inquiry', h.card, ['--descriptor', 'ATM 42'])
    expect(inquiry).toMatchObject({type: 'CARD_TRANSACTION.AUTHORIZED', data: {authorizedAmount: {amount: 0}}})
    await expectConserved(sbx)
  })

  it('declines arrive as CARD_TRANSACTION.DECLINED: frozen card, descriptor 002 and 003, short balance, spending limit; nothing held', async () => {
    const h = await cardWithFunds(['--max-spend', '100.00'])
    const declined = async (amount: string, descriptor: string) => {
      const e = await auth(h.card, amount, descriptor)
      expect(e.type).toBe('CARD_TRANSACTION.DECLINED')
      return e.data.declineReason
    }
    expect(await declined('10.00', 'AMAZON RETAIL US-002')).toBe('INSUFFICIENT_FUNDS')
    expect(await declined('10.00', 'SHOP-003')).toBe('CARD_PAUSED')
    expect(await declined('100.01', 'SHOP')).toBe('SPENDING_LIMIT_EXCEEDED')
    expect((await sbx.run(['cards', 'freeze', h.card])).code).toBe(0)
    expect(await declined('10.00', 'SHOP')).toBe('CARD_PAUSED')
    expect((await sbx.run(['cards', 'unfreeze', h.card])).code).toBe(0)
    expect(money(h.account)).toEqual({spendable: 100_000, total: 100_000})
    expect((await sbx.run(['cards', 'transactions', 'list', '--card', h.card, '--json'])).json().data).toEqual([])
    const exception = await auth(h.card, '10.00', 'SHOP-006')
    expect(exception).toMatchObject({type: 'CARD_TRANSACTION.EXCEPTION', data: {status: 'EXCEPTION'}})
    await expectConserved(sbx)
  })

  it('issue 29 F17: an EXCEPTION (descriptor 006) needs attention until exception_resolution settles or returns it; either way its hold ends', async () => {
    const h = await cardWithFunds()
    const first = await auth(h.card, '10.00', 'SHOP 006')
    expect(first.data).toMatchObject({
      status: 'EXCEPTION',
      needsAttention: {heldAmount: 1000, reason: expect.stringMatching(/exception_resolution/)},
    })
    expect(money(h.account)).toEqual({spendable: 99_000, total: 100_000})
    // Clearing and expiry do not apply to it (the hold would otherwise stay for good).
    const clearing = await sbx.run([
      'sandbox',
      'card',
      'clearing',
      h.card,
      '--transaction',
      first.data.id,
      '--amount',
      '10.00',
      '--json',
    ])
    expect(clearing.code).toBe(2)
    // RETURN: the hold goes back to the funding account; nothing left the platform.
    const returned = await sim('exception_resolution', h.card, [
      '--transaction',
      first.data.id,
      '--resolution',
      'RETURN',
    ])
    expect(returned).toMatchObject({type: 'CARD_TRANSACTION.VOIDED', data: {id: first.data.id, status: 'VOIDED'}})
    expect(returned.data.needsAttention).toBeUndefined()
    expect(money(h.account)).toEqual({spendable: 100_000, total: 100_000})
    // SETTLE: the held amount is paid to the network.
    const second = await auth(h.card, '25.00', 'SHOP 006')
    const settled = await sim('exception_resolution', h.card, [
      '--transaction',
      second.data.id,
      '--resolution',
      'SETTLE',
    ])
    expect(settled).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: {status: 'SETTLED', settledAmount: {amount: 2500}, settlementSummary: {count: 1, totalAmount: 2500}},
    })
    expect(money(h.account)).toEqual({spendable: 97_500, total: 97_500})
    // Resolved once: a second resolution, or one of a transaction that is not an EXCEPTION, is refused naming the field.
    const again = await sbx.run([
      'sandbox',
      'card',
      'exception_resolution',
      h.card,
      '--transaction',
      second.data.id,
      '--resolution',
      'RETURN',
      '--json',
    ])
    expect(again.code).toBe(2)
    expect(again.json().error.details.errors).toEqual([
      {field: 'cardTransactionId', message: `${second.data.id} is SETTLED; only an EXCEPTION is resolved`},
    ])
    // The CLI refuses a resolution without --resolution before any request.
    const sent = sbx.requestCount()
    const missing = await sbx.run([
      'sandbox',
      'card',
      'exception_resolution',
      h.card,
      '--transaction',
      second.data.id,
      '--json',
    ])
    expect(missing.code).toBe(2)
    expect(missing.json().error.details.errors).toEqual([
      {field: 'resolution', message: 'exception_resolution needs --resolution SETTLE or RETURN'},
    ])
    expect(sbx.requestCount()).toBe(sent)
    expect(money(h.account)).toEqual({spendable: 97_500, total: 97_500})
    await expectConserved(sbx)
  })

  it('an authorization above the balance is declined INSUFFICIENT_FUNDS', async () => {
    const h = await cardWithFunds()
    const e = await auth(h.card, '1000.01')
    expect(e.data.declineReason).toBe('INSUFFICIENT_FUNDS')
  })

  it('--wait-for-event exits 8 at --timeout when the outcome is delayed (descriptor 005); the simulation was still accepted', async () => {
    const h = await cardWithFunds()
    const r = await sbx.run([
      'sandbox',
      'card',
      'authorization',
      h.card,
      '--amount',
      '1.00',
      '--descriptor',
      'SLOW-005',
      '--wait-for-event',
      '--timeout',
      '1s',
      '--json',
    ])
    expect(r.code).toBe(8)
    expect(r.json().error.code).toBe('TIMEOUT')
    expect(sbx.emu.scheduler.pending('card.authorize')).toHaveLength(1)
  })

  it('without --wait-for-event the answer is the issuer token only; unknown card 404 (exit 5)', async () => {
    const h = await cardWithFunds()
    const r = await sbx.run([
      'sandbox',
      'card',
      'authorization',
      h.card,
      '--amount',
      '1.00',
      '--descriptor',
      'SHOP',
      '--json',
    ])
    expect(r.code).toBe(0)
    expect(Object.keys(r.json())).toEqual(['issuerTransactionToken'])
    const missing = await sbx.run([
      'sandbox',
      'card',
      'authorization',
      'Card:00000000-0000-0000-0000-000000000000',
      '--amount-minor',
      '100',
      '--currency',
      'USD',
      '--descriptor',
      'SHOP',
      '--json',
    ])
    expect(missing.code).toBe(5)
    expect(missing.json().error.code).toBe('NOT_FOUND')
  })

  it('card transactions appear in `transactions list` (type CARD) beside payments, paged in one order; `transactions get` shows one', async () => {
    const h = await cardWithFunds()
    const a = (await auth(h.card, '1.00')).data.id
    const b = (await auth(h.card, '2.00')).data.id
    const all = await sbx.run(['transactions', 'list', '--customer', h.customer, '--json'])
    expect(all.code, all.stderr).toBe(0)
    const rows = all.json().data as Array<{id: string; type: string}>
    expect(rows.map((t) => t.type)).toEqual(['CARD', 'CARD', 'INCOMING'])
    expect(rows.slice(0, 2).map((t) => t.id)).toEqual([b, a])
    expect(all.json().totalCount).toBe(3)
    const paged: string[] = []
    let cursor: string | undefined
    do {
      const page = (
        await sbx.run([
          'transactions',
          'list',
          '--customer',
          h.customer,
          '--limit',
          '1',
          ...(cursor ? ['--cursor', cursor] : []),
          '--json',
        ])
      ).json()
      paged.push(...page.data.map((t: {id: string}) => t.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(paged).toEqual(rows.map((t) => t.id))
    const asc = await sbx.run(['transactions', 'list', '--customer', h.customer, '--order', 'asc', '--all', '--json'])
    expect(asc.json().data.map((t: {id: string}) => t.id)).toEqual([...paged].reverse())
    expect(
      (await sbx.run(['transactions', 'list', '--customer', h.customer, '--type', 'INCOMING', '--json']))
        .json()
        .data.map((t: {type: string}) => t.type),
    ).toEqual(['INCOMING'])
    const one = await sbx.run(['transactions', 'get', a, '--json'])
    expect(one.code, one.stderr).toBe(0)
    expect(one.json()).toMatchObject({id: a, type: 'CARD', status: 'AUTHORIZED', cardId: h.card})
  })

  it("`transactions list` shows a card purchase's amount (SENT), and csv gives money as a plain number beside its currency", async () => {
    const h = await cardWithFunds()
    const a = (await auth(h.card, '12.34')).data.id
    const csv = await sbx.run(['transactions', 'list', '--customer', h.customer, '--output', 'csv'])
    expect([csv.code, csv.stderr]).toEqual([0, ''])
    const lines = csv.stdout.split('\r\n')
    expect(lines[0]).toBe('ID,TYPE,STATUS,SENT,SENT CURRENCY,RECEIVED,RECEIVED CURRENCY,CREATED,CUSTOMER')
    expect(lines[1]).toMatch(new RegExp(`^${a},CARD,AUTHORIZED,12\\.34,USD,,,\\d{4}-[\\d-]+T[\\d:.]+Z,${h.customer}$`))
    expect(lines[2]).toMatch(/^Transaction:[\w-]+,INCOMING,COMPLETED,,,1000\.00,USD,/)
    const wide = await sbx.run(['transactions', 'list', '--customer', h.customer, '--wide'])
    expect(wide.stdout.split('\n')[1]).toMatch(new RegExp(`^${a}\\tCARD\\tAUTHORIZED\\tUSD 12\\.34\\t-\\t`))
  })

  it('closing a card voids its open authorization and releases the hold', async () => {
    const h = await cardWithFunds()
    const tx = (await auth(h.card, '60.00')).data.id
    expect(money(h.account).spendable).toBe(94_000)
    expect((await sbx.run(['cards', 'close', h.card, '--yes', '--json'])).code).toBe(0)
    expect(money(h.account)).toEqual({spendable: 100_000, total: 100_000})
    const t = await sbx.run(['cards', 'transactions', 'get', tx, '--json'])
    expect(t.json().status).toBe('VOIDED')
    const after = await auth(h.card, '1.00')
    expect(after.data.declineReason).toBe('CARD_CLOSED')
    await expectConserved(sbx)
  })
})
