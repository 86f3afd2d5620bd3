import {randomBytes} from 'node:crypto'
import {ed25519} from '@noble/curves/ed25519.js'
import {secp256k1} from '@noble/curves/secp256k1.js'
import {keccak_256} from '@noble/hashes/sha3.js'
import {base58, hex} from '@scure/base'
import {WALLET_KINDS} from '../../lib/account-checks.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, conflict, invalid, keepingWrites} from '../http-error.js'
import {externalAccountByChallengeToken} from '../store/accounts.js'
import {isSelfCustodyWallet, publicExternalAccount, setStatus, type StoredExternalAccount} from './external-accounts.js'

const utf8 = (s: string) => new TextEncoder().encode(s)

/** EIP-191 personal_sign: recovers the signer of `message` from a 65-byte r||s||v hex signature. */
export function recoverEvmAddress(message: string, signatureHex: string): string | undefined {
  const h = signatureHex.replace(/^0x/, '')
  if (!/^[0-9a-fA-F]{130}$/.test(h)) return undefined
  const bytes = hex.decode(h.toLowerCase())
  const v = bytes[64] >= 27 ? bytes[64] - 27 : bytes[64]
  if (v !== 0 && v !== 1) return undefined
  const msg = utf8(message)
  const digest = keccak_256(new Uint8Array([...utf8(`\x19Ethereum Signed Message:\n${msg.length}`), ...msg]))
  try {
    const recovered = secp256k1.recoverPublicKey(new Uint8Array([v, ...bytes.slice(0, 64)]), digest, {prehash: false})
    const full = secp256k1.Point.fromBytes(recovered).toBytes(false)
    return '0x' + hex.encode(keccak_256(full.slice(1)).slice(12))
  } catch {
    return undefined
  }
}

/** Solana: the address is the Ed25519 public key; the signature is base58 of 64 bytes. */
export function verifySolana(message: string, signatureB58: string, address: string): boolean {
  try {
    const sig = base58.decode(signatureB58)
    const pub = base58.decode(address)
    return sig.length === 64 && pub.length === 32 && ed25519.verify(sig, utf8(message), pub)
  } catch {
    return false
  }
}

/** Which kinds this sandbox can really verify a signature for. */
export function signatureVerifiable(accountType: string): boolean {
  const chain = WALLET_KINDS[accountType]?.chain
  return chain === 'EVM' || chain === 'SOLANA'
}

/** POST .../challenge: abandons any in-flight challenge and issues a new one (spec 4.1 rules 1-2). */
export function issueChallenge(
  ctx: SandboxContext,
  a: StoredExternalAccount,
  method: 'WALLET_SIGNATURE' | 'LIVENESS',
  baseUrl: string,
): Record<string, unknown> {
  if (!isSelfCustodyWallet(a))
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${a.id} is not a self-custody crypto wallet; ownership verification does not apply`,
    )
  if (a.ownershipType !== 'FIRST_PARTY')
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${a.id} is not FIRST_PARTY; only the customer's own wallets are ownership-verified`,
    )
  if (a.status === 'ACTIVE') throw conflict('INVALID_STATE_TRANSITION', `${a.id} is already verified (ACTIVE)`)
  if (method === 'WALLET_SIGNATURE' && !signatureVerifiable(a.accountInfo.accountType)) {
    throw invalid([
      {
        field: 'method',
        message: `WALLET_SIGNATURE cannot be verified for ${a.accountInfo.accountType} addresses in this sandbox (EVM and Solana only); use LIVENESS`,
      },
    ])
  }
  // Re-issues are rate limited (spec 7: 429 with Retry-After): at most 10 per account per minute.
  const recent = (a.challengeLog ?? []).filter((t) => t > ctx.now() - 60_000)
  if (recent.length >= 10) {
    const retry = Math.ceil((recent[0] + 60_000 - ctx.now()) / 1000)
    throw new HttpError(
      429,
      'RATE_LIMITED',
      `Too many ownership challenges for ${a.id}; retry in ${retry}s`,
      {retryAfterSeconds: retry},
      {'retry-after': String(retry)},
    )
  }
  const expiresAt = ctx.iso(ctx.now() + ctx.settings().ownershipChallengeTtlMs)
  const nonce = randomBytes(16).toString('hex')
  const challenge =
    method === 'WALLET_SIGNATURE'
      ? {
          method,
          expiresAt,
          messageToSign: `Verify ownership of ${a.accountInfo.address} for ${a.id}.\nNonce: ${nonce}\nExpires: ${expiresAt}`,
        }
      : {method, expiresAt, token: `liv_${nonce}`, verificationLink: `${baseUrl}/sandbox/hosted/liveness/liv_${nonce}`}
  const challengeLog = [...recent, ctx.now()]
  const next = {...a, challenge, challengeLog, updatedAt: ctx.iso()}
  if (a.status === 'UNVERIFIED') setStatus(ctx, a, 'PENDING_OWNERSHIP_VERIFICATION', {challenge, challengeLog})
  else ctx.db.put('externalAccounts', a.id, next)
  const {messageToSign, verificationLink, token} = challenge as Record<string, string | undefined>
  return {
    method,
    ...(messageToSign ? {messageToSign} : {}),
    ...(verificationLink ? {verificationLink, token} : {}),
    expiresAt,
  }
}

