/**
 * A software WebAuthn authenticator for sandbox work: it holds P-256 credentials and produces real
 * registrations (attestation "none", CBOR attestationObject with a COSE ES256 key) and real
 * assertions (authenticatorData = SHA-256(rpId) || flags || counter; signature = DER ES256 over
 * authenticatorData || SHA-256(clientDataJSON)), so passkey flows can be reproduced with no browser.
 * Never a substitute for a hardware authenticator: the private key sits in a 0600 file.
 */
import {sha256} from '@noble/hashes/sha2.js'
import {randomBytes} from '@noble/hashes/utils.js'
import {signP256Der} from './ecdsa.js'
import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  concatBytes,
  hexToBytes,
  publicKeyFromPrivate,
  utf8Encode,
} from './encoding.js'
import {generateP256KeyPair, type RandomSource} from './stamp.js'

export const DEFAULT_ORIGIN = 'http://localhost'
export const DEFAULT_RP_ID = 'localhost'

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

export interface SoftwarePasskey {
  credentialId: string
  rpId: string
  origin: string
  privateKey: string
  publicKey: string
  counter: number
  userHandle?: string
  createdAt: string
}

// ---- minimal canonical CBOR (unsigned/negative ints, byte and text strings, maps)
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>

function head(major: number, n: number): Uint8Array {
  if (n < 24) return Uint8Array.of((major << 5) | n)
  if (n < 0x100) return Uint8Array.of((major << 5) | 24, n)
  if (n < 0x10000) return Uint8Array.of((major << 5) | 25, n >> 8, n & 0xff)
  return Uint8Array.of((major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff)
}

export function cborEncode(value: Cbor): Uint8Array {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') {
    const bytes = utf8Encode(value)
    return concatBytes(head(3, bytes.length), bytes)
  }
  if (value instanceof Uint8Array) return concatBytes(head(2, value.length), value)
  const entries = [...value.entries()].map(([k, v]) => [cborEncode(k), cborEncode(v)] as const)
  // Canonical order (CTAP2): shorter encoded keys first, then bytewise.
  entries.sort(([a], [b]) => a.length - b.length || Buffer.compare(Buffer.from(a), Buffer.from(b)))
  return concatBytes(head(5, entries.length), ...entries.flat())
}

function counterBytes(counter: number): Uint8Array {
  return Uint8Array.of((counter >>> 24) & 0xff, (counter >> 16) & 0xff, (counter >> 8) & 0xff, counter & 0xff)
}

/** COSE_Key for ES256: {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}. */
export function coseKey(publicKeyUncompressed: Uint8Array): Uint8Array {
  return cborEncode(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, publicKeyUncompressed.slice(1, 33)],
      [-3, publicKeyUncompressed.slice(33, 65)],
    ]),
  )
}

export interface Registration {
  credentialId: string
  clientDataJSON: string
  attestationObject: string
  transports: string[]
  challenge: string
  publicKey: string
}

/** navigator.credentials.create equivalent; `challenge` is the platform's base64url challenge. */
export function createPasskey(opts: {
  challenge: string
  rpId?: string
  origin?: string
  now?: Date
  random?: RandomSource
  existing?: SoftwarePasskey
}): {passkey: SoftwarePasskey; registration: Registration} {
  const random = opts.random ?? randomBytes
  const rpId = opts.existing?.rpId ?? opts.rpId ?? DEFAULT_RP_ID
  const origin = opts.origin ?? opts.existing?.origin ?? DEFAULT_ORIGIN
  // `existing` re-registers a held credential (to reproduce PASSKEY_CREDENTIAL_ALREADY_EXISTS).
  const kp = opts.existing
    ? generateP256KeyPair(() => hexToBytes(opts.existing!.privateKey))
    : generateP256KeyPair(random)
  const rawId = opts.existing ? base64urlDecode(opts.existing.credentialId) : random(16)
  const credentialId = base64urlEncode(rawId)
  const attested = concatBytes(
    new Uint8Array(16),
    Uint8Array.of(rawId.length >> 8, rawId.length & 0xff),
    rawId,
    coseKey(kp.publicKeyUncompressed),
  )
  const authData = concatBytes(
    sha256(utf8Encode(rpId)),
    Uint8Array.of(FLAG_UP | FLAG_UV | FLAG_AT),
    counterBytes(0),
    attested,
  )
  const attestationObject = cborEncode(
    new Map<Cbor, Cbor>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  )
  const clientDataJSON = JSON.stringify({
    type: 'webauthn.create',
    challenge: opts.challenge,
    origin,
    crossOrigin: false,
  })
  const passkey: SoftwarePasskey = opts.existing ?? {
    credentialId,
    rpId,
    origin,
    privateKey: bytesToHex(kp.privateKey),
    publicKey: bytesToHex(kp.publicKeyUncompressed),
    counter: 0,
    createdAt: (opts.now ?? new Date()).toISOString(),
  }
  return {
    passkey,
    registration: {
      credentialId,
      clientDataJSON: base64urlEncode(utf8Encode(clientDataJSON)),
      attestationObject: base64urlEncode(attestationObject),
      transports: ['internal'],
      challenge: opts.challenge,
      publicKey: passkey.publicKey,
    },
  }
}

export interface Assertion {
  credentialId: string
  clientDataJSON: string
  authenticatorData: string
  signature: string
  userHandle?: string
}

/**
 * navigator.credentials.get equivalent: the service's challenge string is UTF-8 encoded (spec
 * 5.2, "do not base64-decode"), so clientDataJSON.challenge = base64url(utf8(challenge)). The
 * counter increases with each assertion; the caller stores the returned passkey.
 */
export function signAssertion(
  passkey: SoftwarePasskey,
  challenge: string,
  opts: {origin?: string} = {},
): {assertion: Assertion; passkey: SoftwarePasskey} {
  const counter = passkey.counter + 1
  const authenticatorData = concatBytes(
    sha256(utf8Encode(passkey.rpId)),
    Uint8Array.of(FLAG_UP | FLAG_UV),
    counterBytes(counter),
  )
  const clientDataJSON = utf8Encode(
    JSON.stringify({
      type: 'webauthn.get',
      challenge: base64urlEncode(utf8Encode(challenge)),
      origin: opts.origin ?? passkey.origin,
      crossOrigin: false,
    }),
  )
  const signature = signP256Der(
    concatBytes(authenticatorData, sha256(clientDataJSON)),
    hexToBytes(passkey.privateKey),
    true,
  )
  // Derive rather than trust the stored public key, so a corrupt file fails here and not at the service.
  publicKeyFromPrivate(passkey.privateKey, false)
  return {
    assertion: {
      credentialId: passkey.credentialId,
      clientDataJSON: base64urlEncode(clientDataJSON),
      authenticatorData: base64urlEncode(authenticatorData),
      signature: base64urlEncode(signature),
      ...(passkey.userHandle ? {userHandle: passkey.userHandle} : {}),
    },
    passkey: {...passkey, counter},
  }
}
