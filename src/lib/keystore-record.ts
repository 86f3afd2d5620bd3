// What the local key store keeps per key (lib/keystore.ts), and what of it may be shown.
import type {SealedKey} from './keystore-crypto.js'
import type {Secret} from './secret.js'

export type KeyKind = 'session' | 'pending' | 'delegated'

export interface KeyRecord {
  version: 1
  kind: KeyKind
  id: string
  /** API base URL the key belongs to: keys of the local sandbox never sign for production. */
  baseUrl: string
  accountId: string
  customerId?: string
  credentialId: string
  credentialType: string
  sessionId?: string
  /** Pending passkey login: the Request-Id the verify must carry. */
  requestId?: string
  /** Pending passkey login: the challenge the assertion must answer. */
  challenge?: string
  /** Compressed SEC1 hex of the signing key: what a stamp names. */
  publicKey: string
  /** The exact clientPublicKey text sent to the service (uncompressed in legacy mode). */
  clientPublicKey?: string
  expiresAt: string
  createdAt: string
  /** Delegated keys: the card the key signs for (its private half is custodied by the Service). */
  cardId?: string
  privateKey: {plain: string} | {sealed: SealedKey} | {custodied: 'service'}
}

/** What may be shown: everything but the private key. */
export type PublicKeyRecord = Omit<KeyRecord, 'privateKey'> & {encrypted: boolean}

export interface SaveKeyInput extends Omit<KeyRecord, 'version' | 'id' | 'privateKey' | 'baseUrl' | 'createdAt'> {
  privateKey: Secret
}

export interface KeyStoreOptions {
  dir: string
  baseUrl: string
  now?: () => number
  env?: NodeJS.ProcessEnv
}
