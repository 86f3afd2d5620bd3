import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {generateMnemonic} from '@scure/bip39'
import {wordlist} from '@scure/bip39/wordlists/english.js'
import {writePrivateFileAtomic} from '../../../lib/fs-safe.js'
import {bytesToHex, generateP256KeyPair, hexToBytes, publicKeyFromPrivate} from '../../../lib/wallet/index.js'
import type {SandboxContext} from '../../context.js'
import {notFound} from '../../http-error.js'
import {newId} from '../../ids.js'
import {DEFAULT_SETTINGS, type SandboxSettings} from '../../settings.js'
import type {StoredCustomer} from '../customers.js'
import type {InternalAccount} from '../internal-accounts.js'
import {walletsOf} from '../../store/accounts.js'
import {credentialsOfAccount, sessionsOfAccount, sessionsOfCredential} from '../../store/wallet.js'
import type {StoredCredential} from '../../store/wallet.js'
import type {StoredSession} from '../../store/wallet.js'
export type {StoredSession}
export type {StoredCredential}

/**
 * The local sandbox's enclave state: credentials (AuthMethods plus their enclave-side secrets),
 * sessions, wallet seeds and the quorum key. Collections hold whole JSON values; callers always
 * put fresh copies (the Db hands out live references).
 */
export const CREDENTIALS = 'walletCredentials'
export const SESSIONS = 'walletSessions'
const SEEDS = 'walletSeeds'

/** Settings with defaults for keys added after the data dir was created. */
export function walletSettings(emu: SandboxContext): SandboxSettings {
  return {...DEFAULT_SETTINGS, ...emu.settings()}
}

// ------------------------------------------------------------------ quorum key

/** By instance (its database): contexts are made per request. */
const quorumKeys = new WeakMap<object, Uint8Array>()

/** The emulator's own enclave quorum key: P-256, created once, kept 0600 in the data dir. */
export function quorumPrivateKey(emu: SandboxContext): Uint8Array {
  const cached = quorumKeys.get(emu.db)
  if (cached) return cached
  const path = join(emu.dataDir, 'quorum-key.hex')
  if (!existsSync(path)) writePrivateFileAtomic(path, bytesToHex(generateP256KeyPair().privateKey))
  const key = hexToBytes(readFileSync(path, 'utf8').trim(), 'quorum key')
  quorumKeys.set(emu.db, key)
  return key
}

export function quorumPublicKeyHex(emu: SandboxContext): string {
  return bytesToHex(publicKeyFromPrivate(quorumPrivateKey(emu), false))
}

/** The organization id written into signed enclave data. */
export function organizationId(emu: SandboxContext): string {
  return emu.config().id
}

// ------------------------------------------------------------------ accounts, seeds, provisioning

export function getWalletAccount(emu: SandboxContext, accountId: string): InternalAccount {
  const account = emu.db.get<InternalAccount>('internalAccounts', accountId)
  if (!account || account.type !== 'EMBEDDED_WALLET')
    throw notFound('ACCOUNT_NOT_FOUND', `Embedded wallet account ${accountId}`)
  return account
}

/** The wallet's BIP-39 mnemonic (sandbox state; tests compare exports with it). */
export function walletSeed(emu: SandboxContext, accountId: string): string | undefined {
  return emu.db.get<{mnemonic: string}>(SEEDS, accountId)?.mnemonic
}

/** Creates the customer's EMBEDDED_WALLET account, its seed and, with an email, its EMAIL_OTP credential. */
export function provisionEmbeddedWallet(emu: SandboxContext, customer: StoredCustomer): void {
  if (!walletSettings(emu).embeddedWallets) return
  const now = emu.iso()
  const id = newId('InternalAccount')
  const usdb = {code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6}
  const account: InternalAccount = {
    id,
    customerId: customer.id,
    type: 'EMBEDDED_WALLET',
    status: 'ACTIVE',
    balance: {amount: 0, currency: usdb},
    totalBalance: {amount: 0, currency: usdb},
    fundingPaymentInstructions: [],
    privateEnabled: false,
    createdAt: now,
    updatedAt: now,
  }
  emu.db.put('internalAccounts', id, account)
  emu.db.put(SEEDS, id, {mnemonic: generateMnemonic(wordlist, 128)})
  if (customer.email) {
    putCredential(emu, {
      id: newId('AuthMethod'),
      accountId: id,
      type: 'EMAIL_OTP',
      nickname: customer.email,
      createdAt: now,
      updatedAt: now,
    })
  }
}

/** The EMBEDDED_WALLET accounts of a customer. */
export function customerWallets(emu: SandboxContext, customerId: string): InternalAccount[] {
  return walletsOf(emu.db, customerId)
}

// ------------------------------------------------------------------ credentials

export function putCredential(emu: SandboxContext, c: StoredCredential): StoredCredential {
  return emu.db.put(CREDENTIALS, c.id, structuredClone(c))
}

export function getCredential(emu: SandboxContext, id: string): StoredCredential {
  const c = emu.db.get<StoredCredential>(CREDENTIALS, id)
  if (!c) throw notFound('AUTH_METHOD_NOT_FOUND', `Credential ${id}`)
  return structuredClone(c)
}

export function accountCredentials(emu: SandboxContext, accountId: string): StoredCredential[] {
  return credentialsOfAccount(emu.db, accountId)
}

/** The AuthMethod as the API shows it: enclave secrets never leave. */
export function publicCredential(c: StoredCredential): Record<string, unknown> {
  return {
    id: c.id,
    accountId: c.accountId,
    type: c.type,
    ...(c.credentialId ? {credentialId: c.credentialId} : {}),
    nickname: c.nickname,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  }
}

// ------------------------------------------------------------------ sessions

export function isActive(emu: SandboxContext, s: StoredSession): boolean {
  return !s.revoked && Date.parse(s.expiresAt) > emu.now()
}

export function accountSessions(emu: SandboxContext, accountId: string): StoredSession[] {
  return sessionsOfAccount(emu.db, accountId).filter((s) => isActive(emu, s))
}

export function getActiveSession(emu: SandboxContext, id: string): StoredSession {
  const s = emu.db.get<StoredSession>(SESSIONS, id)
  if (!s || !isActive(emu, s)) throw notFound('SESSION_NOT_FOUND', `Active session ${id}`)
  return structuredClone(s)
}

export function putSession(emu: SandboxContext, s: StoredSession): StoredSession {
  return emu.db.put(SESSIONS, s.id, structuredClone(s))
}

/** Revokes every session a credential produced (credential revocation, spec 5.3 rule 5). */
export function revokeCredentialSessions(emu: SandboxContext, credentialId: string): void {
  for (const s of sessionsOfCredential(emu.db, credentialId)) {
    if (!s.revoked) putSession(emu, {...s, revoked: true, updatedAt: emu.iso()})
  }
}

export function publicSession(s: StoredSession): Record<string, unknown> {
  const {revoked: _revoked, ...rest} = s
  return rest
}
