/**
 * Byte encodings and P-256 key helpers shared by the wallet crypto modules.
 *
 * Conventions follow the wire formats: hex is written lowercase without `0x` (uppercase is read),
 * base64url has no padding, public keys are SEC1 (33-byte compressed or 65-byte uncompressed).
 */
import {p256} from '@noble/curves/nist.js'
import {bytesToHex as nobleBytesToHex, concatBytes, hexToBytes as nobleHexToBytes} from '@noble/hashes/utils.js'
import {base64urlnopad} from '@scure/base'

import {WalletCryptoError} from './errors.js'

/** Keys and other binary inputs may be given as bytes or as hex text (the form the API uses). */
export type BytesLike = Uint8Array | string

export {concatBytes}

export function bytesToHex(bytes: Uint8Array): string {
  return nobleBytesToHex(bytes)
}

/** Strict hex decoding: even length, hex digits only, no `0x` prefix, so typos fail loudly. */
export function hexToBytes(hex: string, what = 'value'): Uint8Array {
  if (typeof hex !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(hex)) {
    throw new WalletCryptoError(
      'INVALID_HEX',
      `${what} is not valid hex (expected an even number of 0-9a-f characters, no 0x prefix)`,
    )
  }
  return nobleHexToBytes(hex)
}

export function toBytes(input: BytesLike, what = 'value'): Uint8Array {
  if (input instanceof Uint8Array) return input
  return hexToBytes(input, what)
}

export function utf8Encode(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

/** Fatal decoding: invalid UTF-8 is an error rather than silently becoming U+FFFD. */
export function utf8Decode(bytes: Uint8Array, what = 'value'): string {
  try {
    return new TextDecoder('utf-8', {fatal: true}).decode(bytes)
  } catch {
    throw new WalletCryptoError('INVALID_INPUT', `${what} is not valid UTF-8`)
  }
}

export function base64urlEncode(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes)
}

/** Accepts the unpadded form the stamp header uses; trailing `=` padding is tolerated. */
export function base64urlDecode(text: string, what = 'value'): Uint8Array {
  try {
    return base64urlnopad.decode(text.replace(/={1,2}$/, ''))
  } catch {
    throw new WalletCryptoError('INVALID_INPUT', `${what} is not valid base64url`)
  }
}

/** Parses and validates a SEC1 P-256 point (either form); the point must lie on the curve. */
export function toPoint(publicKey: BytesLike, what: string) {
  const bytes = toBytes(publicKey, what)
  if (bytes.length !== 33 && bytes.length !== 65) {
    throw new WalletCryptoError(
      'INVALID_KEY',
      `${what} must be a SEC1 P-256 public key of 33 (compressed) or 65 (uncompressed) bytes, got ${bytes.length}`,
    )
  }
  try {
    return p256.Point.fromBytes(bytes)
  } catch {
    throw new WalletCryptoError('INVALID_KEY', `${what} is not a valid P-256 point`)
  }
}

/** 33-byte `02|03 || X`. */
export function compressPublicKey(publicKey: BytesLike, what = 'public key'): Uint8Array {
  return toPoint(publicKey, what).toBytes(true)
}

/** 65-byte `04 || X || Y`; HPKE, AADs and quorum keys always use this form. */
export function decompressPublicKey(publicKey: BytesLike, what = 'public key'): Uint8Array {
  return toPoint(publicKey, what).toBytes(false)
}

/** Validates a 32-byte P-256 scalar in [1, n-1]; the message never echoes the key. */
export function toPrivateKey(privateKey: BytesLike, what = 'private key'): Uint8Array {
  const bytes = toBytes(privateKey, what)
  if (bytes.length !== 32 || !p256.utils.isValidSecretKey(bytes)) {
    throw new WalletCryptoError('INVALID_KEY', `${what} must be a 32-byte P-256 private key in the range [1, n-1]`)
  }
  return bytes
}

export function publicKeyFromPrivate(privateKey: BytesLike, compressed: boolean, what = 'private key'): Uint8Array {
  return p256.getPublicKey(toPrivateKey(privateKey, what), compressed)
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i]
  return diff === 0
}
