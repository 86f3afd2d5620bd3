import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Db} from '../../../src/emulator/store/db.js'
import {listTransactions} from '../../../src/emulator/store/transactions.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-acct-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()
const tx = (i: number, source: string | undefined, destination: string | undefined, status = 'PENDING') => ({
  id: `Transaction:${i}`,
  status,
  type: source ? 'OUTGOING' : 'INCOMING',
  ...(source ? {source: {accountId: source}} : {}),
  destination: destination ? {accountId: destination} : {},
  createdAt: at(i),
})

describe('GET /transactions?accountIdentifier= totals (running counters per side)', () => {
  it('count each payment that touches the account once, self-transfers included, as payments change', async () => {
    const db = Db.open(dir)
    try {
      const A = 'InternalAccount:A'
      const B = 'InternalAccount:B'
      const rows = [
        tx(1, A, B),
        tx(2, B, A),
        tx(3, A, A), // both sides: one payment
        tx(4, undefined, A),
        tx(5, B, 'External:1'),
        tx(6, A, undefined),
      ]
      for (const r of rows) db.put('transactions', r.id, r)
      const page = (account: string, limit = 20) => listTransactions(db, {accountIdentifier: account} as never, {limit})
      expect(page(A).totalCount).toBe(5) // 1, 2, 3, 4, 6
      expect(page(A).rows.map((r) => r.id)).toHaveLength(5)
      expect(page(B).totalCount).toBe(3) // 1, 2, 5
      // status changes do not move the counts; a changed account does
      db.put('transactions', 'Transaction:1', tx(1, A, B, 'COMPLETED'))
      db.put('transactions', 'Transaction:5', tx(5, B, A))
      expect(page(A).totalCount).toBe(6)
      db.del('transactions', 'Transaction:3')
      expect(page(A).totalCount).toBe(5)
      expect(page(B).totalCount).toBe(3)
      // a filter beside the account: counted by the first page, carried in the cursor
      expect(listTransactions(db, {accountIdentifier: A, status: 'PENDING'} as never, {limit: 2}).totalCount).toBe(4)
    } finally {
      await db.close()
    }
  })
})
