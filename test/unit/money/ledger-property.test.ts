import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {Emulator} from '../../../src/emulator/emulator.js'
import {createExternalAccount} from '../../../src/emulator/domain/external-accounts.js'
import {createInternalAccounts, type InternalAccount} from '../../../src/emulator/domain/internal-accounts.js'
import {imbalance, totals} from '../../../src/emulator/domain/ledger.js'
import {executeQuote, sandboxSend} from '../../../src/emulator/domain/quote-execute.js'
import {createQuote, type StoredQuote} from '../../../src/emulator/domain/quotes.js'
import {
  cancelTransaction,
  completePayment,
  failPayment,
  recordIncoming,
  returnPayment,
  type StoredTransaction,
} from '../../../src/emulator/domain/transactions.js'
import {HttpError} from '../../../src/emulator/http-error.js'
import {issueCard, updateCard, type StoredCard} from '../../../src/emulator/domain/cards.js'
import {simulate} from '../../../src/emulator/domain/card-simulators.js'
import {voidAuthorization, type StoredCardTransaction} from '../../../src/emulator/domain/card-transactions.js'
import {burn, mint, settleOperation, type StoredOperation} from '../../../src/emulator/domain/stablecoin-operations.js'
import {
  linkProviderAccount,
  operatorSetEnablement,
  registerStablecoin,
  requestEnablement,
  platformFiatAccount,
  stablecoinAccount,
} from '../../../src/emulator/domain/stablecoins.js'
import type {EmuRequest} from '../../../src/emulator/router.js'
import {clabeEnding, usdBankAccount} from '../../helpers/money.js'
import {prng} from '../../helpers/prng.js'
import {modelRuns, replayNote, TransitionWatch} from '../../helpers/money-watch.js'

let emu: Emulator
let dir: string
let clock = Date.parse('2026-03-01T12:00:00Z')
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-ledger-'))
  // Every scheduled settlement is far in the future: the test drives completion, failure and return itself.
  const far = 86_000_000
  emu = await Emulator.start({
    dataDir: dir,
    port: 0,
    now: () => clock,
    settings: {
      paymentCompletionDelayMs: far,
      slowPaymentDelayMs: far,
      paymentReturnDelayMs: far,
      paymentTimeoutFailMs: far,
      quoteTtlMs: 120_000,
      stablecoinSettlementDelayMs: far,
    },
  })
})
afterAll(async () => {
  await emu.close()
  rmSync(dir, {recursive: true, force: true})
})

function customer(n: number) {
  const id = `Customer:prop-${n}`
  emu.db.put('customers', id, {
    id,
    platformCustomerId: `p${n}`,
    customerType: 'INDIVIDUAL',
    kycStatus: 'APPROVED',
    endUserTermsConsent: {termsVersion: '2025-10-01'},
    isDeleted: false,
    createdAt: emu.iso(),
    updatedAt: emu.iso(),
  })
  const accounts = createInternalAccounts(emu, id, ['USD', 'EUR', 'MXN'])
  const beneficiary = {beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Maria Garcia'}
  const externals = ['123', '004', '005', '003', '006', '007'].map(
    (s) =>
      createExternalAccount(emu, {
        customerId: id,
        currency: 'MXN',
        accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding(s), beneficiary},
      }).id,
  )
  return {id, accounts, externals, card: activeCard(id, accounts.find((a) => a.balance.currency.code === 'USD')!.id)}
}

/** An ACTIVE card funded by the USD account (provisioning is skipped: the test drives the card itself). */
function activeCard(customerId: string, accountId: string): string {
  const card = issueCard(emu, {
    cardholderId: customerId,
    platformCardId: `prop-${customerId.slice(-6)}-${emu.db.count('cards')}`,
    form: 'VIRTUAL',
    fundingSources: [accountId],
  })
  emu.db.put('cards', card.id, {...card, state: 'ACTIVE'})
  return card.id
}

const MERCHANTS = ['CORNER SHOP', 'CORNER SHOP', 'CORNER SHOP', 'DECLINE-002', 'ALERT-006', 'PAUSED-003']

