/** Currencies the CLI and the local sandbox know, with their scale (`decimals`). */
export interface Currency {
  code: string
  name: string
  symbol: string
  decimals: number
}

const TABLE: Currency[] = [
  {code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2},
  {code: 'EUR', name: 'Euro', symbol: '€', decimals: 2},
  {code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2},
  {code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2},
  {code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2},
  {code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2},
  {code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2},
  {code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2},
  {code: 'JPY', name: 'Japanese Yen', symbol: '¥', decimals: 0},
  {code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6},
  {code: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 6},
  {code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6},
  {code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8},
]

export const CURRENCIES: ReadonlyMap<string, Currency> = new Map(TABLE.map((c) => [c.code, c]))

export function currency(code: string): Currency | undefined {
  return CURRENCIES.get(code)
}

export const CURRENCY_CODES = TABLE.map((c) => c.code)
