import {p256} from '@noble/curves/nist.js'
import type {Context} from '../../context.js'
import {SvcError, usageError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {type KeyStore, keyStoreFor, type KeyRecord} from '../../keystore.js'
import {readConfig} from '../../config.js'
import {sandboxQuorumKey} from '../../api/wallet.js'
import {type EnvelopeTrustOptions, hexToBytes, stamp} from '../../wallet/index.js'
import {interrupts} from '../../interrupt.js'
import {
  type ChallengeSigner,
  type SignedOperation,
  type SignedResult,
  SignedRetryEngine,
} from '../../wallet/signed-retry.js'

// A wallet command makes a handful of P-256 base-point multiplications (its key pair, an HPKE
// ephemeral key, a signature). noble builds a 6-bit window table on the first one, which pays off
// over thousands (the sandbox keeps it); a 4-bit table is built three times faster and wins at this
// count. The results are the same bytes either way.
p256.Point.BASE.precompute(4)

// The key store is built in keystore.ts: commands that only read it (keys list, purge) import it
// from there and never load this module's wallet crypto.
export {keyStoreFor}

/** The key store of a flow that will store a key: unlocked up front, before any request. */
export async function writableKeyStore(ctx: Context): Promise<KeyStore> {
  const keys = keyStoreFor(ctx)
  await keys.unlockForWrite()
  return keys
}

/** Ctrl-C while a signed operation is in flight or processing says what may still complete, and where to look. */
class InterruptibleEngine extends SignedRetryEngine {
  override run<T = unknown>(op: SignedOperation, sign: ChallengeSigner): Promise<SignedResult<T>> {
    return interrupts.during({doing: `The ${op.what} may still complete at the Service`, hint: op.resume}, () =>
      super.run<T>(op, sign),
    )
  }
}

export function engineFor(ctx: Context): SignedRetryEngine {
  return new InterruptibleEngine({
    client: ctx.client,
    now: ctx.now,
    sleep: ctx.sleep,
    deadline: ctx.deadline,
    note: (line) => ctx.out.info(ctx.out.dim(line)),
  })
}

/** Signs with a stored session key; the key leaves the store only inside the crypto call. */
export function signerFor(keys: KeyStore, record: KeyRecord): ChallengeSigner {
  return async (challenge) => {
    const privateKey = await keys.privateKey(record)
    return stamp(challenge.payloadToSign, hexToBytes(privateKey.reveal()), {expectedPublicKey: record.publicKey})
  }
}

/** Signs with an in-memory key (OTP verify signs with the fresh target key, export never stores its key). */
export function memorySigner(privateKey: Uint8Array): ChallengeSigner {
  return (challenge) => stamp(challenge.payloadToSign, privateKey)
}

export function noSession(accountId: string, rule: string, login = `svc wallet login ${accountId}`): SvcError {
  return new SvcError({
    code: 'WALLET_SESSION_REQUIRED',
    message: `No active wallet session for ${accountId} in the local key store (${rule})`,
    exitCode: ExitCode.AUTH,
    hint: `Run \`${login}\` first; sessions last about 15 minutes.`,
  })
}

/** --account, else the wallet the key store knows this credential or session from. */
export function accountFor(
  ctx: Context,
  given: string | undefined,
  ref: {credentialId?: string; sessionId?: string},
): string {
  if (given) return given
  const known = keyStoreFor(ctx)
    .list({kind: 'session'})
    .find(
      (r) =>
        (ref.credentialId && r.credentialId === ref.credentialId) || (ref.sessionId && r.sessionId === ref.sessionId),
    )
  if (known) return known.accountId
  throw usageError(
    `Cannot tell which wallet ${ref.credentialId ?? ref.sessionId} belongs to`,
    'Pass --account InternalAccount:<id>.',
  )
}

/** The freshest session of the account, or a clear error naming the login to run. */
export function requireSession(
  keys: KeyStore,
  accountId: string,
  opts: {excludeCredentialId?: string; credentialId?: string; sessionId?: string} = {},
): KeyRecord {
  const found = keys.findSession({accountId, ...opts, minRemainingMs: 5000})
  if (found) return found
  const rule = opts.excludeCredentialId
    ? `this operation needs a session from a credential other than ${opts.excludeCredentialId}`
    : opts.sessionId
      ? `${opts.sessionId} is not in the key store or has expired`
      : 'this operation is signed by a session key of the account'
  throw noSession(
    accountId,
    rule,
    opts.excludeCredentialId ? `svc wallet login ${accountId} --credential <another AuthMethod>` : undefined,
  )
}

/**
 * Which enclave quorum key bundles must be signed by: SVC_QUORUM_PUBLIC_KEY, else the profile's
 * `quorumPublicKey`, else (local sandbox only) the key it publishes. Unsigned sandbox envelopes
 * only with the explicit flag, never in production.
 */
export async function envelopeTrust(ctx: Context, allowUnsigned = false): Promise<EnvelopeTrustOptions> {
  const env = ctx.profile.environment
  if (allowUnsigned && env === 'production')
    throw usageError(
      '--allow-unsigned-envelope is refused against production',
      'Production bundles are always signed by the enclave quorum key.',
    )
  const configured =
    ctx.env.SVC_QUORUM_PUBLIC_KEY ??
    (readConfig(ctx.env).profiles?.[ctx.profile.name] as {quorumPublicKey?: string} | undefined)?.quorumPublicKey
  if (configured) {
    if (!/^04[0-9a-fA-F]{128}$/.test(configured))
      throw usageError('SVC_QUORUM_PUBLIC_KEY must be an uncompressed P-256 key (130 hex characters starting 04)')
    return {pinnedQuorumKey: configured.toLowerCase(), allowUnsigned}
  }
  if (env === 'local')
    return {pinnedQuorumKey: (await ctx.client.call(sandboxQuorumKey())).publicKey.toLowerCase(), allowUnsigned}
  if (env === 'production') {
    throw new SvcError({
      code: 'QUORUM_KEY_REQUIRED',
      message:
        'No enclave quorum key is configured for this production profile, so enclave bundles cannot be authenticated',
      exitCode: ExitCode.USAGE,
      hint: 'Set SVC_QUORUM_PUBLIC_KEY (or quorumPublicKey in the profile) to the key the Service publishes.',
    })
  }
  // Remote sandbox without a pin: the signature is still checked against the key in the bundle.
  ctx.out.warn(
    'No quorum key pinned for this sandbox profile: bundles are checked for integrity, not authenticity (set SVC_QUORUM_PUBLIC_KEY).',
  )
  return {allowUnsigned}
}

/** Maps a wallet crypto failure to an exit-4 error that names what went wrong. */
export function cryptoFailure(error: unknown, what: string): never {
  const e = error as {name?: string; code?: string; message?: string}
  if (e?.name === 'WalletCryptoError') {
    throw new SvcError({
      code: `WALLET_${e.code}`,
      message: `${what}: ${e.message}`,
      exitCode: ExitCode.AUTH,
      hint: 'Nothing was stored. If the quorum key changed, check SVC_QUORUM_PUBLIC_KEY; otherwise re-run.',
    })
  }
  throw error
}