/** Takes every way a hold ends: payments on their way complete, open authorizations expire or clear, EXCEPTIONs are returned. */
function drainHolds(customerIds: string[]): void {
  for (const t of emu.db.all<StoredTransaction>('transactions'))
    if (customerIds.includes(t.customerId!) && t.type === 'OUTGOING' && t.status === 'PROCESSING')
      completePayment(emu, t)
  for (const t of emu.db.all<StoredCardTransaction>('cardTransactions')) {
    if (!customerIds.includes(t.customerId)) continue
    if (t.status === 'EXCEPTION')
      simulate(emu, t.cardId, 'exception_resolution', {cardTransactionId: t.id, resolution: 'RETURN'})
    else if (t.status === 'AUTHORIZED' && t.settledAmount.amount === 0) voidAuthorization(emu, t)
    else if (t.status === 'AUTHORIZED' || t.status === 'PARTIALLY_SETTLED')
      simulate(emu, t.cardId, 'clearing', {
        cardTransactionId: t.id,
        amount: Math.max(1, t.authorizedAmount.amount - t.settledAmount.amount),
      })
  }
}

/** Across all seeds: how often each kind of step really happened, and each state move. */
const seen: Record<string, number> = {}
const moves: Record<string, number> = {}
// 7 seeds x 320 steps = 2,240 steps in npm test (issue 29); test/bench/money.mjs runs more.
const RUNS = modelRuns(7, 320)

