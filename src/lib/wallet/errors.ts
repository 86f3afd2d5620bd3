/**
 * The one error type thrown by the wallet crypto library.
 *
 * `code` is stable and meant for callers (exit codes, hints, emulator status codes); `message` says
 * what is wrong in words a user can act on. Messages may name public keys and organization ids,
 * but never private keys, OTP codes, mnemonics or decrypted plaintext.
 */
export type WalletCryptoErrorCode =
  | 'INVALID_HEX'
  | 'INVALID_KEY'
  | 'INVALID_INPUT'
  | 'STAMP_MALFORMED'
  | 'ENVELOPE_MALFORMED'
  | 'ENVELOPE_UNSIGNED'
  | 'ENVELOPE_SIGNATURE_INVALID'
  | 'QUORUM_KEY_MISMATCH'
  | 'ORGANIZATION_MISMATCH'
  | 'BUNDLE_MALFORMED'
  | 'BUNDLE_CHECKSUM_INVALID'
  | 'DECRYPT_FAILED'
  | 'NOT_BIP39'

export class WalletCryptoError extends Error {
  override readonly name = 'WalletCryptoError'

  constructor(
    readonly code: WalletCryptoErrorCode,
    message: string,
    options?: {cause?: unknown},
  ) {
    super(message, options)
  }
}

/** Narrowing helper for callers that map codes to exit codes or HTTP statuses. */
export function isWalletCryptoError(error: unknown, code?: WalletCryptoErrorCode): error is WalletCryptoError {
  return error instanceof WalletCryptoError && (code === undefined || error.code === code)
}
