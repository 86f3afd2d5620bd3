import {inspect} from 'node:util'

const REDACTED = '[REDACTED]'

/**
 * Holds a secret value (client secret, OTP, private key hex) so that logging, string
 * interpolation, JSON.stringify and util.inspect all print [REDACTED]. Call reveal() only at
 * the exact point the value must leave the process (an Authorization header, a crypto call).
 */
export class Secret {
  readonly #value: string
  constructor(value: string) {
    this.#value = value
  }
  reveal(): string {
    return this.#value
  }
  toString(): string {
    return REDACTED
  }
  toJSON(): string {
    return REDACTED
  }
  [inspect.custom](): string {
    return REDACTED
  }
}

/** Field names whose values are never printed in traces, dry runs or errors. */
export const SECRET_KEY =
  /secret|password|passphrase|otp_?code|^otp$|private(?!Enabled)|mnemonic|encryptedOtpBundle|oidcToken|encryptedSessionSigningKey|encryptedWalletCredentials|^token$|accessToken|recoveryCodes|totpUri|secretBase32Encoded|authorization|wallet-signature|panEmbedUrl|^pan$|^cvv$/i

/**
 * `code` is a one-time code in confirm bodies ("123456") but an error code in answers
 * ("INVALID_INPUT"): only the former is hidden, so traces stay useful.
 */
function isSecretField(key: string, value: unknown): boolean {
  if (value == null) return false
  if (key === 'code') return typeof value !== 'string' || !/^[A-Z][A-Z0-9_]+$/.test(value)
  return SECRET_KEY.test(key)
}

/** Deep copy of a JSON value with secret-named fields replaced by [REDACTED]. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = isSecretField(k, v) ? REDACTED : redact(v)
    return out
  }
  return value
}
