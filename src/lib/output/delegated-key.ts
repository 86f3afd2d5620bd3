import type {DelegatedKey} from '../schemas/delegated-keys.js'
import type {Output} from './output.js'
import {renderKeyValue, renderTable} from './render.js'

export function renderDelegatedKey(out: Output, k: DelegatedKey): void {
  renderKeyValue(out, [
    ['id', k.id],
    ['status', k.status],
    ['nickname', k.nickname],
    ['card', k.cardId],
    ['fundingSource', k.fundingSourceId],
    ['account', k.accountId],
    ['publicKey', k.publicKey],
    ['updated', k.updatedAt],
  ])
}

export async function renderDelegatedKeys(out: Output, list: DelegatedKey[]): Promise<void> {
  await renderTable(
    out,
    ['ID', 'STATUS', 'NICKNAME', 'CARD', 'PUBLIC KEY'],
    list.map((k) => [k.id, k.status, k.nickname, k.cardId, k.publicKey]),
    {what: 'delegated keys', hint: 'Create one with `svc wallet delegated-keys create`.'},
  )
}
