import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {InternalAccount} from '../../src/emulator/domain/internal-accounts.js'
import type {StoredTransaction} from '../../src/emulator/domain/transactions.js'
import {actionTransaction, fundedTarget, type Target} from '../helpers/delegation.js'
import {api, imbalance} from '../helpers/money.js'
import {modelRuns, replayNote, TransitionWatch} from '../helpers/money-watch.js'
import {call, tokenWith} from '../helpers/principals.js'
import {prng} from '../helpers/prng.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * The seeded model of money with agents (issue 29), through HTTP on a frozen sandbox clock: agents made
 * by a TRANSACT token or a MANAGE-only one, device codes redeemed, agent quotes and transfers within and
 * over their limits, the platform's approvals and rejections, cancels, pauses, a revoked grant, clock
 * advances that settle payments and expire quotes. After every step the model's expected available
 * balance is the sandbox's, the ledger balances, and every status move is legal with one event each
 * (test/helpers/money-watch.ts). A failure prints its seed and steps; SVC_MONEY_SEEDS=<seed> replays it.
 */
const FILE = 'test/integration/money-model-agents.test.ts'
// 4 seeds x 150 HTTP steps in npm test (with ledger-property's 2,240 domain steps); the bench runs more.
const RUNS = modelRuns(4, 150)
const MONEY = ['CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'] as const

interface ModelAgent {
  id: string
  customer: Target
  code?: {code: string; expiresAt: string}
  auth?: string
  grantToken: string
  permissions: string[]
  approvalAlways: boolean
  limit: number
  threshold?: number
  paused: boolean
}

let sbx: TestSandbox
const seen: Record<string, number> = {}
const moves: Record<string, number> = {}
beforeAll(async () => {
  sbx = await startSandbox()
  expect((await api(sbx, 'POST', '/sandbox/clock/freeze', {})).status).toBe(200)
})
afterAll(async () => sbx.stop())

const available = (accountId: string) => sbx.emu.db.get<InternalAccount>('internalAccounts', accountId)!.balance.amount
const outgoing = (customerId: string) =>
  sbx.emu.db.all<StoredTransaction>('transactions').filter((t) => t.customerId === customerId && t.type === 'OUTGOING')

