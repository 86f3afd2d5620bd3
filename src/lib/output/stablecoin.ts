import {fromMinor} from '../money.js'
import type {Stablecoin, StablecoinOperation} from '../schemas/stablecoins.js'
import type {Output} from './output.js'
import {renderKeyValue, renderTable} from './render.js'

/** "1.500000 ACME" from the API's string of smallest units (no floats on the way). */
export function coinAmount(amount: string, decimals: number | undefined, symbol = ''): string {
  const n = Number(amount)
  const text =
    decimals !== undefined && Number.isSafeInteger(n) ? fromMinor(n, decimals, true) : `${amount} (smallest units)`
  return `${text}${symbol ? ` ${symbol}` : ''}`
}

export function renderStablecoin(out: Output, c: Stablecoin): void {
  renderKeyValue(out, [
    ['id', c.id],
    ['symbol', c.symbol],
    ['name', c.name],
    ['decimals', c.decimals],
    ['baseCurrency', c.baseCurrency],
    ['issuance', c.issuanceStatus],
    ['operations', c.gridOperationsStatus],
    ['currency', c.currency],
    ['networkToken', c.networkTokenIdentifier],
    ['providerAccount', c.stablecoinProviderAccountId],
  ])
}

export function renderOperation(out: Output, op: StablecoinOperation, decimals?: number): void {
  const fi = op.fundingInstructions as Record<string, unknown> | undefined
  renderKeyValue(out, [
    ['id', op.id],
    ['type', op.operationType],
    ['status', op.status],
    ['amount', coinAmount(op.amount, decimals)],
    ['source', op.source ? JSON.stringify(op.source) : undefined],
    ['destination', op.destination ? JSON.stringify(op.destination) : undefined],
    ['fundingInstructions', fi ? JSON.stringify(fi) : undefined],
    ['expires', op.expiresAt as string | undefined],
    ['created', op.createdAt],
  ])
}

export async function renderOperationTable(out: Output, ops: StablecoinOperation[]): Promise<void> {
  await renderTable(
    out,
    ['ID', 'TYPE', 'STATUS', 'AMOUNT (SMALLEST UNITS)', 'CREATED'],
    ops.map((o) => [o.id, o.operationType, o.status, o.amount, o.createdAt]),
  )
}
