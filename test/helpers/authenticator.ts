import {createHash, randomBytes} from 'node:crypto'
import {encodeCbor} from '../../src/emulator/domain/wallet/cbor.js'
import {signP256Der} from '../../src/lib/wallet/ecdsa.js'
import {base64urlEncode, generateP256KeyPair, type P256KeyPair, utf8Encode} from '../../src/lib/wallet/index.js'

const sha256 = (b: Uint8Array | string) => new Uint8Array(createHash('sha256').update(b).digest())
const b64u = (b: Uint8Array | string) => base64urlEncode(typeof b === 'string' ? utf8Encode(b) : b)

/** A software WebAuthn authenticator holding one P-256 credential (tests only). */
export class SoftAuthenticator {
  readonly key: P256KeyPair = generateP256KeyPair()
  readonly rawId = new Uint8Array(randomBytes(16))
  counter = 0

  constructor(
    readonly origin = 'http://localhost',
    readonly rpId = new URL(origin).hostname,
  ) {}

  get credentialId(): string {
    return b64u(this.rawId)
  }

  /** navigator.credentials.create with attestation "none". */
  register(challenge: string, opts: {origin?: string; type?: string; rawId?: Uint8Array} = {}) {
    const rawId = opts.rawId ?? this.rawId
    const x = this.key.publicKeyUncompressed.slice(1, 33)
    const y = this.key.publicKeyUncompressed.slice(33)
    const cose = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, x],
        [-3, y],
      ]),
    )
    const authData = new Uint8Array([
      ...sha256(this.rpId),
      0x45,
      0,
      0,
      0,
      0,
      ...new Uint8Array(16),
      rawId.length >> 8,
      rawId.length & 0xff,
      ...rawId,
      ...cose,
    ])
    const attestationObject = encodeCbor(
      new Map<string, Uint8Array | string | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    )
    const clientDataJson = JSON.stringify({
      type: opts.type ?? 'webauthn.create',
      challenge,
      origin: opts.origin ?? this.origin,
      crossOrigin: false,
    })
    return {
      credentialId: b64u(rawId),
      clientDataJson: b64u(clientDataJson),
      attestationObject: b64u(attestationObject),
      transports: ['internal' as const],
    }
  }

  /** navigator.credentials.get for the API's hex challenge (UTF-8 encoded, as WebAuthn wants). */
  assert(challenge: string, opts: {origin?: string; counter?: number; flags?: number; key?: P256KeyPair} = {}) {
    this.counter = opts.counter ?? this.counter + 1
    const c = this.counter
    const authData = new Uint8Array([
      ...sha256(this.rpId),
      opts.flags ?? 0x05,
      (c >>> 24) & 0xff,
      (c >> 16) & 0xff,
      (c >> 8) & 0xff,
      c & 0xff,
    ])
    const clientDataJson = JSON.stringify({
      type: 'webauthn.get',
      challenge: b64u(challenge),
      origin: opts.origin ?? this.origin,
    })
    const signature = signP256Der(
      new Uint8Array([...authData, ...sha256(clientDataJson)]),
      (opts.key ?? this.key).privateKey,
    )
    return {
      credentialId: this.credentialId,
      clientDataJson: b64u(clientDataJson),
      authenticatorData: b64u(authData),
      signature: b64u(signature),
    }
  }
}

/** Seconds since the epoch, as JWT claims (iat, exp) count time. */
export const unixNow = () => Math.floor(Date.now() / 1000)

/** A JWT-shaped OIDC token (the sandbox does not check the signature). */
export function mintOidcToken(claims: Record<string, unknown>): string {
  const now = unixNow()
  const payload = {
    iss: 'https://accounts.google.com',
    aud: 'svc-test-client',
    sub: 'google-sub-1',
    iat: now,
    exp: now + 600,
    email: 'holder@gmail.com',
    ...claims,
  }
  return `${b64u(JSON.stringify({alg: 'RS256', typ: 'JWT'}))}.${b64u(JSON.stringify(payload))}.${b64u(randomBytes(8))}`
}

/** The nonce the sandbox expects: lowercase hex SHA-256 of the clientPublicKey text. */
export const nonceFor = (clientPublicKey: string) => createHash('sha256').update(clientPublicKey).digest('hex')
