/**
 * The bundle formats built on the HPKE suite, each with its emulator-side counterpart:
 * - OTP: client seals {"otp_code","public_key"} to the enclave's signed `targetPublic`.
 * - Credential: base58check( compressed enc(33) || ciphertext ) carrying a 32-byte session key.
 * - Export: signed envelope whose data is {organizationId, encappedPublic(65), ciphertext}.
 * JSON bundles carry `enc` uncompressed; the base58check bundle carries it compressed.
 */
import {sha256} from '@noble/hashes/sha2.js'
import {base58, createBase58check} from '@scure/base'

import {bundleMalformed as malformed, hexField, parseJsonObject} from './bundle-json.js'
import {
  type BytesLike,
  bytesToHex,
  compressPublicKey,
  concatBytes,
  decompressPublicKey,
  toPrivateKey,
  utf8Decode,
  utf8Encode,
} from './encoding.js'
import {type EnvelopeTrustOptions, parseSignedEnvelope, verifySignedEnvelope} from './envelope.js'
import {WalletCryptoError} from './errors.js'
import {type HpkeSealed, hpkeOpen, hpkeSeal} from './hpke.js'

export * from './envelope.js'
export * from './export-bundle.js'

const base58check = createBase58check(sha256)

/** The reference's `formatHpkeBuf` output: keys in this order, enc uncompressed. */
function formatHpkeJson({enc, ciphertext}: HpkeSealed): string {
  return JSON.stringify({encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext)})
}

// ---------------------------------------------------------------- OTP

export interface EncryptOtpBundleInput extends EnvelopeTrustOptions {
  /** `otpEncryptionTargetBundle` as returned by the service (the envelope text). */
  targetBundle: string
  /** A string so leading zeros survive. */
  otpCode: string
  /** TEK public key hex, placed in the plaintext verbatim; compressed is what the spec asks for. */
  publicKey: string
  ephemeralPrivateKey?: BytesLike
}

/** Returns the `encryptedOtpBundle` JSON text; send it as a JSON string, not a nested object. */
export async function encryptOtpBundle(input: EncryptOtpBundleInput): Promise<string> {
  const {signedData} = verifySignedEnvelope(parseSignedEnvelope(input.targetBundle), input)
  const {targetPublic} = signedData
  if (typeof targetPublic !== 'string') {
    throw new WalletCryptoError('ENVELOPE_MALFORMED', 'the OTP target bundle has no targetPublic key')
  }
  if (typeof input.otpCode !== 'string' || input.otpCode === '') {
    throw new WalletCryptoError('INVALID_INPUT', 'the OTP code must be a non-empty string')
  }
  compressPublicKey(input.publicKey, 'public key to bind to the OTP') // validates; the plaintext keeps the caller's form
  const plaintext = utf8Encode(JSON.stringify({otp_code: input.otpCode, public_key: input.publicKey}))
  const sealed = await hpkeSeal({
    plaintext,
    recipientPublicKey: decompressPublicKey(targetPublic, 'targetPublic of the OTP target bundle'),
    ephemeralPrivateKey: input.ephemeralPrivateKey,
  })
  return formatHpkeJson(sealed)
}

export interface OtpBundlePlaintext {
  otp_code: string
  public_key: string
}

/** Emulator side: opens a client's `encryptedOtpBundle` with the target private key. */
export async function decryptOtpBundle(
  encryptedOtpBundle: string,
  targetPrivateKey: BytesLike,
): Promise<OtpBundlePlaintext> {
  const what = 'encrypted OTP bundle'
  const record = parseJsonObject(encryptedOtpBundle, what)
  const enc = hexField(record, 'encappedPublic', what)
  const ciphertext = hexField(record, 'ciphertext', what)
  const plaintext = await hpkeOpen({enc, ciphertext, recipientPrivateKey: targetPrivateKey})
  // No cause and no excerpt: the plaintext holds the OTP code.
  let value: unknown
  try {
    value = JSON.parse(utf8Decode(plaintext))
  } catch {
    throw malformed(what, 'the decrypted content is not JSON')
  }
  const {otp_code: otpCode, public_key: publicKey} = (value ?? {}) as Record<string, unknown>
  if (typeof otpCode !== 'string' || typeof publicKey !== 'string') {
    throw malformed(what, 'the decrypted content lacks string otp_code and public_key fields')
  }
  return {otp_code: otpCode, public_key: publicKey}
}

// ---------------------------------------------------------------- credential (session key)

/** Returns the 32-byte session private key; its compressed public key is the session API key. */
export async function decryptCredentialBundle(bundle: string, clientPrivateKey: BytesLike): Promise<Uint8Array> {
  const what = 'credential bundle'
  const text = typeof bundle === 'string' ? bundle.trim() : ''
  let raw: Uint8Array
  try {
    raw = base58.decode(text)
  } catch {
    throw malformed(what, 'it is not base58 text')
  }
  if (raw.length <= 4) throw malformed(what, 'it is too short')
  let payload: Uint8Array
  try {
    payload = base58check.decode(text)
  } catch {
    throw new WalletCryptoError(
      'BUNDLE_CHECKSUM_INVALID',
      'the credential bundle checksum does not match: it was truncated, mistyped or altered',
    )
  }
  if (payload.length <= 33)
    throw malformed(what, `${payload.length} bytes is too short for a 33-byte key plus ciphertext`)
  let enc: Uint8Array
  try {
    enc = decompressPublicKey(payload.subarray(0, 33))
  } catch {
    throw malformed(what, 'it does not start with a compressed P-256 public key')
  }
  const plaintext = await hpkeOpen({enc, ciphertext: payload.subarray(33), recipientPrivateKey: clientPrivateKey})
  try {
    return toPrivateKey(plaintext)
  } catch {
    throw malformed(what, `the decrypted credential is not a 32-byte P-256 private key (${plaintext.length} bytes)`)
  }
}

/** Emulator side: seals a session private key to the client's public key. */
export async function encryptCredentialBundle(
  sessionPrivateKey: BytesLike,
  clientPublicKey: BytesLike,
  ephemeralPrivateKey?: BytesLike,
): Promise<string> {
  const plaintext = toPrivateKey(sessionPrivateKey, 'session private key')
  const {enc, ciphertext} = await hpkeSeal({plaintext, recipientPublicKey: clientPublicKey, ephemeralPrivateKey})
  return base58check.encode(concatBytes(compressPublicKey(enc), ciphertext))
}
