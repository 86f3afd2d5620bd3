import type {CredentialType} from '../../lib/schemas/wallet.js'
import type {Db} from './db.js'
import {docsWhere} from './keyset.js'

/** A wallet's credentials, oldest first. */
export function credentialsOfAccount(db: Db, accountId: string): StoredCredential[] {
  return docsWhere<StoredCredential>(db, 'walletCredentials', 'account_id', accountId)
}

/** Credentials of one type bound to a contact value (an email or phone number), across wallets. */
export function credentialsByContact(db: Db, type: string, value: string): StoredCredential[] {
  return db.docs<StoredCredential>(
    db.sql.rows(
      'SELECT doc FROM walletCredentials WHERE type = ? AND nickname = ? ORDER BY created_at, id',
      type,
      value,
    ),
  )
}

/** The passkey credential registered with a WebAuthn credential id, if any. */
export function credentialByPasskeyId(db: Db, credentialId: string): StoredCredential | undefined {
  return docsWhere<StoredCredential>(db, 'walletCredentials', 'credential_id', credentialId)[0]
}

/** A wallet's sessions (revoked and expired ones included), oldest first. */
export function sessionsOfAccount(db: Db, accountId: string): StoredSession[] {
  return docsWhere<StoredSession>(db, 'walletSessions', 'account_id', accountId)
}

/** Sessions whose signing key is `publicKey`, oldest first. */
export function sessionsByPublicKey(db: Db, publicKey: string): StoredSession[] {
  return docsWhere<StoredSession>(db, 'walletSessions', 'public_key', publicKey)
}

/** Sessions a credential produced. */
export function sessionsOfCredential(db: Db, credentialId: string): StoredSession[] {
  return docsWhere<StoredSession>(db, 'walletSessions', 'credential_id', credentialId)
}

export interface StoredCredential {
  id: string
  accountId: string
  type: CredentialType
  nickname: string
  /** PASSKEY only: WebAuthn credential id (base64url). */
  credentialId?: string
  createdAt: string
  updatedAt: string
  /** OTP: the enclave's current HPKE target key (one per challenge) and when it was issued. */
  otpTarget?: {privateKey: string; issuedAt: number}
  /** Target keys of earlier challenges that a newer one replaced, newest first (at most 32). */
  replacedOtpTargets?: string[]
  lastChallengeAt?: number
  /** OAUTH identity triple. */
  oauth?: {iss: string; aud: string; sub: string}
  /** PASSKEY: uncompressed public key hex, the origin's RP id, last sign counter. */
  passkey?: {publicKey: string; rpId: string; signCount: number}
}

export interface StoredSession {
  id: string
  accountId: string
  type: CredentialType
  /** The AuthMethod id. */
  credentialId: string
  nickname: string
  /** Compressed hex: the key stamps must carry. */
  publicKey: string
  revoked: boolean
  createdAt: string
  updatedAt: string
  expiresAt: string
}
