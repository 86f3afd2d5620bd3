import {ApiError, SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'

/** Spec 5.6: what each 401 of a signed retry means, and what the operator does about it. */
const EXPLAINED: Record<string, {what: string; todo: string}> = {
  WALLET_SIGNATURE_MISSING: {
    what: 'the service expected a Service-Wallet-Signature header and none arrived',
    todo: 'Log in to the wallet (`svc wallet login <InternalAccount>`) so svc has a session key to sign with, then re-run.',
  },
  WALLET_SIGNATURE_MALFORMED: {
    what: 'the Service-Wallet-Signature header is not a valid stamp (base64url JSON with publicKey, scheme, DER signature)',
    todo: 'Re-run the command: svc stamps the challenge itself. If you passed --header by hand, use `svc wallet stamp`.',
  },
  WALLET_SIGNATURE_BODY_MISMATCH: {
    what: 'the stamp was made for a different request body than the one sent with it',
    todo: 'Re-run the command so the challenge is issued and signed over the exact body being sent.',
  },
  WALLET_SIGNATURE_INVALID: {
    what: 'the stamp does not verify with an active session key of this wallet (the session expired or was revoked, or it belongs to a credential this operation may not use)',
    todo: 'Log in again (`svc wallet login <InternalAccount>`); to revoke a credential, log in with a different credential of the account first.',
  },
  REQUEST_ID_MISSING: {
    what: 'the signed retry did not carry the Request-Id of its challenge',
    todo: 'Re-run the command (svc sends Request-Id itself); with `svc api --header`, add the requestId of the 202 answer.',
  },
  INVALID_SIGNATURE: {
    what: 'the request signature was rejected',
    todo: 'Re-run the command to obtain and sign a fresh challenge.',
  },
  UNAUTHORIZED: {
    what: 'the service refused the request',
    todo: 'Check the code, token or assertion you supplied. A Request-Id is single use and a challenge lasts about 5 minutes: re-run the command for a fresh one. If every call fails, check the profile credentials (`svc login`).',
  },
}

export function explainWalletAuthError(error: ApiError, what: string, accountId?: string): SvcError {
  if (error.status !== 401) return error
  if (error.details?.replacedByNewerChallenge === true) {
    return new SvcError({
      code: error.code,
      status: 401,
      message: `The ${what} was refused: another login to this wallet started after this one and replaced its challenge (service said: ${error.message})`,
      details: error.details,
      exitCode: ExitCode.AUTH,
      hint: 'Only the newest login can finish. Run the login again once the other one is done (one login per wallet at a time).',
    })
  }
  const known = EXPLAINED[error.code] ?? EXPLAINED.UNAUTHORIZED
  const detailsAccount = (error.details as {accountId?: unknown} | undefined)?.accountId
  const account = accountId ?? (typeof detailsAccount === 'string' ? detailsAccount : undefined)
  return new SvcError({
    code: error.code,
    status: 401,
    message: `The ${what} was refused: ${known.what} (service said: ${error.message})`,
    details: error.details,
    exitCode: ExitCode.AUTH,
    hint: account ? known.todo.replaceAll('<InternalAccount>', account) : known.todo,
  })
}
