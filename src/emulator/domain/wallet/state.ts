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
export function walletSettings(ctx: SandboxContext): SandboxSettings {
  return {...DEFAULT_SETTINGS, ...ctx.settings()}
}

// ------------------------------------------------------------------ quorum key

/** By instance (its database): contexts are made per request. */
const quorumKeys = new WeakMap<object, Uint8Array>()

/** The emulator's own enclave quorum key: P-256, created once, kept 0600 in the data dir. */
export function quorumPrivateKey(ctx: SandboxContext): Uint8Array {
  const cached = quorumKeys.get(ctx.db)
  if (cached) return cached
  const path = join(ctx.dataDir, 'quorum-key.hex')
  if (!existsSync(path)) writePrivateFileAtomic(path, bytesToHex(generateP256KeyPair().privateKey))
  const key = hexToBytes(readFileSync(path, 'utf8').trim(), 'quorum key')
  quorumKeys.set(ctx.db, key)
  return key
}

export function quorumPublicKeyHex(ctx: SandboxContext): string {
  return bytesToHex(publicKeyFromPrivate(quorumPrivateKey(ctx), false))
}

/** The organization id written into signed enclave data. */
export function organizationId(ctx: SandboxContext): string {
  return ctx.config().id
}

// ------------------------------------------------------------------ accounts, seeds, provisioning

export function getWalletAccount(ctx: SandboxContext, accountId: string): InternalAccount {
  const account = ctx.db.get<InternalAccount>('internalAccounts', accountId)
  if (!account || account.type !== 'EMBEDDED_WALLET')
    throw notFound('ACCOUNT_NOT_FOUND', `Embedded wallet account ${accountId}`)
  return account
}

/** The wallet's BIP-39 mnemonic (sandbox state; tests compare exports with it). */
export function walletSeed(ctx: SandboxContext, accountId: string): string | undefined {
  return ctx.db.get<{mnemonic: string}>(SEEDS, accountId)?.mnemonic
}

/** Creates the customer's EMBEDDED_WALLET account, its seed and, with an email, its EMAIL_OTP credential. */
export function provisionEmbeddedWallet(ctx: SandboxContext, customer: StoredCustomer): void {
  if (!walletSettings(ctx).embeddedWallets) return
  const now = ctx.iso()
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
  ctx.db.put('internalAccounts', id, account)
  ctx.db.put(SEEDS, id, {mnemonic: generateMnemonic(wordlist, 128)})
  if (customer.email) {
    putCredential(ctx, {
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
export function customerWallets(ctx: SandboxContext, customerId: string): InternalAccount[] {
  return walletsOf(ctx.db, customerId)
}

// ------------------------------------------------------------------ credentials

export function putCredential(ctx: SandboxContext, c: StoredCredential): StoredCredential {
  return ctx.db.put(CREDENTIALS, c.id, structuredClone(c))
}

export function getCredential(ctx: SandboxContext, id: string): StoredCredential {
  const c = ctx.db.get<StoredCredential>(CREDENTIALS, id)
  if (!c) throw notFound('AUTH_METHOD_NOT_FOUND', `Credential ${id}`)
  return structuredClone(c)
}

export function accountCredentials(ctx: SandboxContext, accountId: string): StoredCredential[] {
  return credentialsOfAccount(ctx.db, accountId)
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

export function isActive(ctx: SandboxContext, s: StoredSession): boolean {
  return !s.revoked && Date.parse(s.expiresAt) > ctx.now()
}

export function accountSessions(ctx: SandboxContext, accountId: string): StoredSession[] {
  return sessionsOfAccount(ctx.db, accountId).filter((s) => isActive(ctx, s))
}

export function getActiveSession(ctx: SandboxContext, id: string): StoredSession {
  const s = ctx.db.get<StoredSession>(SESSIONS, id)
  if (!s || !isActive(ctx, s)) throw notFound('SESSION_NOT_FOUND', `Active session ${id}`)
  return structuredClone(s)
}

export function putSession(ctx: SandboxContext, s: StoredSession): StoredSession {
  return ctx.db.put(SESSIONS, s.id, structuredClone(s))
}

/** Revokes every session a credential produced (credential revocation, spec 5.3 rule 5). */
export function revokeCredentialSessions(ctx: SandboxContext, credentialId: string): void {
  for (const s of sessionsOfCredential(ctx.db, credentialId)) {
    if (!s.revoked) putSession(ctx, {...s, revoked: true, updatedAt: ctx.iso()})
  }
}

export function publicSession(s: StoredSession): Record<string, unknown> {
  const {revoked: _revoked, ...rest} = s
  return rest
}
