import type {UmaSenderBehaviour} from './transactions.js'

/** The currency object the API shows with an amount (domain/internal-accounts' currencyObject builds it). */
export type CurrencyObject = {code: string; name?: string; symbol?: string; decimals: number}

/** Who receives a quote to an UMA address: a sandbox counterparty, or a customer of this platform. */
export interface UmaReceiver {
  address: string
  lookupId: string
  /** Sandbox counterparty ($success.eur@sandbox.uma.money ...): what its payment does. */
  behaviour?: UmaSenderBehaviour
  /** A customer of this platform: the internal account credited on completion. */
  customerId?: string
  platformCustomerId?: string
  accountId?: string
}

/** The quotes table holds these: the API object plus what execute needs, under `_` (never returned). */
export interface StoredQuote {
  id: string
  status: 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED'
  /** The SCA challenge to satisfy now (customers whose platform requires SCA). */
  scaChallenge?: {id: string; expiresAt: string; factor: string; availableFactors: string[]; purpose?: string}
  createdAt: string
  expiresAt: string
  source: Record<string, unknown>
  destination: Record<string, unknown>
  sendingCurrency: CurrencyObject
  receivingCurrency: CurrencyObject
  totalSendingAmount: number
  totalReceivingAmount: number
  exchangeRate: number
  feesIncluded: number
  platformFeesIncluded: number
  paymentInstructions?: Array<Record<string, unknown>>
  transactionId?: string
  description?: string
  remittanceInformation?: string
  purposeOfPayment?: string
  /** Internal: what execute needs. Never returned. */
  _: {
    customerId: string
    platformCustomerId: string
    sourceKind: 'INTERNAL' | 'PULL' | 'REALTIME'
    sourceAccountType?: string
    sourceAccountId?: string
    /** ACCOUNT destinations. */
    destinationAccountId?: string
    destinationInternal: boolean
    /** UMA_ADDRESS destinations: who receives, from the lookup. */
    uma?: UmaReceiver
    rail?: string
    serviceFee: number
    /** Payment instructions of a real-time quote held for SCA authorization. */
    withheldInstructions?: Array<Record<string, unknown>>
    /** Who executed a quote held for SCA: released on authorize as that agent would have been. */
    heldFor?: {agentId?: string; agentAuto?: boolean}
    /** Wrong SCA proofs from payments-only callers: they count here, not towards the customer's lock. */
    scaFailedAttempts?: number
  }
}
