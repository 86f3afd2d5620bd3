import {currencyObject} from './internal-accounts.js'

/**
 * The sandbox's directories: UMA providers (counterparty VASPs reachable over UMA), the VASP list
 * for custodial-wallet declarations (`vaspName`), and receiving institutions per corridor
 * (`bankName` for external accounts). Fixed data: the sandbox has no network to discover them on.
 * `id`/`createdAt` give each entry a stable place for keyset paging; they are not returned.
 */
const listed = '2025-01-01T00:00:00.000Z'

export interface UmaProviderEntry {
  id: string
  createdAt: string
  name: string
  supportedRegions: string[]
  domain: string
  logoUrl: string
  supportedCurrencies: Array<ReturnType<typeof currencyObject>>
  lei: string
  allowListStatus: boolean
}

const provider = (
  n: number,
  name: string,
  domain: string,
  regions: string[],
  currencies: string[],
  lei: string,
  allowed: boolean,
): UmaProviderEntry => ({
  id: `UmaProvider:${String(n).padStart(3, '0')}`,
  createdAt: listed,
  name,
  supportedRegions: regions,
  domain,
  logoUrl: `https://${domain}/logo.png`,
  supportedCurrencies: currencies.map(currencyObject),
  lei,
  allowListStatus: allowed,
})

export const UMA_PROVIDERS: UmaProviderEntry[] = [
  provider(
    1,
    'Sandbox Counterparty',
    'sandbox.uma.money',
    ['US', 'MX', 'DE'],
    ['USD', 'EUR', 'MXN'],
    '5493001KJTIIGC8Y1R12',
    true,
  ),
  provider(
    2,
    'Northwind Wallet',
    'uma.northwind.example',
    ['US', 'CA'],
    ['USD', 'CAD', 'USDC'],
    '549300NORTHWIND00001',
    true,
  ),
  provider(3, 'Pampa Pagos', 'uma.pampa.example', ['MX', 'BR'], ['MXN', 'BRL'], '549300PAMPAPAGOS0002', true),
  provider(4, 'Ganges Remit', 'uma.ganges.example', ['IN', 'GB'], ['INR', 'GBP'], '549300GANGESREMIT003', false),
  provider(5, 'Fjord Money', 'uma.fjord.example', ['DK', 'DE'], ['DKK', 'EUR'], '549300FJORDMONEY0004', true),
  provider(6, 'Sakura Pay', 'uma.sakura.example', ['JP'], ['JPY', 'USD'], '549300SAKURAPAY00005', false),
]

export interface VaspEntry {
  id: string
  createdAt: string
  vaspName: string
  url?: string
}

export const VASPS: VaspEntry[] = [
  ['Binance', 'https://www.binance.com'],
  ['Bitso', 'https://bitso.com'],
  ['Bitstamp', 'https://www.bitstamp.net'],
  ['Coinbase', 'https://www.coinbase.com'],
  ['Gemini', 'https://www.gemini.com'],
  ['Kraken', 'https://www.kraken.com'],
  ['Mercado Bitcoin', 'https://www.mercadobitcoin.com.br'],
  ['OKX', 'https://www.okx.com'],
  ['Uphold', 'https://uphold.com'],
  ['Sandbox Custody', undefined],
].map(([vaspName, url], i) => ({
  id: `Vasp:${String(i + 1).padStart(3, '0')}`,
  createdAt: listed,
  vaspName: vaspName!,
  ...(url ? {url} : {}),
}))

export interface Institution {
  bankName: string
  displayName: string
  country: string
  currency: string
}

export const INSTITUTIONS: Institution[] = [
  ['BDO_UNIBANK', 'BDO Unibank', 'PH', 'PHP'],
  ['BPI', 'Bank of the Philippine Islands', 'PH', 'PHP'],
  ['GCASH', 'GCash', 'PH', 'PHP'],
  ['BBVA_MEXICO', 'BBVA México', 'MX', 'MXN'],
  ['BANORTE', 'Banorte', 'MX', 'MXN'],
  ['SANTANDER_MEXICO', 'Santander México', 'MX', 'MXN'],
  ['ITAU', 'Itaú Unibanco', 'BR', 'BRL'],
  ['NUBANK', 'Nubank', 'BR', 'BRL'],
  ['HDFC_BANK', 'HDFC Bank', 'IN', 'INR'],
  ['STATE_BANK_OF_INDIA', 'State Bank of India', 'IN', 'INR'],
  ['MPESA', 'M-Pesa', 'KE', 'KES'],
  ['EQUITY_BANK', 'Equity Bank Kenya', 'KE', 'KES'],
  ['MTN_MOMO_RW', 'MTN Mobile Money', 'RW', 'RWF'],
  ['DANSKE_BANK', 'Danske Bank', 'DK', 'DKK'],
  ['BARCLAYS', 'Barclays', 'GB', 'GBP'],
  ['DEUTSCHE_BANK', 'Deutsche Bank', 'DE', 'EUR'],
].map(([bankName, displayName, country, currency]) => ({bankName, displayName, country, currency}))
