/**
 * Enclave-signed envelopes, the wrapper around OTP target bundles and export bundles:
 * {"version":"v1.0.0","data":<hex of UTF-8 JSON>,"dataSignature":<DER hex>,"enclaveQuorumPublic":<130 hex>}
 *
 * The key inside the envelope proves nothing on its own: only a pinned key gives authenticity.
 * Without a pin, verification detects corruption only. The sandbox sends empty signature fields;
 * those are accepted only behind an explicit switch.
 */
import {signP256Der, verifyP256Der} from './ecdsa.js'
import {type BytesLike, bytesToHex, hexToBytes, publicKeyFromPrivate, utf8Decode, utf8Encode} from './encoding.js'
import {WalletCryptoError} from './errors.js'

export const ENVELOPE_VERSION = 'v1.0.0'

export interface SignedEnvelope {
  version: string
  data: string
  /** DER hex; empty string on unsigned (sandbox) envelopes. */
  dataSignature: string
  /** Uncompressed SEC1 hex; empty string on unsigned (sandbox) envelopes. */
  enclaveQuorumPublic: string
}

export interface EnvelopeTrustOptions {
  /** The enclave quorum key the envelope must carry; compared as a case-sensitive string, like the reference. */
  pinnedQuorumKey?: string
  /** Sandbox only: accept an envelope whose dataSignature is empty. Never on in production. */
  allowUnsigned?: boolean
}

/** How far the envelope can be trusted: signed by the pinned key, signed by its own key, or not signed. */
export type EnvelopeTrust = 'pinned' | 'unpinned' | 'unsigned'

export interface VerifiedEnvelope {
  signedData: Record<string, unknown>
  trust: EnvelopeTrust
}

function malformed(reason: string): WalletCryptoError {
  return new WalletCryptoError('ENVELOPE_MALFORMED', `the signed bundle is malformed: ${reason}`)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Absent and null signature fields are read as the sandbox's empty strings.
function optionalHexField(record: Record<string, unknown>, key: string): string {
  const value = record[key]
  if (value === undefined || value === null || value === '') return ''
  if (typeof value !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(value)) throw malformed(`${key} must be hex text`)
  return value
}

export function parseSignedEnvelope(text: string): SignedEnvelope {
  let value: unknown
  try {
    value = JSON.parse(text)
    // Tolerate one extra level of string wrapping: these bundles travel as JSON strings of JSON.
    if (typeof value === 'string') value = JSON.parse(value)
  } catch {
    throw malformed('it is not JSON')
  }
  if (!isRecord(value)) throw malformed('it is not a JSON object')
  const {version, data} = value
  if (typeof version !== 'string' || version === '') throw malformed('version is missing')
  if (typeof data !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(data))
    throw malformed('data must be non-empty hex text')
  return {
    version,
    data,
    dataSignature: optionalHexField(value, 'dataSignature'),
    enclaveQuorumPublic: optionalHexField(value, 'enclaveQuorumPublic'),
  }
}

/**
 * Checks, in the reference's order: pin (string equality), then ECDSA P-256 / SHA-256 over the
 * hex-decoded data (both S halves accepted), and only then parses the data as JSON.
 */
export function verifySignedEnvelope(envelope: SignedEnvelope, opts: EnvelopeTrustOptions = {}): VerifiedEnvelope {
  const {pinnedQuorumKey, allowUnsigned = false} = opts
  if (pinnedQuorumKey !== undefined && pinnedQuorumKey === '') {
    throw new WalletCryptoError(
      'INVALID_INPUT',
      'the pinned enclave quorum key is empty; omit it or configure the real key',
    )
  }
  const dataBytes = hexToBytes(envelope.data, 'bundle data')
  let trust: EnvelopeTrust
  if (envelope.dataSignature === '') {
    if (!allowUnsigned) {
      throw new WalletCryptoError(
        'ENVELOPE_UNSIGNED',
        'the bundle carries no enclave signature (empty dataSignature); unsigned bundles are accepted only in sandbox mode when explicitly allowed',
      )
    }
    trust = 'unsigned'
  } else {
    if (pinnedQuorumKey !== undefined && envelope.enclaveQuorumPublic !== pinnedQuorumKey) {
      throw new WalletCryptoError(
        'QUORUM_KEY_MISMATCH',
        `the bundle is signed by enclave quorum key ${envelope.enclaveQuorumPublic || '(none)'}, not the pinned key ${pinnedQuorumKey}`,
      )
    }
    if (!verifyP256Der(envelope.dataSignature, dataBytes, envelope.enclaveQuorumPublic)) {
      throw new WalletCryptoError(
        'ENVELOPE_SIGNATURE_INVALID',
        'the enclave signature over the bundle data does not verify: the bundle was altered or corrupted',
      )
    }
    trust = pinnedQuorumKey === undefined ? 'unpinned' : 'pinned'
  }
  let signedData: unknown
  try {
    signedData = JSON.parse(utf8Decode(dataBytes))
  } catch {
    throw malformed('data does not decode to JSON')
  }
  if (!isRecord(signedData)) throw malformed('data is not a JSON object')
  return {signedData, trust}
}

/** Emulator side: serialises `dataObject` and signs it deterministically with the quorum key. */
export function makeSignedEnvelope(dataObject: Record<string, unknown>, quorumPrivateKey: BytesLike): string {
  const dataBytes = utf8Encode(JSON.stringify(dataObject))
  return JSON.stringify({
    version: ENVELOPE_VERSION,
    data: bytesToHex(dataBytes),
    dataSignature: bytesToHex(signP256Der(dataBytes, quorumPrivateKey)),
    enclaveQuorumPublic: bytesToHex(publicKeyFromPrivate(quorumPrivateKey, false, 'quorum private key')),
  })
}

/** Emulator side: the sandbox shape, with empty signature fields. */
export function makeUnsignedEnvelope(dataObject: Record<string, unknown>): string {
  const data = bytesToHex(utf8Encode(JSON.stringify(dataObject)))
  return JSON.stringify({version: ENVELOPE_VERSION, data, dataSignature: '', enclaveQuorumPublic: ''})
}
