import {getExternalAccount, getInternalAccount} from '../api/accounts.js'
import type {ApiClient} from '../api/client.js'
import {currency as lookup} from '../currencies.js'
import {InputError, usageError, type FieldError} from '../errors.js'
import {MoneyError, parseMinor, toMinor} from '../money.js'
import {quoteCreateRequest, type QuoteCreateRequest} from '../schemas/quotes.js'
import {checkWith} from '../validate.js'

export interface QuoteFlags {
  from?: string
  realtime?: boolean
  customer?: string
  currency?: string
  network?: string
  to?: string
  rail?: string
  send?: string
  receive?: string
  'amount-minor'?: string
  lock?: string
  description?: string
  purpose?: string
  remittance?: string
  'platform-fee'?: string
  'platform-fee-bps'?: number
}

const DECIMAL = /^\d+(\.\d+)?$/

/** Every check that needs no request: which source, which amount, amount syntax, fee syntax. */
export function checkQuoteFlags(f: QuoteFlags): void {
  const errors: FieldError[] = []
  if (!f.from && !f.realtime) throw usageError('Name the source: --from <InternalAccount|ExternalAccount> or --realtime --customer <id> --currency <code>')
  if (f.from && f.realtime) throw usageError('--from and --realtime cannot be used together')
  if (f.realtime && !f.customer) errors.push({field: 'source.customerId', message: 'is required with --realtime (--customer)'})
  if (f.realtime && !f.currency) errors.push({field: 'source.currency', message: 'is required with --realtime (--currency)'})
  if (!f.to) errors.push({field: 'destination.accountId', message: 'is required (--to)'})
  const amounts = [f.send, f.receive, f['amount-minor']].filter((v) => v !== undefined)
  if (amounts.length !== 1) throw usageError('Give exactly one amount: --send <real units>, --receive <real units> or --amount-minor <smallest units> [--lock sending|receiving]')
  for (const [flag, v] of [['send', f.send], ['receive', f.receive]] as const) {
    if (v !== undefined && !DECIMAL.test(v.trim())) errors.push({field: 'lockedCurrencyAmount', message: `--${flag} "${v}" is not a decimal amount (e.g. 250.00)`})
    else if (v !== undefined && Number(v) === 0) errors.push({field: 'lockedCurrencyAmount', message: `--${flag} must be more than zero`})
  }
  if (f['amount-minor'] !== undefined && !/^[1-9]\d*$/.test(f['amount-minor'].trim())) errors.push({field: 'lockedCurrencyAmount', message: `--amount-minor "${f['amount-minor']}" must be a positive whole number of smallest units`})
  if (f['platform-fee'] !== undefined && !DECIMAL.test(f['platform-fee'])) errors.push({field: 'platformFeeOverride.platformFixedFee.amount', message: `--platform-fee "${f['platform-fee']}" is not a decimal USD amount`})
  if (f.realtime && f.currency && f['platform-fee'] !== undefined && f.currency !== 'USD') errors.push({field: 'platformFeeOverride', message: `requires a USD source currency (this quote sends ${f.currency})`})
  if (f.realtime && f.currency && f.send && lookup(f.currency)) {
    try {
      toMinor(f.send, lookup(f.currency)!.decimals)
    } catch (e) {
      errors.push({field: 'lockedCurrencyAmount', message: (e as Error).message})
    }
  }
  if (errors.length) throw new InputError(errors)
}

async function currencyOf(client: ApiClient, accountId: string, customerId?: string): Promise<string> {
  if (accountId.startsWith('ExternalAccount:')) return (await getExternalAccount(client, accountId)).currency
  return (await getInternalAccount(client, accountId, customerId)).balance.currency.code
}

function minorOf(value: string, code: string, field: string): number {
  try {
    return toMinor(value, lookup(code)?.decimals ?? 2)
  } catch (e) {
    if (e instanceof MoneyError) throw new InputError([{field, message: `${e.message} (${code})`}])
    throw e
  }
}

/**
 * Builds the POST /quotes body: real units are converted with the locked side's currency, which is
 * looked up from the account when the flags do not name it.
 */
export async function buildQuoteRequest(client: ApiClient, f: QuoteFlags, extra: {immediatelyExecute?: boolean} = {}): Promise<QuoteCreateRequest> {
  checkQuoteFlags(f)
  const side = f.receive !== undefined ? 'RECEIVING' : f.send !== undefined ? 'SENDING' : (f.lock ?? 'sending').toUpperCase()
  let sending: Promise<string> | undefined
  const sendingCurrency = () => (sending ??= f.realtime ? Promise.resolve(f.currency!) : currencyOf(client, f.from!, f.customer))
  let amount: number
  if (f['amount-minor'] !== undefined) amount = parseMinor(f['amount-minor'])
  else if (side === 'SENDING') amount = minorOf(f.send!, await sendingCurrency(), 'lockedCurrencyAmount')
  else amount = minorOf(f.receive!, await currencyOf(client, f.to!, f.customer), 'lockedCurrencyAmount')
  if ((f['platform-fee'] !== undefined || f['platform-fee-bps'] !== undefined) && (await sendingCurrency()) !== 'USD') {
    throw new InputError([{field: 'platformFeeOverride', message: `requires a USD source currency (this quote sends ${await sendingCurrency()})`}])
  }
  const body = {
    source: f.realtime
      ? {sourceType: 'REALTIME_FUNDING', currency: f.currency, customerId: f.customer, ...(f.network ? {cryptoNetwork: f.network} : {})}
      : {sourceType: 'ACCOUNT', accountId: f.from, ...(f.customer ? {customerId: f.customer} : {})},
    destination: {destinationType: 'ACCOUNT', accountId: f.to, ...(f.rail ? {paymentRail: f.rail} : {})},
    lockedCurrencySide: side,
    lockedCurrencyAmount: amount,
    ...(extra.immediatelyExecute ? {immediatelyExecute: true} : {}),
    ...(f.description ? {description: f.description} : {}),
    ...(f.remittance ? {remittanceInformation: f.remittance} : {}),
    ...(f.purpose ? {purposeOfPayment: f.purpose} : {}),
    ...(f['platform-fee'] !== undefined || f['platform-fee-bps'] !== undefined
      ? {platformFeeOverride: {platformFixedFee: {amount: toMinor(f['platform-fee'] ?? '0', 2), currency: 'USD'}, platformVariableFeeBps: f['platform-fee-bps'] ?? 0}}
      : {}),
  }
  return checkWith(quoteCreateRequest, body)
}
