import type {AuthMethod, AuthSession} from '../api/wallet.js'
import type {PublicKeyRecord} from '../keystore.js'
import type {Output} from './output.js'
import {relativeTime} from './format.js'
import {renderKeyValue, renderTable} from './render.js'

function until(iso: string | undefined): string | undefined {
  return iso ? `${iso} (${relativeTime(iso)})` : undefined
}

export function renderSession(out: Output, s: AuthSession, key?: PublicKeyRecord): void {
  renderKeyValue(out, [
    ['session', s.id],
    ['account', s.accountId],
    ['type', s.type],
    ['nickname', s.nickname],
    ['expires', until(s.expiresAt)],
    ['signing key', key?.publicKey],
    ['stored', key ? (key.encrypted ? 'yes, passphrase-encrypted' : 'yes') : undefined],
  ])
}

export async function renderCredentials(out: Output, list: AuthMethod[]): Promise<void> {
  await renderTable(out, ['ID', 'TYPE', 'NICKNAME', 'CREATED'], list.map((c) => [c.id, c.type, c.nickname, c.createdAt ? relativeTime(c.createdAt) : '']))
}

export async function renderSessions(out: Output, list: AuthSession[], localIds: Set<string>): Promise<void> {
  await renderTable(out, ['ID', 'TYPE', 'NICKNAME', 'EXPIRES', 'LOCAL KEY'], list.map((s) => [s.id, s.type, s.nickname, relativeTime(s.expiresAt), localIds.has(s.id) ? 'yes' : '']))
}

export async function renderKeys(out: Output, list: PublicKeyRecord[]): Promise<void> {
  await renderTable(
    out,
    ['KIND', 'ACCOUNT', 'CREDENTIAL', 'SESSION', 'PUBLIC KEY', 'EXPIRES', 'ENCRYPTED'],
    list.map((k) => [k.kind, k.accountId, `${k.credentialType} ${k.credentialId}`, k.sessionId ?? '', k.publicKey, relativeTime(k.expiresAt), k.encrypted ? 'yes' : 'no']),
  )
}
