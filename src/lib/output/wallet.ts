import type {AuthMethod, AuthSession} from '../api/wallet.js'
import type {PublicKeyRecord} from '../keystore.js'
import type {Output} from './output.js'
import {relativeTime} from './format.js'
import {renderKeyValue} from './render.js'
import {type Column, type ListView, renderList} from './table.js'

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

export const credentialColumns: Array<Column<AuthMethod>> = [
  {key: 'id', header: 'ID', get: (c) => c.id, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (c) => c.type, priority: 1},
  {key: 'nickname', header: 'NICKNAME', get: (c) => c.nickname, priority: 3},
  {
    key: 'created',
    header: 'CREATED',
    get: (c) => (c.createdAt ? relativeTime(c.createdAt) : ''),
    raw: (c) => c.createdAt,
    priority: 2,
  },
]

export async function renderCredentials(
  out: Output,
  list: AuthMethod[],
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, credentialColumns, {data: list}, view)
}

export type SessionRow = AuthSession & {localKey: boolean}

export const sessionColumns: Array<Column<SessionRow>> = [
  {key: 'id', header: 'ID', get: (s) => s.id, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (s) => s.type, priority: 1},
  {key: 'nickname', header: 'NICKNAME', get: (s) => s.nickname, priority: 4},
  {key: 'expires', header: 'EXPIRES', get: (s) => relativeTime(s.expiresAt), raw: (s) => s.expiresAt, priority: 2},
  {key: 'local-key', header: 'LOCAL KEY', get: (s) => (s.localKey ? 'yes' : ''), priority: 3},
]

export async function renderSessions(
  out: Output,
  list: AuthSession[],
  localIds: Set<string>,
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, sessionColumns, {data: list.map((s) => ({...s, localKey: localIds.has(s.id)}))}, view)
}

export const keyColumns: Array<Column<PublicKeyRecord>> = [
  {key: 'kind', header: 'KIND', get: (k) => k.kind, priority: 4},
  {key: 'account', header: 'ACCOUNT', get: (k) => k.accountId, noTruncate: true, priority: 0},
  {key: 'credential', header: 'CREDENTIAL', get: (k) => `${k.credentialType} ${k.credentialId}`, priority: 3},
  {key: 'session', header: 'SESSION', get: (k) => k.sessionId ?? '', priority: 2},
  {key: 'public-key', header: 'PUBLIC KEY', get: (k) => k.publicKey, priority: 6},
  {key: 'expires', header: 'EXPIRES', get: (k) => relativeTime(k.expiresAt), raw: (k) => k.expiresAt, priority: 1},
  {key: 'encrypted', header: 'ENCRYPTED', get: (k) => (k.encrypted ? 'yes' : 'no'), priority: 5},
]

export async function renderKeys(
  out: Output,
  list: PublicKeyRecord[],
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, keyColumns, {data: list}, view)
}

/** `wallet login --type OAUTH --print-nonce`: the nonce on stdout (for a script), what to do next on stderr. */
export function printOauthNonce(out: Output, nonce: string, accountId: string, credentialId: string): void {
  out.print(nonce)
  out.info(
    `Mint an OIDC token with nonce ${nonce}, then within 60 s: svc wallet login ${accountId} --credential ${credentialId} --oidc-token-stdin`,
  )
}

/** The first step of a PASSKEY login: the challenge to sign, and the command that finishes it. */
export function printPasskeyChallenge(
  out: Output,
  started: {challenge: string; credentialId: string; requestId: string; expiresAt: string},
  accountId: string,
  credentialId: string,
): void {
  renderKeyValue(out, [
    ['challenge', started.challenge],
    ['credentialId', started.credentialId],
    ['requestId', started.requestId],
    ['expires', started.expiresAt],
  ])
  out.info(
    `Sign the challenge (UTF-8) with the passkey, e.g. \`svc sandbox passkey sign --credential-id ${started.credentialId} --challenge ${started.challenge} > assertion.json\`, then run: svc wallet login ${accountId} --credential ${credentialId} --assertion @assertion.json`,
  )
}
