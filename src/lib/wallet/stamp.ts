/**
 * API-key stamps: the value of the wallet signature header (Turnkey's `X-Stamp` format).
 *
 * header = base64url-nopad( {"publicKey":<compressed hex>,"scheme":...,"signature":<DER hex>} )
 * The signature covers the exact UTF-8 bytes of the payload the service returned: no trimming,
 * no re-serialisation.
 */
import {p256} from '@noble/curves/nist.js'
import {randomBytes} from '@noble/hashes/utils.js'

import {isDerSignature, signP256Der, verifyP256Der} from './ecdsa.js'
import {
  base64urlDecode,
  base64urlEncode,
  type BytesLike,
  bytesEqual,
  bytesToHex,
  compressPublicKey,
  hexToBytes,
  toPrivateKey,
  utf8Decode,
  utf8Encode,
} from './encoding.js'
import {WalletCryptoError} from './errors.js'

export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256'

export interface ParsedStamp {
  /** Compressed SEC1 hex, 66 characters. */
  publicKey: string
  scheme: typeof STAMP_SCHEME
  /** DER hex. */
  signature: string
}

export interface StampOptions {
  /**
   * The public key the caller believes belongs to `privateKey` (hex, either SEC1 form). A mismatch
   * throws, as the reference pure-JS stamper does, to catch key-store mix-ups before a request.
   */
  expectedPublicKey?: string
  /** Normalise S to the lower half. Off by default so output matches the reference byte for byte. */
  lowS?: boolean
}

export function stamp(payloadToSign: string, privateKey: BytesLike, opts: StampOptions = {}): string {
  if (typeof payloadToSign !== 'string') {
    throw new WalletCryptoError(
      'INVALID_INPUT',
      'the payload to stamp must be a string (the exact text the service returned)',
    )
  }
  const sk = toPrivateKey(privateKey, 'stamp private key')
  const publicKey = p256.getPublicKey(sk, true)
  if (
    opts.expectedPublicKey !== undefined &&
    !bytesEqual(compressPublicKey(opts.expectedPublicKey, 'expected public key'), publicKey)
  ) {
    throw new WalletCryptoError(
      'INVALID_KEY',
      `the stamp private key does not belong to the expected public key ${opts.expectedPublicKey}`,
    )
  }
  const signature = signP256Der(utf8Encode(payloadToSign), sk, opts.lowS ?? false)
  // Key order and the absence of whitespace are part of the format.
  const json = JSON.stringify({
    publicKey: bytesToHex(publicKey),
    scheme: STAMP_SCHEME,
    signature: bytesToHex(signature),
  })
  return base64urlEncode(utf8Encode(json))
}

const STAMP_KEYS = ['publicKey', 'scheme', 'signature']

function malformed(reason: string): WalletCryptoError {
  return new WalletCryptoError('STAMP_MALFORMED', `the stamp header is malformed: ${reason}`)
}

/** Decodes and structurally validates a header value; says precisely what is wrong otherwise. */
export function parseStamp(headerValue: string): ParsedStamp {
  if (typeof headerValue !== 'string' || headerValue.length === 0) throw malformed('it is empty')
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(headerValue)) throw malformed('it is not base64url text')
  let value: unknown
  try {
    value = JSON.parse(utf8Decode(base64urlDecode(headerValue)))
  } catch {
    throw malformed('it does not decode to JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed('it is not a JSON object')
  const record = value as Record<string, unknown>
  const extra = Object.keys(record).filter((key) => !STAMP_KEYS.includes(key))
  if (extra.length > 0) throw malformed(`unexpected field(s) ${extra.join(', ')}`)
  const {publicKey, scheme, signature} = record
  if (scheme !== STAMP_SCHEME) throw malformed(`scheme must be ${STAMP_SCHEME}, got ${JSON.stringify(scheme)}`)
  if (typeof publicKey !== 'string' || !/^0[23][0-9a-fA-F]{64}$/.test(publicKey)) {
    throw malformed('publicKey must be a compressed P-256 public key (66 hex characters starting 02 or 03)')
  }
  try {
    compressPublicKey(publicKey)
  } catch {
    throw malformed('publicKey is not a point on P-256')
  }
  if (typeof signature !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(signature)) {
    throw malformed('signature must be DER hex')
  }
  if (!isDerSignature(hexToBytes(signature))) throw malformed('signature is not a valid DER ECDSA signature')
  return {publicKey, scheme, signature}
}

/**
 * Low-level check, same contract as the reference `verifyStampSignature`: DER signature over
 * SHA-256 of the UTF-8 payload, both S halves accepted.
 */
export function verifyStampSignature(publicKeyHex: string, signatureDerHex: string, payloadToSign: string): boolean {
  return verifyP256Der(signatureDerHex, utf8Encode(payloadToSign), publicKeyHex)
}

/**
 * True only when the header is well formed and its signature covers `payloadToSign` exactly.
 * Malformed headers give false; call `parseStamp` first when the reason matters.
 */
export function verifyStamp(headerValue: string, payloadToSign: string): boolean {
  let parsed: ParsedStamp
  try {
    parsed = parseStamp(headerValue)
  } catch {
    return false
  }
  return typeof payloadToSign === 'string' && verifyStampSignature(parsed.publicKey, parsed.signature, payloadToSign)
}

export type RandomSource = (length: number) => Uint8Array

export interface P256KeyPair {
  privateKey: Uint8Array
  publicKeyCompressed: Uint8Array
  publicKeyUncompressed: Uint8Array
}

/**
 * Fresh P-256 key pair. `random` is injectable so tests can fix the key: 32 random bytes become the
 * private key as-is when they are a valid scalar; otherwise new bytes are drawn (chance ~2^-32).
 */
export function generateP256KeyPair(random: RandomSource = randomBytes): P256KeyPair {
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = Uint8Array.from(random(32))
    if (candidate.length === 32 && p256.utils.isValidSecretKey(candidate)) {
      return {
        privateKey: candidate,
        publicKeyCompressed: p256.getPublicKey(candidate, true),
        publicKeyUncompressed: p256.getPublicKey(candidate, false),
      }
    }
  }
  throw new WalletCryptoError(
    'INVALID_INPUT',
    'the random source did not produce a valid P-256 private key in 8 attempts',
  )
}
