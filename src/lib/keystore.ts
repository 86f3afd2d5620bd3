import {readFileSync, readdirSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {withDirLock, writePrivateFileAtomic} from './fs-safe.js'
import {openKey, sealKey, type SealedKey} from './keystore-crypto.js'
import {configDir} from './paths.js'
import type {Context} from './context.js'
import {canPrompt, promptSecret} from './prompts.js'
import {Secret} from './secret.js'
import type {KeyKind, KeyRecord, KeyStoreOptions, PublicKeyRecord, SaveKeyInput} from './keystore-record.js'
import {currentEnv} from './io.js'

export type {KeyKind, KeyRecord, KeyStoreOptions, PublicKeyRecord, SaveKeyInput}

export function keystoreDir(env = currentEnv()): string {
  return join(configDir(env), 'keystore')
}

function fileId(kind: KeyKind, baseUrl: string, key: string): string {
  // node:crypto on use: `wallet keys list` reads the store without hashing or sealing anything.
  const {createHash} = process.getBuiltinModule('node:crypto')
  return `${kind}-${createHash('sha256').update(`${baseUrl}\n${key}`).digest('hex').slice(0, 32)}`
}

export function toPublic(record: KeyRecord): PublicKeyRecord {
  const {privateKey, ...rest} = record
  return {...rest, encrypted: 'sealed' in privateKey}
}

/**
 * The local key store: wallet session signing keys (and short-lived pending keys of a login that
 * waits for an OIDC token or a passkey assertion), one 0600 JSON file per key in a 0700 directory.
 * One file per key means two concurrent svc processes never read-modify-write the same file, so
 * no update can be lost; every write is temp file + fsync + rename. Export keys never come here.
 */
export class KeyStore {
  readonly dir: string
  readonly baseUrl: string
  private readonly now: () => number
  private readonly env: NodeJS.ProcessEnv
  private passphrase?: Secret
  private passphraseChecked = false

  constructor(opts: KeyStoreOptions) {
    this.dir = opts.dir
    this.baseUrl = opts.baseUrl
    this.now = opts.now ?? Date.now
    this.env = opts.env ?? currentEnv()
    const fromEnv = this.env.SVC_KEYSTORE_PASSPHRASE
    if (fromEnv) this.passphrase = new Secret(fromEnv)
  }

  /** Every live record (this base URL unless `allBaseUrls`); expired ones are deleted on the way. */
  list(filter: {accountId?: string; kind?: KeyKind; allBaseUrls?: boolean} = {}): KeyRecord[] {
    let names: string[]
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'))
    } catch {
      return []
    }
    const out: KeyRecord[] = []
    for (const name of names) {
      const record = this.read(join(this.dir, name))
      if (!record) continue
      if (Date.parse(record.expiresAt) <= this.now()) {
        rmSync(join(this.dir, name), {force: true})
        continue
      }
      if (!filter.allBaseUrls && record.baseUrl !== this.baseUrl) continue
      if (filter.accountId && record.accountId !== filter.accountId) continue
      if (filter.kind && record.kind !== filter.kind) continue
      out.push(record)
    }
    return out.sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt))
  }

  /**
   * Before a key is created: once the store holds a passphrase-sealed key it stays sealed, so a
   * missing passphrase is asked for on a terminal (or refused) before anything is requested.
   */
  async unlockForWrite(): Promise<void> {
    if (this.passphrase) return this.checkPassphraseFits(this.list({allBaseUrls: true}), this.passphrase)
    if (!this.list({allBaseUrls: true}).some((r) => 'sealed' in r.privateKey)) return
    if (!canPrompt(this.env)) {
      throw new SvcError({
        code: 'KEYSTORE_LOCKED',
        message:
          'The key store holds passphrase-encrypted keys, so new keys are encrypted too, and no passphrase is available',
        exitCode: ExitCode.AUTH,
        hint: 'Set SVC_KEYSTORE_PASSPHRASE (or run on a terminal to be prompted); `svc wallet keys purge` starts a plain store.',
      })
    }
    this.passphrase = new Secret(await promptSecret('Key store passphrase'))
  }

  /**
   * Stores a key. Whether it is sealed is decided under the store's lock, from what the store holds
   * at that moment: a store with a sealed key stays sealed (no passphrase here: refused, nothing
   * written), and a passphrase given to a store of plain keys seals those too, so concurrent logins
   * with and without SVC_KEYSTORE_PASSPHRASE never leave a mixed store.
   */
  save(input: SaveKeyInput): PublicKeyRecord {
    const key =
      input.kind === 'session' ? (input.sessionId ?? input.publicKey) : `${input.accountId}\n${input.credentialId}`
    const id = fileId(input.kind, this.baseUrl, key)
    const {privateKey, ...fields} = input
    return withDirLock(this.dir, () => {
      const existing = this.list({allBaseUrls: true})
      const passphrase = this.passphrase
      if (!passphrase && existing.some((r) => 'sealed' in r.privateKey)) {
        throw new SvcError({
          code: 'KEYSTORE_LOCKED',
          message:
            'Another svc sealed the key store with a passphrase meanwhile, so this key must be sealed too, and no passphrase is available; it was not stored',
          exitCode: ExitCode.AUTH,
          hint: 'Set SVC_KEYSTORE_PASSPHRASE and run the login again.',
        })
      }
      if (passphrase) {
        this.checkPassphraseFits(existing, passphrase)
        for (const r of existing)
          if ('plain' in r.privateKey)
            this.write({
              ...r,
              privateKey: {sealed: sealKey(new Secret(r.privateKey.plain), passphrase, aadOf(r.id, r.publicKey))},
            })
      }
      const record: KeyRecord = {
        version: 1,
        ...fields,
        id,
        baseUrl: this.baseUrl,
        createdAt: new Date(this.now()).toISOString(),
        privateKey: passphrase
          ? {sealed: sealKey(privateKey, passphrase, aadOf(id, input.publicKey))}
          : {plain: privateKey.reveal()},
      }
      this.write(record)
      return toPublic(record)
    })
  }

  /**
   * A store is sealed with one passphrase: a different one must not seal new keys beside the old
   * ones (the store would need two passphrases from then on). Checked by opening one sealed key,
   * once per process; refused before anything is requested or written.
   */
  private checkPassphraseFits(existing: KeyRecord[], passphrase: Secret): void {
    if (this.passphraseChecked) return
    const sealed = existing.find((r): r is KeyRecord & {privateKey: {sealed: SealedKey}} => 'sealed' in r.privateKey)
    if (!sealed) return
    try {
      openKey(sealed.privateKey.sealed, passphrase, aadOf(sealed.id, sealed.publicKey))
    } catch {
      throw new SvcError({
        code: 'KEYSTORE_PASSPHRASE_MISMATCH',
        message: 'The key store is sealed with another passphrase than the one given; nothing was written',
        exitCode: ExitCode.AUTH,
        hint: 'Use the passphrase the store was sealed with (SVC_KEYSTORE_PASSPHRASE), or start a new store with `svc wallet keys purge`.',
      })
    }
    this.passphraseChecked = true
  }

  private write(record: KeyRecord): void {
    writePrivateFileAtomic(join(this.dir, `${record.id}.json`), JSON.stringify(record, null, 2) + '\n')
  }

  /**
   * A delegated key (api-gaps 5.7) is kept beside the session keys so `wallet keys list` shows what
   * may sign for the wallet; its private half never leaves the Service, so nothing secret is stored.
   */
  saveDelegated(input: {id: string; accountId: string; cardId: string; publicKey: string}): PublicKeyRecord {
    const record: KeyRecord = {
      version: 1,
      kind: 'delegated',
      id: fileId('delegated', this.baseUrl, input.id),
      baseUrl: this.baseUrl,
      accountId: input.accountId,
      credentialId: input.id,
      credentialType: 'DELEGATED_KEY',
      cardId: input.cardId,
      publicKey: input.publicKey,
      expiresAt: '9999-12-31T23:59:59.000Z',
      createdAt: new Date(this.now()).toISOString(),
      privateKey: {custodied: 'service'},
    }
    withDirLock(this.dir, () => this.write(record))
    return toPublic(record)
  }

  /** The local record of a delegated key, if this machine created it. */
  findDelegated(delegatedKeyId: string): KeyRecord | undefined {
    return this.list({kind: 'delegated'}).find((r) => r.credentialId === delegatedKeyId)
  }

  /** The private key of a record, opened with the passphrase when it is sealed. */
  async privateKey(record: KeyRecord): Promise<Secret> {
    if ('custodied' in record.privateKey)
      throw new SvcError({
        code: 'KEY_CUSTODIED',
        message: `${record.credentialId} is custodied by the Service; svc never holds its private key`,
        exitCode: ExitCode.FAILED,
      })
    if ('plain' in record.privateKey) return new Secret(record.privateKey.plain)
    if (!this.passphrase) {
      if (!canPrompt(this.env)) {
        throw new SvcError({
          code: 'KEYSTORE_LOCKED',
          message: `Session key ${record.publicKey} is encrypted and no passphrase is available`,
          exitCode: ExitCode.AUTH,
          hint: 'Set SVC_KEYSTORE_PASSPHRASE (or run on a terminal to be prompted).',
        })
      }
      this.passphrase = new Secret(await promptSecret('Key store passphrase'))
    }
    return openKey(record.privateKey.sealed, this.passphrase, aadOf(record.id, record.publicKey))
  }

  remove(id: string): void {
    rmSync(join(this.dir, `${id}.json`), {force: true})
  }

  /** Deletes matching records (all live and expired ones of this base URL unless filtered). */
  purge(filter: {accountId?: string; allBaseUrls?: boolean} = {}): number {
    const records = this.list(filter)
    for (const r of records) this.remove(r.id)
    return records.length
  }

  /** The freshest live session matching the signer rule of the operation. */
  findSession(q: {
    accountId?: string
    accountIds?: string[]
    credentialId?: string
    excludeCredentialId?: string
    sessionId?: string
    minRemainingMs?: number
  }): KeyRecord | undefined {
    const minExpiry = this.now() + (q.minRemainingMs ?? 0)
    return this.list({kind: 'session'}).find(
      (r) =>
        (!q.accountId || r.accountId === q.accountId) &&
        (!q.accountIds || q.accountIds.includes(r.accountId)) &&
        (!q.credentialId || r.credentialId === q.credentialId) &&
        (!q.excludeCredentialId || r.credentialId !== q.excludeCredentialId) &&
        (!q.sessionId || r.sessionId === q.sessionId) &&
        Date.parse(r.expiresAt) > minExpiry,
    )
  }

  findPending(accountId: string, credentialId: string): KeyRecord | undefined {
    return this.list({kind: 'pending', accountId}).find((r) => r.credentialId === credentialId)
  }

  private read(path: string): KeyRecord | undefined {
    try {
      const value = JSON.parse(readFileSync(path, 'utf8')) as KeyRecord
      return value && value.version === 1 && typeof value.expiresAt === 'string' ? value : undefined
    } catch {
      // A file deleted by a concurrent purge, or not ours: skip it rather than fail the command.
      return undefined
    }
  }
}

function aadOf(id: string, publicKey: string): string {
  return `svc-keystore-v1\n${id}\n${publicKey}`
}

/** The key store of the context's base URL. */
export function keyStoreFor(ctx: Context): KeyStore {
  return new KeyStore({dir: keystoreDir(ctx.env), baseUrl: ctx.profile.baseUrl, now: ctx.now, env: ctx.env})
}
