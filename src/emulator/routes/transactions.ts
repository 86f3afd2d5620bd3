import {transactionApproveRequest, transactionCancelRequest, transactionListQuery} from '../../lib/schemas/transactions.js'
import {approveTransaction, cancelTransaction, getTransaction, publicTransaction, registerTransactionJobs, type StoredTransaction} from '../domain/transactions.js'
import type {Emulator} from '../emulator.js'
import {validate} from '../http-error.js'
import {paginate} from '../paging.js'
import type {Router} from '../router.js'

function touches(t: StoredTransaction, id: string): boolean {
  return t.source?.accountId === id || t.destination.accountId === id
}

/** GET /transactions with the published filters, one transaction, approve and cancel (api-gaps 4.4). */
export function registerTransactions(router: Router, emu: Emulator): void {
  registerTransactionJobs(emu)

  router.get('/transactions', (req) => {
    const q = validate(transactionListQuery, Object.fromEntries(req.query))
    const [start, end] = [q.startDate ? Date.parse(q.startDate) : undefined, q.endDate ? Date.parse(q.endDate) : undefined]
    const dir = q.sortOrder === 'asc' ? 1 : -1
    const rows = emu.db
      .all<StoredTransaction>('transactions')
      .filter((t) => !q.customerId || t.customerId === q.customerId)
      .filter((t) => !q.platformCustomerId || t.platformCustomerId === q.platformCustomerId)
      .filter((t) => !q.accountIdentifier || touches(t, q.accountIdentifier))
      .filter((t) => !q.status || t.status === q.status)
      .filter((t) => !q.type || t.type === q.type)
      .filter((t) => !q.reference || t.refund?.reference === q.reference || t.id === q.reference)
      .filter((t) => (start === undefined || Date.parse(t.createdAt) >= start) && (end === undefined || Date.parse(t.createdAt) <= end))
      .sort((a, b) => dir * (a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)))
      .map(publicTransaction)
    return {status: 200, body: paginate(rows, req.query)}
  })

  router.get('/transactions/:id', (req) => ({status: 200, body: publicTransaction(getTransaction(emu, req.params.id))}))

  router.post('/transactions/:id/approve', (req) => {
    const t = getTransaction(emu, req.params.id)
    validate(transactionApproveRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(approveTransaction(emu, t))}
  })

  router.post('/transactions/:id/cancel', (req) => {
    const t = getTransaction(emu, req.params.id)
    validate(transactionCancelRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(cancelTransaction(emu, t))}
  })
}