/** POST .../verify: synchronous outcome; a bad or late signature moves the account to UNVERIFIED. */
export function verifySignature(
  ctx: SandboxContext,
  a: StoredExternalAccount,
  signature: string,
): Record<string, unknown> {
  const c = a.challenge
  if (!c || c.method !== 'WALLET_SIGNATURE' || a.status !== 'PENDING_OWNERSHIP_VERIFICATION') {
    throw conflict('INVALID_STATE_TRANSITION', `${a.id} has no WALLET_SIGNATURE challenge outstanding; issue one first`)
  }
  const fail = (reason: string): never => {
    setStatus(ctx, a, 'UNVERIFIED', {challenge: undefined})
    throw keepingWrites(
      new HttpError(
        400,
        'INVALID_SIGNATURE',
        `${reason}; the account is now UNVERIFIED (issue a new challenge to retry)`,
        {accountId: a.id},
      ),
    )
  }
  if (Date.parse(c.expiresAt) <= ctx.now()) fail('The challenge expired')
  const address = String(a.accountInfo.address)
  const chain = WALLET_KINDS[a.accountInfo.accountType]?.chain
  const ok =
    chain === 'EVM'
      ? recoverEvmAddress(c.messageToSign!, signature)?.toLowerCase() === address.toLowerCase()
      : verifySolana(c.messageToSign!, signature, address)
  if (!ok) fail(`The signature does not verify for ${address} over messageToSign`)
  return publicExternalAccount(setStatus(ctx, a, 'ACTIVE', {challenge: undefined}))
}

export function findByLivenessToken(ctx: SandboxContext, token: string): StoredExternalAccount | undefined {
  const a = externalAccountByChallengeToken(ctx.db, token)
  return a && !a.isDeleted && a.challenge?.method === 'LIVENESS' ? a : undefined
}

/** The user finished the hosted check: the decision lands asynchronously (spec 4.1 rule 4). */
export function submitLiveness(ctx: SandboxContext, token: string, pass: boolean): StoredExternalAccount {
  const a = findByLivenessToken(ctx, token)
  if (!a)
    throw new HttpError(
      404,
      'NOT_FOUND',
      'No liveness check is outstanding for this link (a newer challenge replaces older ones)',
    )
  if (Date.parse(a.challenge!.expiresAt) <= ctx.now())
    throw badRequest('EXPIRED', 'This liveness link expired; issue a new challenge')
  ctx.db.put('externalAccounts', a.id, {...a, challenge: {...a.challenge!, livenessSubmitted: true}})
  ctx.scheduler.after(ctx.settings().livenessDelayMs, 'ownership.liveness', {id: a.id, token, pass})
  return a
}

export function registerOwnershipJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('ownership.liveness', (p) => {
    const a = ctx.db.get<StoredExternalAccount>('externalAccounts', String(p.id))
    // A newer challenge abandoned this one: its outcome no longer counts.
    if (!a || a.isDeleted || a.challenge?.token !== p.token || a.status !== 'PENDING_OWNERSHIP_VERIFICATION') return
    setStatus(ctx, a, p.pass ? 'ACTIVE' : 'UNVERIFIED', {challenge: undefined})
  })
}
