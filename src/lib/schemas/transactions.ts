import * as z from 'zod'
import {currencyAmountSchema, dateTime, idOf} from './common.js'

export const transactionId = idOf('Transaction')
export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
] as const
export const TERMINAL_TRANSACTION_STATUSES = new Set(['COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'])

export const onChainTransactionSchema = z.looseObject({transactionHash: z.string(), network: z.string()})

export const transactionSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  type: z.string(),
  direction: z.string().optional(),
  customerId: z.string().optional(),
  platformCustomerId: z.string().optional(),
  source: z.looseObject({}).optional(),
  destination: z.looseObject({}).optional(),
  sentAmount: currencyAmountSchema.optional(),
  receivedAmount: currencyAmountSchema.optional(),
  quoteId: z.string().optional(),
  exchangeRate: z.number().optional(),
  pendingReason: z.string().optional(),
  failureReason: z.string().optional(),
  /** Smallest units of the sending currency (int64 in the contract), on outgoing transactions. */
  platformFees: z.number().int().min(0).optional(),
  fees: z.number().int().min(0).optional(),
  settledAt: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  description: z.string().optional(),
  refund: z.looseObject({status: z.string()}).optional(),
})
export type Transaction = z.infer<typeof transactionSchema>

/** GET /transactions query (api-gaps 4.4); shared by the client (flags) and the sandbox. */
export const transactionListQuery = z.strictObject({
  customerId: idOf('Customer').optional(),
  platformCustomerId: z.string().max(100).optional(),
  accountIdentifier: z.string().max(200).optional(),
  /** The paying account (a payment's source, a card transaction's funding account). */
  senderAccountIdentifier: z.string().max(200).optional(),
  /** The account paid into (a payment's destination). */
  receiverAccountIdentifier: z.string().max(200).optional(),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  type: z.enum(['INCOMING', 'OUTGOING']).optional(),
  reference: z.string().max(100).optional(),
  startDate: dateTime.optional(),
  endDate: dateTime.optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})
export type TransactionListQuery = z.infer<typeof transactionListQuery>

export const transactionCancelRequest = z.strictObject({reason: z.string().max(200).optional()})
export const transactionApproveRequest = z.strictObject({
  receiverCustomerInfo: z.record(z.string(), z.unknown()).optional(),
})

/** POST /transactions/{id}/confirm: when the platform delivered the receipt (default: now). */
export const transactionConfirmRequest = z.strictObject({receiptDeliveryConfirmedAt: dateTime.optional()})
/** POST /transactions/{id}/reject: the platform's reason, for its own records. */
export const transactionRejectRequest = z.strictObject({reason: z.string().min(1).max(200).optional()})