describe('seeded model of money with agents, approvals and the clock', () => {
  it.each(RUNS.seeds)(
    'random agents, grants, device codes, agent payments within and over limits, approvals, cancels, advances (seed %i)',
    async (seed) => {
      const rand = prng(seed)
      const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))
      const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined)
      const people = [
        await fundedTarget(sbx, `Model ${seed} A`, 300_000),
        await fundedTarget(sbx, `Model ${seed} B`, 300_000),
      ]
      let payer = await tokenWith(sbx, ['MANAGE', 'TRANSACT'])
      const manager = await tokenWith(sbx, ['MANAGE'])
      const expected = new Map(people.map((p) => [p.usd, available(p.usd)]))
      /** What each payment the model started holds, so a cancel or reject gives back exactly that. */
      const held = new Map<string, {account: string; amount: number}>()
      const agents: ModelAgent[] = []
      const watch = new TransitionWatch(
        sbx.emu.db,
        people.map((p) => p.id),
      )
      const log: string[] = []
      const did = (what: string) => {
        log[log.length - 1] += ` -> ${what}`
        seen[what] = (seen[what] ?? 0) + 1
      }
      /** A payment the sandbox started: the model expects its funds to leave the available balance. */
      const started = (txId: string | undefined, p: Target, outcome: string) => {
        const t = sbx.emu.db.get<StoredTransaction>('transactions', txId!)!
        const amount = t._!.funding!.amount
        expected.set(p.usd, expected.get(p.usd)! - amount)
        held.set(t.id, {account: p.usd, amount})
        expect(t.status, `seed ${seed}: ${outcome}`).toBe(outcome === 'waits' ? 'PENDING' : 'PROCESSING')
        did(`agent ${outcome}`)
      }
      /** An agent's payment: refused when the model says so (nothing moves), else it moves or waits for the platform. */
      const agentPays = async (a: ModelAgent, kind: 'quote' | 'transfer') => {
        const p = a.customer
        const amount = int(500, Math.round(a.limit * 1.5))
        const need = kind === 'quote' ? ['CREATE_QUOTES', 'EXECUTE_QUOTES'] : ['CREATE_TRANSFERS']
        const grantGone = a.grantToken !== payer.id
        const before = outgoing(p.id).length
        let total = amount
        let r
        if (kind === 'quote') {
          const q = await call(sbx, a.auth, 'POST', '/agents/me/quotes', {
            source: {sourceType: 'ACCOUNT', accountId: p.usd},
            destination: {destinationType: 'ACCOUNT', accountId: p.clabe},
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: amount,
          })
          if (q.status !== 201) {
            expect(q.status, `seed ${seed}: quote ${JSON.stringify(q.body)}`).toBe(403)
            expect(!a.permissions.includes('CREATE_QUOTES') || a.paused || grantGone).toBe(true)
            return did('agent quote refused 403')
          }
          total = q.body.totalSendingAmount
          r = await call(sbx, a.auth, 'POST', `/agents/me/quotes/${q.body.id}/execute`)
        } else
          r = await call(sbx, a.auth, 'POST', '/agents/me/transfer-out', {
            source: {accountId: p.usd},
            destination: {accountId: p.usdBank},
            amount,
          })
        const lacks = need.some((x) => !a.permissions.includes(x)) || a.paused || grantGone
        const overLimit = total > a.limit
        if (lacks || overLimit) {
          expect(r.status, `seed ${seed}: ${JSON.stringify(r.body)}`).toBe(403)
          expect(outgoing(p.id).length, 'a refused agent payment holds nothing').toBe(before)
          return did(overLimit && !lacks ? 'agent over limit 403' : 'agent refused 403')
        }
        if (total > expected.get(p.usd)!) {
          expect(r.body.code, `seed ${seed}: ${JSON.stringify(r.body)}`).toBe('INSUFFICIENT_FUNDS')
          return did('agent INSUFFICIENT_FUNDS')
        }
        expect([200, 201], `seed ${seed}: ${JSON.stringify(r.body)}`).toContain(r.status)
        const waits = a.approvalAlways || (a.threshold !== undefined && total >= a.threshold)
        expect(r.body.status).toBe(waits ? 'PENDING_APPROVAL' : 'APPROVED')
        started(actionTransaction(sbx, r.body), p, waits ? 'waits' : 'moves')
      }

      for (let step = 0; step < RUNS.steps; step++) {
        const op = int(0, 11)
        const p = pick(people)!
        log.push(`op ${op} for ${p.id}`)
        if (op === 0) {
          const amount = int(1, 60_000)
          expect((await api(sbx, 'POST', `/sandbox/internal-accounts/${p.usd}/fund`, {amount})).status).toBe(200)
          expected.set(p.usd, expected.get(p.usd)! + amount)
          did('fund')
        } else if (op === 1) {
          // An agent whose policy moves money: a MANAGE-only token may not create it (issue 29 F1).
          const permissions = MONEY.filter(() => rand() < 0.6)
          const byManager = rand() < 0.3
          const limit = int(2_000, 40_000)
          const threshold = rand() < 0.5 ? int(1_000, 40_000) : undefined
          const approvalAlways = rand() < 0.25
          const r = await call(sbx, byManager ? manager.auth : payer.auth, 'POST', '/agents', {
            name: `m${step}`,
            customerId: p.id,
            policy: {
              permissions: [...permissions, ...(rand() < 0.5 ? ['VIEW_TRANSACTIONS'] : [])],
              defaultExecutionMode: approvalAlways ? 'APPROVAL_REQUIRED' : 'AUTO',
              spendingLimits: {currency: 'USD', perTransactionLimit: limit},
              ...(threshold ? {approvalThresholds: {currency: 'USD', amount: threshold}} : {}),
            },
          })
          const moves = permissions.some((x) => x !== 'CREATE_QUOTES')
          if (byManager && moves) {
            expect(r.status, JSON.stringify(r.body)).toBe(403)
            expect(r.body.details.required).toEqual(['TRANSACT'])
            did('agent create refused (MANAGE only)')
          } else {
            expect(r.status, JSON.stringify(r.body)).toBe(201)
            agents.push({
              id: r.body.agent.id,
              customer: p,
              code: r.body.deviceCode,
              grantToken: moves ? payer.id : 'none',
              permissions,
              approvalAlways,
              limit,
              threshold,
              paused: false,
            })
            did('agent create')
          }
        } else if (op === 2) {
          const a = pick(agents.filter((x) => x.code))
          const code = a?.code
          if (a && code) {
            const r = await call(sbx, undefined, 'POST', `/agents/device-codes/${code.code}/redeem`)
            const expired = Date.parse(code.expiresAt) <= sbx.emu.now()
            expect(r.status, JSON.stringify(r.body)).toBe(expired ? 400 : 200)
            const again = await call(sbx, undefined, 'POST', `/agents/device-codes/${code.code}/redeem`)
            expect(again.status).toBe(400)
            a.code = undefined
            if (!expired) a.auth = `Bearer ${r.body.accessToken}`
            did(expired ? 'redeem expired' : 'redeem')
          }
        } else if (op === 3 || op === 4) {
          const a = pick(agents.filter((x) => x.auth))
          if (a) await agentPays(a, op === 3 ? 'quote' : 'transfer')
        } else if (op === 5) {
          // The platform decides on a waiting action: approve sends it, reject gives the funds back.
          const x = pick(
            sbx.emu.db.all<{id: string; agentId: string; status: string; customerId: string}>('agentActions'),
          )
          if (x?.status === 'PENDING_APPROVAL' && people.some((q) => q.id === x.customerId)) {
            const verb = rand() < 0.6 ? 'approve' : 'reject'
            const tx = sbx.emu.db.get<{_: {transactionId: string}}>('agentActions', x.id)!._.transactionId
            const r = await call(sbx, payer.auth, 'POST', `/agents/${x.agentId}/actions/${x.id}/${verb}`)
            expect(r.status, JSON.stringify(r.body)).toBe(200)
            expect(r.body.status).toBe(verb === 'approve' ? 'APPROVED' : 'REJECTED')
            if (verb === 'reject') {
              const h = held.get(tx)!
              expect.soft(h, `seed ${seed}: rejected ${tx} held nothing`).toBeDefined()
              expected.set(h.account, expected.get(h.account)! + h.amount)
            }
            did(`platform ${verb}`)
          }
        } else if (op === 6) {
          const t = pick(outgoing(p.id).filter((x) => x.status === 'PROCESSING' || x.status === 'PENDING'))
          if (t) {
            const r = await call(sbx, payer.auth, 'POST', `/transactions/${t.id}/cancel`)
            expect(r.status, JSON.stringify(r.body)).toBe(200)
            const h = held.get(t.id)!
            expected.set(h.account, expected.get(h.account)! + h.amount)
            did('cancel')
          }
        } else if (op === 7) {
          const a = pick(agents)
          if (a) {
            const r = await call(sbx, payer.auth, 'PATCH', `/agents/${a.id}`, {isPaused: !a.paused})
            expect(r.status, JSON.stringify(r.body)).toBe(200)
            a.paused = !a.paused
            did(a.paused ? 'pause' : 'unpause')
          }
        } else if (op === 8 && rand() < 0.15) {
          // The token that granted the agents their money is deleted: they stop (issue 29, device codes).
          expect((await api(sbx, 'DELETE', `/tokens/${payer.id}`)).status).toBe(204)
          payer = await tokenWith(sbx, ['MANAGE', 'TRANSACT'])
          did('grant revoked')
        } else if (op === 8 || op === 9) {
          const r = await api(sbx, 'POST', '/sandbox/clock/advance', {by: `${int(1, 200)}s`})
          expect(r.status, JSON.stringify(r.body)).toBe(200)
          did('advance')
        } else {
          // The platform itself pays (a TRANSACT token), beside the agents.
          const q = await call(sbx, payer.auth, 'POST', '/quotes', {
            source: {sourceType: 'ACCOUNT', accountId: p.usd},
            destination: {destinationType: 'ACCOUNT', accountId: p.clabe},
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: int(100, 30_000),
          })
          expect(q.status, JSON.stringify(q.body)).toBe(201)
          const x = await call(sbx, payer.auth, 'POST', `/quotes/${q.body.id}/execute`)
          if (q.body.totalSendingAmount > expected.get(p.usd)!) {
            expect(x.body.code).toBe('INSUFFICIENT_FUNDS')
            did('platform INSUFFICIENT_FUNDS')
          } else {
            expect(x.status, JSON.stringify(x.body)).toBe(200)
            const t = sbx.emu.db.get<StoredTransaction>('transactions', x.body.transactionId)!
            expected.set(p.usd, expected.get(p.usd)! - t._!.funding!.amount)
            held.set(t.id, {account: p.usd, amount: t._!.funding!.amount})
            did('platform pays')
          }
        }
        const problems = watch.look()
        for (const q of people)
          if (available(q.usd) !== expected.get(q.usd))
            problems.push(`${q.usd} available ${available(q.usd)}, the model expects ${expected.get(q.usd)}`)
        const off = Object.entries(await imbalance(sbx)).filter(([, v]) => v !== 0)
        problems.push(...off.map(([k, v]) => `ledger ${k} off by ${v}`))
        if (problems.length) expect.fail(replayNote(FILE, seed, log, problems))
      }
      for (const [k, v] of Object.entries(watch.moves)) moves[k] = (moves[k] ?? 0) + v
    },
    120_000 * Math.max(1, RUNS.steps / 150),
  )

  it('the sequences covered agents within and over limits, approvals, rejections, revoked grants and settlements', () => {
    for (const kind of [
      'agent create',
      'agent create refused (MANAGE only)',
      'redeem',
      'agent moves',
      'agent waits',
      'agent over limit 403',
      'platform approve',
      'platform reject',
      'cancel',
      'advance',
      'platform pays',
    ])
      expect(seen[kind] ?? 0, `${kind} never happened (${JSON.stringify(seen)})`).toBeGreaterThan(0)
    for (const move of [
      'transactions PENDING->PROCESSING',
      'transactions PENDING->FAILED',
      'transactions PROCESSING->COMPLETED',
      'transactions PROCESSING->FAILED',
      'agentActions PENDING_APPROVAL->APPROVED',
      'agentActions PENDING_APPROVAL->REJECTED',
      'quotes PENDING->EXPIRED',
    ])
      expect(moves[move] ?? 0, `${move} never seen (${JSON.stringify(moves)})`).toBeGreaterThan(0)
  })
})
