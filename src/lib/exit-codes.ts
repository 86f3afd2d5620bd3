/** Exit codes from design/product.md; `svc help exit-codes` prints this table. */
export const ExitCode = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  CANCELLED: 3,
  AUTH: 4,
  NOT_FOUND: 5,
  CONFLICT: 6,
  RATE_LIMITED: 7,
  PENDING: 8,
  NETWORK: 9,
  OUTCOME_UNKNOWN: 10,
  INTERRUPTED: 130,
} as const

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

export const EXIT_CODE_TABLE: ReadonlyArray<[number, string]> = [
  [0, 'ok'],
  [1, 'failed (server error, rejected decision, unexpected response)'],
  [2, 'usage or invalid input, refused before any request'],
  [3, 'cancelled, or confirmation refused'],
  [4, 'authentication (401, bad credentials, bad wallet signature, bad webhook signature)'],
  [5, 'not found (404)'],
  [6, 'conflict or invalid state (409, 423; kyc submit answered RESOLVE_ERRORS)'],
  [7, 'rate limited after retries (429)'],
  [8, 'still pending at --timeout (waits, PROCESSING)'],
  [9, 'network unreachable (nothing was done)'],
  [10, 'outcome unknown: a write was sent but not answered; re-run it with the key in the hint, never without'],
  [130, 'interrupted (Ctrl-C)'],
]

/** Maps an HTTP status to the exit code an operator or script acts on. */
export function exitCodeForStatus(status: number, code?: string): ExitCodeValue {
  if (status === 403 && code === 'END_USER_TERMS_NOT_ACCEPTED') return ExitCode.CONFLICT
  if (status === 401 || status === 403) return ExitCode.AUTH
  if (status === 404 || status === 410) return ExitCode.NOT_FOUND
  if (status === 409 || status === 423) return ExitCode.CONFLICT
  if (status === 429) return ExitCode.RATE_LIMITED
  if (status === 400 && code === 'INVALID_INPUT') return ExitCode.USAGE
  return ExitCode.FAILED
}
