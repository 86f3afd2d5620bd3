import {createHash} from 'node:crypto'
import {currency as lookup} from '../../lib/currencies.js'
import type {SandboxContext} from '../context.js'
import {newId} from '../ids.js'
import {internalAccounts, type InternalAccount} from '../store/accounts.js'
export type {InternalAccount}

const CRYPTO = new Set(['USDC', 'USDT', 'USDB', 'BTC'])

export function currencyObject(code: string) {
  const c = lookup(code)
  return c ? {code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals} : {code, decimals: 2}
}

/** Deterministic digits from a seed, so funding details stay stable across restarts. */
function digits(seed: string, n: number): string {
  const hex = createHash('sha256').update(seed).digest('hex')
  return BigInt('0x' + hex)
    .toString()
    .slice(0, n)
    .padStart(n, '0')
}

function base58ish(seed: string, n: number): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  const hex = createHash('sha256').update(seed).digest()
  let out = ''
  for (let i = 0; out.length < n; i++) out += alphabet[hex[i % hex.length] % 58]
  return out
}

/** Funding instructions per currency, shaped as api-gaps 4.3 says. */
export function fundingInstructionsFor(code: string, accountId: string): Array<Record<string, unknown>> {
  const reference = `SVC-${digits(accountId, 8)}`
  switch (code) {
    case 'USD':
      return [
        {
          instructionsNotes: 'Include the reference so the deposit is matched.',
          accountOrWalletInfo: {
            accountType: 'USD_ACCOUNT',
            accountNumber: digits(accountId + 'acct', 10),
            routingNumber: '021000021',
            bankName: 'Sandbox Bank, N.A.',
            bankAccountType: 'CHECKING',
            paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
            reference,
          },
        },
      ]
    case 'MXN':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'MXN_ACCOUNT',
            clabeNumber: '002010' + digits(accountId, 12),
            paymentRails: ['SPEI'],
            reference,
          },
        },
      ]
    case 'EUR':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'EUR_ACCOUNT',
            iban: 'DE89370400440532013000',
            swiftCode: 'COBADEFFXXX',
            paymentRails: ['SEPA', 'SEPA_INSTANT'],
            reference,
          },
        },
      ]
    case 'GBP':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'GBP_ACCOUNT',
            sortCode: digits(accountId + 'sc', 6),
            accountNumber: digits(accountId + 'an', 8),
            paymentRails: ['FASTER_PAYMENTS'],
            reference,
          },
        },
      ]
    case 'USDC':
    case 'USDT':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'SOLANA_WALLET',
            assetType: code,
            address: base58ish(accountId + 'sol', 44),
          },
        },
      ]
    case 'BTC':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'BITCOIN_L1',
            network: 'BITCOIN',
            address: 'bcrt1q' + base58ish(accountId, 38).toLowerCase(),
          },
        },
      ]
    default:
      return []
  }
}

/**
 * The currency of a customer created without `currencies`: the contract asks for them only "if your
 * platform supports more than one currency", so none means the platform's own, which is USD here
 * (sandbox-behaviour 14: USD is on by default). Every customer so gets a fiat account (spec 2.x).
 */
export const PLATFORM_CURRENCY = 'USD'

/**
 * PATCH `currencies`: an account for each currency the customer has none for yet. The spec names no
 * webhook for a new internal account (INTERNAL_ACCOUNT.* are balance, status and funding-instruction
 * changes of an existing one), so none is sent. A currency dropped from the list keeps its account:
 * it may hold a balance.
 */
export function addInternalAccounts(ctx: SandboxContext, customerId: string, currencies: string[]): InternalAccount[] {
  const have = new Set(
    internalAccounts(ctx.db, {customerId})
      .filter((a) => a.type !== 'EMBEDDED_WALLET')
      .map((a) => a.balance.currency.code),
  )
  return createInternalAccounts(
    ctx,
    customerId,
    currencies.filter((c) => !have.has(c)),
  )
}

/** Internal accounts are created with the customer, one per currency (spec 2.5). */
export function createInternalAccounts(
  ctx: SandboxContext,
  customerId: string,
  currencies: string[],
): InternalAccount[] {
  const now = ctx.iso()
  return [...new Set(currencies)].map((code) => {
    const id = newId('InternalAccount')
    const cur = currencyObject(code)
    const account: InternalAccount = {
      id,
      customerId,
      type: CRYPTO.has(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
      status: 'ACTIVE',
      balance: {amount: 0, currency: cur},
      totalBalance: {amount: 0, currency: cur},
      fundingPaymentInstructions: fundingInstructionsFor(code, id),
      createdAt: now,
      updatedAt: now,
    }
    return ctx.db.put('internalAccounts', id, account)
  })
}
