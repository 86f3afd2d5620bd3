import type {ApiClient} from '../../api/client.js'
import {currency as lookup} from '../../currencies.js'
import {InputError, usageError, type FieldError} from '../../errors.js'
import {missingFlagsError} from '../../missing-flags.js'
import {MoneyError, parseMinor, toMinor} from '../../money.js'
import {quoteCreateRequest, type QuoteCreateRequest} from '../../schemas/quotes.js'
import {checkWith} from '../../validate.js'
import {umaFlagProblems, type UmaFlags} from './uma-flags.js'

export interface QuoteFlags extends UmaFlags {
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
  if (f.from && f.realtime) throw usageError('--from and --realtime cannot be used together')
  errors.push(...umaFlagProblems(f))
  const amounts = [f.send, f.receive, f['amount-minor']].filter((v) => v !== undefined)
  if (amounts.length > 1)
    throw usageError(
      'Give exactly one amount: --send <real units>, --receive <real units> or --amount-minor <smallest units> [--lock sending|receiving]',
    )
  // Every missing flag at once, so a script learns the whole list in one run.
  const missing = [
    ...(!f.from && !f.realtime ? ['--from'] : []),
    ...(f.realtime && !f.customer ? ['--customer'] : []),
    ...(f.realtime && !f.currency ? ['--currency'] : []),
    ...(!f.to && !f['to-uma'] ? ['--to'] : []),
    ...(!amounts.length ? ['--send'] : []),
  ]
  if (missing.length)
    throw missingFlagsError(
      missing,
      [],
      'Source: --from <InternalAccount|ExternalAccount>, or --realtime --customer <id> --currency <code>; amount: --send, --receive or --amount-minor. Nothing was sent.',
    )
  for (const [flag, v] of [
    ['send', f.send],
    ['receive', f.receive],
  ] as const) {
    if (v !== undefined && !DECIMAL.test(v.trim()))
      errors.push({field: 'lockedCurrencyAmount', message: `--${flag} "${v}" is not a decimal amount (e.g. 250.00)`})
    else if (v !== undefined && Number(v) === 0)
      errors.push({field: 'lockedCurrencyAmount', message: `--${flag} must be more than zero`})
  }
  if (f['amount-minor'] !== undefined && !/^[1-9]\d*$/.test(f['amount-minor'].trim()))
    errors.push({
      field: 'lockedCurrencyAmount',
      message: `--amount-minor "${f['amount-minor']}" must be a positive whole number of smallest units`,
    })
  if (f['platform-fee'] !== undefined && !DECIMAL.test(f['platform-fee']))
    errors.push({
      field: 'platformFeeOverride.platformFixedFee.amount',
      message: `--platform-fee "${f['platform-fee']}" is not a decimal USD amount`,
    })
  if (f.realtime && f.currency && f['platform-fee'] !== undefined && f.currency !== 'USD')
    errors.push({
      field: 'platformFeeOverride',
      message: `requires a USD source currency (this quote sends ${f.currency})`,
    })
  if (f.realtime && f.currency && f.send && lookup(f.currency)) {
    try {
      toMinor(f.send, lookup(f.currency)!.decimals)
    } catch (e) {
      errors.push({field: 'lockedCurrencyAmount', message: (e as Error).message})
    }
  }
  if (errors.length) throw new InputError(errors)
}

