import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {Emulator} from '../../../src/emulator/emulator.js'
import {
  acceptIncoming,
  decideByDefault,
  isAwaitingDecision,
  receiveUmaPayment,
  rejectTransaction,
} from '../../../src/emulator/domain/incoming-uma.js'
import {createInternalAccounts, type InternalAccount} from '../../../src/emulator/domain/internal-accounts.js'
import {imbalance} from '../../../src/emulator/domain/ledger.js'
import {confirmReceipt, type StoredTransaction} from '../../../src/emulator/domain/transactions.js'
import {HttpError} from '../../../src/emulator/http-error.js'
import {prng} from '../../helpers/prng.js'

let emu: Emulator
let dir: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-incoming-'))
  // The default decision is far in the future: the test decides (approve, reject, default) itself.
  emu = await Emulator.start({dataDir: dir, port: 0, settings: {incomingApprovalDelayMs: 3_600_000}})
})
afterAll(async () => {
  await emu.close()
  rmSync(dir, {recursive: true, force: true})
})

function customer(n: number) {
  const id = `Customer:in-${n}`
  emu.db.put('customers', id, {
    id,
    platformCustomerId: `in${n}`,
    umaAddress: `$in${n}@sandbox.uma.local`,
    customerType: 'INDIVIDUAL',
    kycStatus: 'APPROVED',
    isDeleted: false,
    createdAt: emu.iso(),
    updatedAt: emu.iso(),
  })
  createInternalAccounts(emu, id, ['USD', 'EUR'])
  return id
}

const seen: Record<string, number> = {}

describe('incoming UMA payments conserve money', () => {
  it.each([1, 2, 3, 4])('random receive/approve/reject/default/confirm sequence (seed %i)', (seed) => {
    const rand = prng(seed)
    const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined)
    const people = [customer(seed * 10 + 1), customer(seed * 10 + 2)]
    const mine = () => emu.db.all<StoredTransaction>('transactions').filter((t) => people.includes(t.customerId ?? ''))
    const tally = (what: string) => (seen[what] = (seen[what] ?? 0) + 1)
    const balances = () =>
      Object.fromEntries(
        emu.db
          .all<InternalAccount>('internalAccounts')
          .filter((a) => people.includes(a.customerId ?? ''))
          .map((a) => [a.id, a.balance.amount]),
      )
    for (let step = 0; step < 150; step++) {
      const op = Math.floor(rand() * 6)
      const before = balances()
      let credited: StoredTransaction | undefined
      try {
        if (op <= 1) {
          const kind = pick(['success', 'pending.long', 'fail.compliance', 'refund', 'refund.fail'])!
          const cur = pick(['usd', 'eur', 'mxn'])!
          const p = pick(people)!
          receiveUmaPayment(emu, {
            senderUmaAddress: `$${kind}.${cur}@sandbox.uma.money`,
            customerId: p,
            receivingCurrencyCode: pick(['USD', 'EUR', 'MXN'])!,
            receivingCurrencyAmount: 1 + Math.floor(rand() * 90_000),
          })
          tally('receive')
        } else {
          const t = pick(op === 5 ? mine() : mine().filter(isAwaitingDecision))
          if (!t) continue
          if (op === 2) {
            // $refund senders: approved, but crediting fails and the money goes back (nothing moves here)
            const next = acceptIncoming(emu, t)
            if (next.status === 'COMPLETED') credited = next
            tally(`approve ${next.status}`)
          } else if (op === 3) {
            rejectTransaction(emu, t)
            tally('reject')
          } else if (op === 4) {
            const next = decideByDefault(emu, t)
            if (next.status === 'COMPLETED') credited = next
            tally(`default ${next.status}`)
          } else {
            confirmReceipt(emu, t, undefined)
            tally('confirm')
          }
        }
      } catch (e) {
        if (!(e instanceof HttpError)) throw e
        tally(`refused ${e.code}`)
      }
      const off = Object.entries(imbalance(emu)).filter(([, v]) => v !== 0)
      expect(off, `seed ${seed} step ${step} op ${op}`).toEqual([])
      // Only a completion moves money, into exactly its destination, by exactly its amount.
      const after = balances()
      for (const [id, amount] of Object.entries(after)) {
        const expected =
          (before[id] ?? 0) + (credited && credited.destination.accountId === id ? credited.receivedAmount!.amount : 0)
        expect(amount, `seed ${seed} step ${step} op ${op} ${id}`).toBe(expected)
      }
    }
    // A decided payment is never decided again.
    for (const t of mine().filter((x) => !isAwaitingDecision(x)))
      expect(() => rejectTransaction(emu, t)).toThrow(/only a PENDING incoming payment/)
  })

  it('covered every kind of decision and refusal', () => {
    for (const kind of [
      'receive',
      'approve COMPLETED',
      'approve FAILED',
      'reject',
      'default COMPLETED',
      'default FAILED',
      'confirm',
      'refused INVALID_CURRENCY',
    ]) {
      expect(seen[kind] ?? 0, `${kind} never happened (${JSON.stringify(seen)})`).toBeGreaterThan(2)
    }
  })
})
