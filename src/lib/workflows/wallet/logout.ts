import {walletOps} from '../../api/wallet.js'
import type {Context} from '../../context.js'
import {ApiError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import type {SignedOperation} from '../../wallet/signed-retry.js'
import {engineFor, keyStoreFor, signerFor} from './common.js'

export interface LogoutResult {
  accountId: string
  /** Sessions revoked on the Service just now. */
  revoked: string[]
  /** Sessions the Service no longer knew (expired or revoked elsewhere): only their keys were deleted. */
  alreadyEnded: string[]
  /** Local key files deleted (sessions and pending logins of this account and base URL). */
  keysDeleted: number
}

/**
 * Ends every session of the wallet this machine holds a key for: each is revoked on the Service,
 * signed by itself (any session of the account may sign, itself included), then its key is deleted.
 * A session the Service already ended only loses its key. Any other failure stops before deleting
 * the keys that were not revoked, so a re-run can finish the job.
 */
export async function logout(ctx: Context, accountId: string): Promise<LogoutResult> {
  const keys = keyStoreFor(ctx)
  const result: LogoutResult = {accountId, revoked: [], alreadyEnded: [], keysDeleted: 0}
  for (const record of keys.list({accountId, kind: 'session'})) {
    const op = revocation(record, accountId)
    const sessionId = op.path[2]
    try {
      await engineFor(ctx).run(op, signerFor(keys, record))
      result.revoked.push(sessionId)
    } catch (e) {
      if (!(e instanceof ApiError) || (e.exitCode !== ExitCode.AUTH && e.exitCode !== ExitCode.NOT_FOUND)) throw e
      result.alreadyEnded.push(sessionId)
    }
    keys.remove(record.id)
    result.keysDeleted++
  }
  result.keysDeleted += keys.purge({accountId})
  return result
}

/** The revocations a logout sends, one per session this machine holds a key for (what --dry-run shows). */
export function logoutOps(ctx: Context, accountId: string): SignedOperation[] {
  return keyStoreFor(ctx)
    .list({accountId, kind: 'session'})
    .map((record) => revocation(record, accountId))
}

function revocation(record: {sessionId?: string; publicKey: string}, accountId: string): SignedOperation {
  return walletOps.revokeSession(record.sessionId ?? record.publicKey, accountId)
}