async function currencyOf(
  client: ApiClient,
  accountId: string,
  customerId?: string,
  dryRun?: boolean,
): Promise<string | undefined> {
  if (dryRun) return undefined
  // Loaded here: --amount-minor needs no currency, so its quote never builds the account schemas.
  const {getExternalAccount, getInternalAccount} = await import('../../api/accounts.js')
  if (accountId.startsWith('ExternalAccount:')) return (await client.call(getExternalAccount(accountId))).currency
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

/** --dry-run sends nothing, not even the GET that would tell an account's currency. */
function needsLookup(flag: string, value: string, accountId: string): never {
  throw usageError(
    `--dry-run sends nothing, so the currency of ${accountId} is not looked up to convert --${flag} ${value} into smallest units`,
    'Give the amount with --amount-minor <smallest units> (--lock receiving for the receiving side), or drop --dry-run.',
  )
}

/** --receive with --lookup-id: the receiving currency is not looked up, so it must be named. */
function needsCurrency(value: string): never {
  throw new InputError([
    {
      field: 'destination.currency',
      message: `--receive ${value} with --lookup-id needs --to-currency: the receiver's currency is not looked up`,
    },
  ])
}

/**
 * Builds the POST /quotes body: real units are converted with the locked side's currency, which is
 * looked up from the account when the flags do not name it (never under --dry-run).
 */
export async function buildQuoteRequest(
  getClient: () => ApiClient,
  f: QuoteFlags,
  extra: {immediatelyExecute?: boolean; dryRun?: boolean} = {},
): Promise<QuoteCreateRequest> {
  checkQuoteFlags(f)
  // The client is made only once the flags pass: a missing flag is named before credentials are needed.
  const client = getClient()
  const uma =
    f['to-uma'] !== undefined ? await (await import('./uma.js')).umaTerms(client, f, {dryRun: extra.dryRun}) : undefined
  const side =
    f.receive !== undefined ? 'RECEIVING' : f.send !== undefined ? 'SENDING' : (f.lock ?? 'sending').toUpperCase()
  let sending: Promise<string | undefined> | undefined
  const sendingCurrency = () =>
    (sending ??= f.realtime ? Promise.resolve(f.currency!) : currencyOf(client, f.from!, f.customer, extra.dryRun))
  let amount: number
  if (f['amount-minor'] !== undefined) amount = parseMinor(f['amount-minor'])
  else if (side === 'SENDING')
    amount = minorOf(
      f.send!,
      (await sendingCurrency()) ?? needsLookup('send', f.send!, f.from!),
      'lockedCurrencyAmount',
    )
  else if (uma)
    amount = minorOf(f.receive!, uma.destination.currency ?? needsCurrency(f.receive!), 'lockedCurrencyAmount')
  else
    amount = minorOf(
      f.receive!,
      (await currencyOf(client, f.to!, f.customer, extra.dryRun)) ?? needsLookup('receive', f.receive!, f.to!),
      'lockedCurrencyAmount',
    )
  // Under --dry-run an account's currency stays unknown: the Service refuses a non-USD override itself.
  const feeCurrency =
    f['platform-fee'] !== undefined || f['platform-fee-bps'] !== undefined ? await sendingCurrency() : 'USD'
  if (feeCurrency !== undefined && feeCurrency !== 'USD') {
    throw new InputError([
      {field: 'platformFeeOverride', message: `requires a USD source currency (this quote sends ${feeCurrency})`},
    ])
  }
  const body = {
    source: f.realtime
      ? {
          sourceType: 'REALTIME_FUNDING',
          currency: f.currency,
          customerId: f.customer,
          ...(f.network ? {cryptoNetwork: f.network} : {}),
        }
      : {sourceType: 'ACCOUNT', accountId: f.from, ...(f.customer ? {customerId: f.customer} : {})},
    destination: uma
      ? uma.destination
      : {destinationType: 'ACCOUNT', accountId: f.to, ...(f.rail ? {paymentRail: f.rail} : {})},
    ...(uma
      ? {lookupId: uma.lookupId, ...(uma.senderCustomerInfo ? {senderCustomerInfo: uma.senderCustomerInfo} : {})}
      : {}),
    lockedCurrencySide: side,
    lockedCurrencyAmount: amount,
    ...(extra.immediatelyExecute ? {immediatelyExecute: true} : {}),
    ...(f.description ? {description: f.description} : {}),
    ...(f.remittance ? {remittanceInformation: f.remittance} : {}),
    ...(f.purpose ? {purposeOfPayment: f.purpose} : {}),
    ...(f['platform-fee'] !== undefined || f['platform-fee-bps'] !== undefined
      ? {
          platformFeeOverride: {
            platformFixedFee: {amount: toMinor(f['platform-fee'] ?? '0', 2), currency: 'USD'},
            platformVariableFeeBps: f['platform-fee-bps'] ?? 0,
          },
        }
      : {}),
  }
  return checkWith(quoteCreateRequest, body)
}
