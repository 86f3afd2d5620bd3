import {
  bytesToHex,
  compressPublicKey,
  parseStamp,
  verifyStampSignature,
  type ParsedStamp,
} from '../../../lib/wallet/index.js'
import type {SandboxContext} from '../../context.js'
import {HttpError} from '../../http-error.js'
import {getWalletAccount, isActive, walletSettings} from './state.js'
import {sessionsByPublicKey} from '../../store/wallet.js'

/**
 * Who may sign what (api-gaps 5.5 "signer per operation"):
 * - account: an active session on one of these accounts (add credential, privacy, export, PATCH customer);
 * - otherCredential: an active session of the account from a different credential (revoke credential);
 * - session: that very session, still active (refresh);
 * - key: exactly this key, no session needed (OTP verify: the TEK).
 */
export type SignerRule =
  | {kind: 'account'; accountIds: string[]}
  | {kind: 'otherCredential'; accountId: string; credentialId: string}
  | {kind: 'session'; sessionId: string}
  | {kind: 'key'; publicKey: string}

/** The legacy literal some sandbox docs still recommend; accepted only with `legacySignatures` on. */
export const LEGACY_SIGNATURE = 'sandbox-valid-signature'

const invalid = (reason: string) => new HttpError(401, 'WALLET_SIGNATURE_INVALID', reason)

/** Verifies a Service-Wallet-Signature over `payloadToSign` and that its key may sign; throws 401 otherwise. */
export function checkStamp(ctx: SandboxContext, headerValue: string, payloadToSign: string, signer: SignerRule): void {
  if (headerValue === LEGACY_SIGNATURE && walletSettings(ctx).legacySignatures) return
  let stamp: ParsedStamp
  try {
    stamp = parseStamp(headerValue)
  } catch (e) {
    throw new HttpError(
      401,
      'WALLET_SIGNATURE_MALFORMED',
      `Service-Wallet-Signature is malformed: ${(e as Error).message}`,
    )
  }
  if (!verifyStampSignature(stamp.publicKey, stamp.signature, payloadToSign)) {
    throw invalid(
      'The wallet signature does not verify over payloadToSign; stamp the payload exactly as received (no re-serialisation)',
    )
  }
  checkSigner(ctx, stamp.publicKey.toLowerCase(), signer)
}

function checkSigner(ctx: SandboxContext, publicKey: string, rule: SignerRule): void {
  if (rule.kind === 'key') {
    if (bytesToHex(compressPublicKey(rule.publicKey)) !== publicKey) {
      throw invalid(
        `The stamp must be made with the key sealed in the OTP bundle (${bytesToHex(compressPublicKey(rule.publicKey))}), not ${publicKey}`,
      )
    }
    return
  }
  const withKey = sessionsByPublicKey(ctx.db, publicKey)
  const active = withKey.filter((s) => isActive(ctx, s))
  if (active.length === 0) {
    const last = withKey.at(-1)
    if (last?.revoked) throw invalid(`Session ${last.id} (key ${publicKey}) was revoked; log in again`)
    if (last) throw invalid(`Session ${last.id} (key ${publicKey}) expired at ${last.expiresAt}; log in again`)
    throw invalid(`Key ${publicKey} is not the key of any session; log in to the wallet first`)
  }
  switch (rule.kind) {
    case 'account':
      if (!active.some((s) => rule.accountIds.includes(s.accountId))) {
        throw invalid(
          `Key ${publicKey} belongs to a session of another wallet; sign with an active session of ${rule.accountIds.join(' or ')}`,
        )
      }
      return
    case 'otherCredential': {
      const onAccount = active.filter((s) => s.accountId === rule.accountId)
      if (onAccount.length === 0)
        throw invalid(
          `Key ${publicKey} belongs to a session of another wallet; sign with an active session of ${rule.accountId}`,
        )
      if (!onAccount.some((s) => s.credentialId !== rule.credentialId)) {
        throw invalid(
          `Revoking ${rule.credentialId} needs a session from a different credential of ${rule.accountId}; this session came from that credential`,
        )
      }
      return
    }
    case 'session':
      if (!active.some((s) => s.id === rule.sessionId))
        throw invalid(
          `Only session ${rule.sessionId} itself may sign its refresh; key ${publicKey} belongs to another session`,
        )
      return
  }
}

/**
 * For signed actions outside the signed-retry dance (quote execute from an embedded wallet): the
 * stamp must verify over `payloadToSign` and come from an active session of `accountId`.
 * Throws HttpError 401 (WALLET_SIGNATURE_MISSING / _MALFORMED / _INVALID) or 404 for an unknown wallet.
 */
export function verifyAccountStamp(
  ctx: SandboxContext,
  accountId: string,
  payloadToSign: string,
  headerValue: string | undefined,
): void {
  getWalletAccount(ctx, accountId)
  if (headerValue === undefined || headerValue === '') {
    throw new HttpError(
      401,
      'WALLET_SIGNATURE_MISSING',
      `Service-Wallet-Signature is required: stamp payloadToSign with an active session key of ${accountId}`,
    )
  }
  checkStamp(ctx, headerValue, payloadToSign, {kind: 'account', accountIds: [accountId]})
}
