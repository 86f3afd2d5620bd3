/**
 * ECDSA P-256 / SHA-256 with DER signatures, configured the way the enclave and the stamper expect.
 *
 * noble v2 defaults differ from the reference implementation: it enforces low-S on sign *and*
 * verify and emits 64-byte compact signatures. The reference never normalises S, so about half of
 * real signatures are high-S; verifying them with the defaults returns false. Every call here
 * passes the options explicitly.
 */
import {p256} from '@noble/curves/nist.js'

import {type BytesLike, toBytes, toPoint, toPrivateKey} from './encoding.js'

// prehash: noble hashes the message with SHA-256 itself, so callers pass the raw message bytes.
const DER_OPTS = {prehash: true, format: 'der'} as const

/**
 * RFC 6979 deterministic signature. `lowS: false` by default reproduces the reference's pure-JS
 * stamper byte for byte; a low-S signature is accepted by every verifier too.
 */
export function signP256Der(message: Uint8Array, privateKey: BytesLike, lowS = false): Uint8Array {
  return p256.sign(message, toPrivateKey(privateKey), {...DER_OPTS, lowS})
}

/**
 * Accepts both S halves. Returns false (never throws) for a bad signature, malformed DER or an
 * invalid public key, so callers can turn "does not verify" into their own error.
 */
export function verifyP256Der(signatureDer: BytesLike, message: Uint8Array, publicKey: BytesLike): boolean {
  try {
    const point = toPoint(publicKey, 'public key')
    return p256.verify(toBytes(signatureDer, 'signature'), message, point.toBytes(true), {...DER_OPTS, lowS: false})
  } catch {
    return false
  }
}

/** True when the DER bytes parse as an ECDSA signature (r and s in range). */
export function isDerSignature(signatureDer: Uint8Array): boolean {
  try {
    p256.Signature.fromBytes(signatureDer, 'der')
    return true
  } catch {
    return false
  }
}