describe('money is conserved', () => {
  it.each(RUNS.seeds)(
    'random fund/quote/execute/send/expire/settle/fail/return/cancel and card hold/settle/expire/return/reversal/credit sequence (seed %i)',
    (seed) => {
      const rand = prng(seed)
      const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined)
      const people = [customer(seed * 10 + 1), customer(seed * 10 + 2)]
      // Legal moves only, one event per move, for every transaction, quote and card transaction of theirs.
      const watch = new TransitionWatch(
        emu.db,
        people.map((x) => x.id),
      )
      const log: string[] = []
      const mine = (status: string, type = 'OUTGOING') =>
        emu.db
          .all<StoredTransaction>('transactions')
          .filter((t) => t.status === status && t.type === type && people.some((p) => p.id === t.customerId))
      const quotes = (status: string) =>
        emu.db
          .all<StoredQuote>('quotes')
          .filter((q) => q.status === status && people.some((p) => p.id === q._.customerId))
      let refused = 0
      let moved = 0
      // What each step really did, so the property is known to cover every kind of money movement.
      const did: Record<string, number> = {}
      const tally = (what: string) => {
        did[what] = (did[what] ?? 0) + 1
        seen[what] = (seen[what] ?? 0) + 1
      }
      for (let step = 0; step < RUNS.steps; step++) {
        const p = pick(people)!
        const op = Math.floor(rand() * 15)
        log.push(`op ${op} by ${p.id}`)
        const cardTxs = (f: (t: StoredCardTransaction) => boolean) =>
          emu.db.all<StoredCardTransaction>('cardTransactions').filter((t) => t.customerId === p.id && f(t))
        try {
          if (op === 0) {
            recordIncoming(
              emu,
              pick(p.accounts.filter((a) => a.balance.currency.code !== 'MXN'))!.id,
              1 + Math.floor(rand() * 50_000),
              {customerId: p.id, description: 'fund'},
            )
            tally('fund')
          } else if (op === 1 || op === 2) {
            const realtime = rand() < 0.25
            const from = pick(p.accounts.filter((a: InternalAccount) => a.balance.currency.code !== 'MXN'))!
            const toInternal = rand() < 0.2
            const to = toInternal
              ? pick(people.flatMap((x) => x.accounts).filter((a) => a.id !== from.id))!.id
              : pick(p.externals)!
            createQuote(emu, {
              source: realtime
                ? {sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: p.id}
                : {sourceType: 'ACCOUNT', accountId: from.id},
              destination: {destinationType: 'ACCOUNT', accountId: to},
              lockedCurrencySide: rand() < 0.5 ? 'SENDING' : 'RECEIVING',
              lockedCurrencyAmount: 100 + Math.floor(rand() * 60_000),
            })
            tally(realtime ? 'quote realtime' : 'quote')
          } else if (op === 3) {
            const q = pick(quotes('PENDING'))
            if (q)
              q._.sourceKind === 'REALTIME'
                ? sandboxSend(emu, {quoteId: q.id, currencyCode: q.sendingCurrency.code})
                : executeQuote(emu, q.id)
            if (q) tally(q._.sourceKind === 'REALTIME' ? 'send' : 'execute')
          } else if (op === 4)
            clock += Math.floor(rand() * 150_000) // some quotes expire
          else if (op === 5) {
            const t = pick(mine('PROCESSING'))
            if (t) completePayment(emu, t)
            if (t) tally('complete')
          } else if (op === 6) {
            const t = pick(mine('PROCESSING'))
            if (t)
              failPayment(
                emu,
                t,
                'ACCOUNT_CANNOT_RECEIVE',
                rand() < 0.3
                  ? {status: rand() < 0.5 ? 'COMPLETED' : 'FAILED', reason: 'TRANSACTION_FAILED'}
                  : undefined,
              )
            if (t) tally('fail')
          } else if (op === 7) {
            const t = pick(mine('COMPLETED'))
            if (t) returnPayment(emu, t)
            if (t) tally('return')
          } else if (op === 8) {
            const t = pick(mine('PROCESSING'))
            if (t) cancelTransaction(emu, t)
            if (t) tally('cancel')
          } else if (op === 9 || op === 10) {
            // Card purchases: authorizations (some declined by the descriptor or a short balance), ATM-style single-message debits.
            const kind = rand() < 0.8 ? 'authorization' : 'financial_authorization'
            simulate(emu, p.card, kind, {
              amount: 1 + Math.floor(rand() * 40_000),
              currency: {code: 'USD'},
              merchant: {descriptor: pick(MERCHANTS)!},
            })
            tally(`card ${kind}`)
          } else if (op === 11) {
            // Clearings of open authorizations: partial, exact, over (extra pull) or an expiry.
            const t = pick(cardTxs((x) => x.status === 'AUTHORIZED' || x.status === 'PARTIALLY_SETTLED'))
            if (t && t.settledAmount.amount === 0 && rand() < 0.25) {
              if (voidAuthorization(emu, t)) tally('card expire')
            } else if (t) {
              const open = Math.max(1, t.authorizedAmount.amount - t.settledAmount.amount)
              const amount = Math.max(1, Math.floor(open * (0.3 + rand() * 1.2)))
              simulate(emu, t.cardId, 'clearing', {cardTransactionId: t.id, amount})
              tally(amount > open ? 'card over-clear' : 'card clear')
            }
          } else if (op === 12) {
            const t = pick(cardTxs((x) => x.direction === 'DEBIT' && x.settledAmount.amount > x.refundedAmount.amount))
            // Up to 20 % above the net settled amount: those returns are refused (INVALID_INPUT) and move nothing.
            if (t)
              simulate(emu, t.cardId, 'return', {
                cardTransactionId: t.id,
                amount: 1 + Math.floor(rand() * 1.2 * (t.settledAmount.amount - t.refundedAmount.amount)),
              })
            if (t) tally('card return')
          } else if (op === 13 && rand() < 0.4 && cardTxs((x) => x.status === 'EXCEPTION').length) {
            // Issue 29 F17: an EXCEPTION is resolved as the Service would, settled or returned.
            const t = pick(cardTxs((x) => x.status === 'EXCEPTION'))!
            const resolution = rand() < 0.5 ? 'SETTLE' : 'RETURN'
            simulate(emu, t.cardId, 'exception_resolution', {cardTransactionId: t.id, resolution})
            tally(`card exception ${resolution}`)
          } else if (op === 13) {
            const t = pick(cardTxs((x) => x.refundedAmount.amount > 0))
            if (t) simulate(emu, t.cardId, 'return_reversal', {cardTransactionId: t.id})
            if (t) tally('card return reversal')
            else {
              const open = pick(
                cardTxs(
                  (x) => x.direction === 'DEBIT' && (x.status === 'AUTHORIZED' || x.status === 'PARTIALLY_SETTLED'),
                ),
              )
              if (open)
                simulate(emu, open.cardId, 'authorization_advice', {
                  cardTransactionId: open.id,
                  amount: Math.max(open.settledAmount.amount, 1) + Math.floor(rand() * 30_000),
                })
              if (open) tally('card advice')
            }
          } else {
            // Credits to the card (standalone refunds), and now and then a closed card replaced by a new one.
            if (rand() < 0.1) {
              updateCard(emu, emu.db.get<StoredCard>('cards', p.card)!, {state: 'CLOSED'})
              p.card = activeCard(p.id, emu.db.get<StoredCard>('cards', p.card)!.fundingSources[0])
              tally('card close')
            } else {
              simulate(emu, p.card, rand() < 0.5 ? 'financial_credit_authorization' : 'credit_authorization', {
                amount: 1 + Math.floor(rand() * 5_000),
                currency: {code: 'USD'},
                merchant: {descriptor: 'REFUND DESK'},
              })
              tally('card credit')
            }
          }
          moved++
        } catch (e) {
          if (!(e instanceof HttpError)) throw e
          tally(`refused ${e.code}`)
          log[step] += ` refused ${e.code}`
          refused++ // a refused operation must leave the ledger exactly as it was (checked below)
        }
        const off = Object.entries(imbalance(emu)).filter(([, v]) => v !== 0)
        const problems = [...watch.look(), ...off.map(([k, v]) => `ledger ${k} off by ${v}`)]
        if (problems.length) expect.fail(replayNote('test/unit/money/ledger-property.test.ts', seed, log, problems))
        for (const a of emu.db.all<InternalAccount>('internalAccounts')) {
          expect(a.balance.amount).toBeGreaterThanOrEqual(0)
          expect(a.totalBalance.amount).toBeGreaterThanOrEqual(a.balance.amount)
        }
        // Every card hold has a way to end: it sits on a transaction that a clearing, an expiry or a resolution ends.
        for (const t of emu.db.all<StoredCardTransaction>('cardTransactions'))
          if (t._.held > 0)
            expect(['AUTHORIZED', 'PARTIALLY_SETTLED', 'EXCEPTION'], `seed ${seed} step ${step}: ${t.id}`).toContain(
              t.status,
            )
      }
      // ... and taking those ways ends every hold: nothing stays held once payments settle and cards resolve.
      drainHolds(people.map((x) => x.id))
      const drained = watch.look()
      if (drained.length)
        expect.fail(replayNote('test/unit/money/ledger-property.test.ts', seed, [...log, 'drain'], drained))
      for (const [k, v] of Object.entries(watch.moves)) moves[k] = (moves[k] ?? 0) + v
      expect(watch.events).toBeGreaterThanOrEqual(RUNS.steps / 8)
      for (const a of emu.db.all<InternalAccount>('internalAccounts'))
        if (people.some((x) => x.id === a.customerId))
          expect(a.totalBalance.amount, `seed ${seed}: ${a.id} still holds funds`).toBe(a.balance.amount)
      expect(Object.entries(imbalance(emu)).filter(([, v]) => v !== 0)).toEqual([])
      // The sequence really exercised the ledger (not just refusals).
      for (const t of emu.db.all<StoredCardTransaction>('cardTransactions'))
        expect(t._.held, t.id).toBeGreaterThanOrEqual(0)
      expect(moved).toBeGreaterThan(160)
      expect(refused).toBeGreaterThan(0)
      expect(totals(emu, 'USD').paidOut).toBeGreaterThan(0)
      for (const kind of ['fund', 'quote', 'execute', 'refused QUOTE_EXPIRED'])
        expect(did[kind] ?? 0, `seed ${seed}: ${kind} never happened (${JSON.stringify(did)})`).toBeGreaterThan(0)
      expect(quotes('EXPIRED').length).toBeGreaterThan(0) // quotes really expired on the clock
    },
    90_000 * Math.max(1, RUNS.steps / 320),
  ) // 320 steps, each checked against the whole ledger: slow on a loaded machine, never flaky

  it('the random sequences together covered every kind of movement and refusal', () => {
    const kinds = [
      'fund',
      'quote',
      'quote realtime',
      'execute',
      'send',
      'complete',
      'fail',
      'return',
      'cancel',
      'refused QUOTE_EXPIRED',
      'refused INSUFFICIENT_FUNDS',
    ]
    const cards = [
      'card authorization',
      'card financial_authorization',
      'card clear',
      'card over-clear',
      'card expire',
      'card return',
      'card return reversal',
      'card advice',
      'card credit',
      'card exception SETTLE',
      'card exception RETURN',
      'card close',
      'refused INVALID_INPUT',
    ]
    for (const kind of [...kinds, ...cards]) {
      expect(seen[kind] ?? 0, `${kind} never happened (${JSON.stringify(seen)})`).toBeGreaterThan(2)
    }
    // ... and every state move the machines allow for these objects (legal, one event each: money-watch.ts).
    for (const move of [
      'quotes PENDING->PROCESSING',
      'quotes PENDING->EXPIRED',
      'quotes PROCESSING->COMPLETED',
      'quotes PROCESSING->FAILED',
      'transactions PROCESSING->COMPLETED',
      'transactions PROCESSING->FAILED',
      'transactions COMPLETED->FAILED',
      'cardTransactions AUTHORIZED->PARTIALLY_SETTLED',
      'cardTransactions AUTHORIZED->SETTLED',
      'cardTransactions AUTHORIZED->VOIDED',
      'cardTransactions AUTHORIZED->EXCEPTION',
      'cardTransactions PARTIALLY_SETTLED->SETTLED',
      'cardTransactions SETTLED->EXCEPTION',
      'cardTransactions EXCEPTION->SETTLED',
      'cardTransactions EXCEPTION->VOIDED',
    ])
      expect(moves[move] ?? 0, `${move} never seen (${JSON.stringify(moves)})`).toBeGreaterThan(0)
  })

  it('a quote executes once: a second execute neither debits nor creates a transaction', () => {
    const p = customer(99)
    const usd = p.accounts.find((a) => a.balance.currency.code === 'USD')!.id
    recordIncoming(emu, usd, 10_000, {customerId: p.id, description: 'fund'})
    const q = createQuote(emu, {
      source: {sourceType: 'ACCOUNT', accountId: usd},
      destination: {destinationType: 'ACCOUNT', accountId: p.externals[0]},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 4_000,
    })
    executeQuote(emu, q.id)
    const count = emu.db.count('transactions')
    expect(() => executeQuote(emu, q.id)).toThrow(/already executed/)
    expect(emu.db.count('transactions')).toBe(count)
    expect(emu.db.get<InternalAccount>('internalAccounts', usd)!.balance.amount).toBe(6_000)
  })

  it('stablecoin mints and burns move money through the ledger: fiat held then paid out, coins credited, held then paid out (seeded)', async () => {
    const rand = prng(42)
    const p = customer(77)
    const bank = createExternalAccount(emu, usdBankAccount(p.id)).id
    linkProviderAccount(emu, {provider: 'BRALE', apiClientId: 'prop', apiClientSecret: 'prop-secret'})
    const coin = registerStablecoin(emu, {
      providerTokenIdentifier: 'PROP',
      networkTokenIdentifier: 'btkn1propertypropertyprop',
      network: 'L2',
    })
    requestEnablement(emu, coin.id)
    operatorSetEnablement(emu, coin.id, {status: 'ENABLED'})
    const own = stablecoinAccount(emu, emu.db.get('stablecoins', coin.id)!)!.id
    const usd = platformFiatAccount(emu, 'USD')!.id // a mint spends the platform's own fiat (issue 29 F3)
    const request = (body: unknown) =>
      ({
        method: 'POST',
        path: '/x',
        params: {},
        query: new URLSearchParams(),
        headers: {'idempotency-key': `k${rand()}`},
        body,
        rawBody: Buffer.from(JSON.stringify(body)),
        ctx: emu,
      }) as EmuRequest
    const pending = () =>
      emu.db
        .all<StoredOperation>('stablecoinOperations')
        .filter((o) => o.stablecoinId === coin.id && o.status !== 'COMPLETED')
    const did: Record<string, number> = {}
    for (let step = 0; step < 150; step++) {
      const op = Math.floor(rand() * 4)
      const cents = 1 + Math.floor(rand() * 30_000)
      try {
        await emu.db.unit(async () => {
          if (op === 0) recordIncoming(emu, usd, cents, {description: 'fund'})
          else if (op === 1)
            await mint(
              request({
                amount: String(cents * 10_000),
                fundingSource: {type: 'GRID_INTERNAL_ACCOUNT', accountId: usd},
                destination: {accountId: own},
              }),
              coin.id,
            )
          else if (op === 2)
            await burn(
              request({
                amount: String(cents * 10_000),
                source: {type: 'GRID_INTERNAL_ACCOUNT', accountId: own},
                destination: {type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'ACH_CREDIT'},
              }),
              coin.id,
            )
          else {
            const o = pick(pending())
            if (o) settleOperation(emu, o.id)
          }
        })
        did[['fund', 'mint', 'burn', 'settle'][op]] = (did[['fund', 'mint', 'burn', 'settle'][op]] ?? 0) + 1
      } catch (e) {
        if (!(e instanceof HttpError)) throw e
        did[`refused ${e.code}`] = (did[`refused ${e.code}`] ?? 0) + 1
      }
      const off = Object.entries(imbalance(emu)).filter(([, v]) => v !== 0)
      expect(off, `step ${step} op ${op}`).toEqual([])
    }
    for (const o of pending()) await emu.db.unit(() => settleOperation(emu, o.id))
    expect(Object.entries(imbalance(emu)).filter(([, v]) => v !== 0)).toEqual([])
    for (const kind of ['fund', 'mint', 'burn', 'settle', 'refused INSUFFICIENT_FUNDS'])
      expect(did[kind] ?? 0, `${kind} never happened (${JSON.stringify(did)})`).toBeGreaterThan(2)
    expect(totals(emu, 'PROP').fundedIn).toBeGreaterThan(0)
    expect(totals(emu, 'PROP').paidOut).toBeGreaterThan(0)
    function pick<T>(xs: T[]): T | undefined {
      return xs.length ? xs[Math.floor(rand() * xs.length)] : undefined
    }
  })
})
