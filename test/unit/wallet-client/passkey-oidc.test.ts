import {p256} from '@noble/curves/nist.js'
import {sha256} from '@noble/hashes/sha2.js'
import {describe, expect, it} from 'vitest'
import {parseAssertion} from '../../../src/lib/workflows/wallet/login-extra.js'
import {passkeyFields} from '../../../src/lib/workflows/wallet/credentials.js'
import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  hexToBytes,
  utf8Decode,
  utf8Encode,
} from '../../../src/lib/wallet/index.js'
import {checkOidcToken, oidcNonce} from '../../../src/lib/wallet/oidc.js'
import {cborEncode, createPasskey, signAssertion} from '../../../src/lib/wallet/passkey-authenticator.js'

const b = (s: string) => base64urlDecode(s)

describe('software passkey authenticator', () => {
  const {passkey, registration} = createPasskey({challenge: 'cmVnaXN0ZXItbWU'})

  it('registers with attestation "none" and a COSE ES256 key that matches the stored key', () => {
    const att = b(registration.attestationObject)
    // {"fmt": "none", "attStmt": {}, "authData": bytes} in canonical order.
    expect(bytesToHex(att.slice(0, 1))).toBe('a3')
    expect(Buffer.from(att).includes(Buffer.from('none'))).toBe(true)
    const authData = Buffer.from(att).subarray(Buffer.from(att).indexOf(Buffer.from('authData')) + 8 + 2)
    expect(bytesToHex(authData.subarray(0, 32))).toBe(bytesToHex(sha256(utf8Encode('localhost'))))
    expect(authData[32]).toBe(0x45)
    const idLen = (authData[53] << 8) | authData[54]
    expect(base64urlEncode(authData.subarray(55, 55 + idLen))).toBe(registration.credentialId)
    const cose = authData.subarray(55 + idLen)
    const pub = hexToBytes(passkey.publicKey)
    expect(bytesToHex(cose)).toBe(
      bytesToHex(
        cborEncode(
          new Map<any, any>([
            [1, 2],
            [3, -7],
            [-1, 1],
            [-2, pub.slice(1, 33)],
            [-3, pub.slice(33)],
          ]),
        ),
      ),
    )
    expect(bytesToHex(cose.subarray(0, 7))).toBe('a5010203262001')
    expect(JSON.parse(utf8Decode(b(registration.clientDataJSON)))).toMatchObject({
      type: 'webauthn.create',
      challenge: 'cmVnaXN0ZXItbWU',
      origin: 'http://localhost',
    })
  })

  it('signs assertions that verify with @noble/curves over authData || SHA-256(clientDataJSON), counter increasing', () => {
    const challenge = 'a3f1'.repeat(16)
    const first = signAssertion(passkey, challenge)
    const second = signAssertion(first.passkey, challenge)
    for (const [{assertion}, counter] of [
      [first, 1],
      [second, 2],
    ] as const) {
      const authData = b(assertion.authenticatorData)
      expect(bytesToHex(authData.slice(0, 32))).toBe(bytesToHex(sha256(utf8Encode('localhost'))))
      expect(authData[32]).toBe(0x05)
      expect(Buffer.from(authData.slice(33, 37)).readUInt32BE()).toBe(counter)
      const clientData = JSON.parse(utf8Decode(b(assertion.clientDataJSON)))
      expect(clientData).toMatchObject({
        type: 'webauthn.get',
        challenge: base64urlEncode(utf8Encode(challenge)),
        origin: 'http://localhost',
      })
      const signed = new Uint8Array([...authData, ...sha256(b(assertion.clientDataJSON))])
      expect(
        p256.verify(b(assertion.signature), signed, hexToBytes(passkey.publicKey), {
          prehash: true,
          format: 'der',
          lowS: false,
        }),
      ).toBe(true)
      expect(
        p256.verify(b(assertion.signature), new Uint8Array([...signed, 0]), hexToBytes(passkey.publicKey), {
          prehash: true,
          format: 'der',
          lowS: false,
        }),
      ).toBe(false)
    }
  })

  it('maps clientDataJSON to clientDataJson and rejects an assertion for another challenge before sending', () => {
    const {assertion} = signAssertion(passkey, 'right')
    expect(parseAssertion(assertion, 'right')).toEqual({
      credentialId: assertion.credentialId,
      clientDataJson: assertion.clientDataJSON,
      authenticatorData: assertion.authenticatorData,
      signature: assertion.signature,
    })
    const webauthn = {
      id: assertion.credentialId,
      rawId: assertion.credentialId,
      response: {
        clientDataJSON: assertion.clientDataJSON,
        authenticatorData: assertion.authenticatorData,
        signature: assertion.signature,
      },
    }
    expect(parseAssertion(webauthn, 'right').clientDataJson).toBe(assertion.clientDataJSON)
    let err: any
    try {
      parseAssertion(assertion, 'other')
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({
      exitCode: 2,
      fieldErrors: [{field: 'assertion.clientDataJson', message: expect.stringContaining('another challenge')}],
    })
    expect(() => parseAssertion({credentialId: 'x'})).toThrow(
      /assertion.clientDataJson, assertion.authenticatorData, assertion.signature/,
    )
  })

  it('names every bad PASSKEY registration field at once', () => {
    expect(() =>
      passkeyFields({nickname: 'bad/name', registration: {credentialId: 'ok', clientDataJSON: '**'}}),
    ).toThrow(/nickname, attestation.clientDataJson, attestation.attestationObject, challenge/)
    expect(passkeyFields({nickname: 'Ops laptop', registration})).toEqual({
      nickname: 'Ops laptop',
      challenge: 'cmVnaXN0ZXItbWU',
      attestation: {
        credentialId: registration.credentialId,
        clientDataJson: registration.clientDataJSON,
        attestationObject: registration.attestationObject,
        transports: ['internal'],
      },
    })
  })
})

describe('OIDC token local checks', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  const jwt = (claims: Record<string, unknown>) =>
    `${base64urlEncode(utf8Encode('{"alg":"none"}'))}.${base64urlEncode(utf8Encode(JSON.stringify(claims)))}.sig`
  const good = {iss: 'https://accounts.google.com', aud: 'app', sub: '42', iat: now / 1000 - 10, exp: now / 1000 + 600}

  it('computes the nonce as lowercase hex SHA-256 of the public key text', () => {
    expect(oidcNonce('02' + 'ab'.repeat(32))).toBe(bytesToHex(sha256(utf8Encode('02' + 'ab'.repeat(32)))))
  })

  it('accepts a fresh, complete token with the right nonce', () => {
    const nonce = oidcNonce('02aa')
    expect(checkOidcToken(jwt({...good, nonce}), {nowMs: now, expectedNonce: nonce}).problems).toEqual([])
  })

  it('reports malformed, stale, incomplete and wrong-nonce tokens precisely', () => {
    expect(checkOidcToken('not-a-jwt', {nowMs: now}).problems).toEqual([
      {field: 'oidcToken', message: expect.stringContaining('JWT-shaped')},
    ])
    expect(checkOidcToken(jwt({...good, iat: now / 1000 - 61}), {nowMs: now}).problems).toEqual([
      {field: 'oidcToken.iat', message: expect.stringMatching(/61 s old.*cached tokens fail/)},
    ])
    const missing = checkOidcToken(jwt({iat: now / 1000}), {nowMs: now}).problems.map((p) => p.field)
    expect(missing).toEqual(['oidcToken.iss', 'oidcToken.aud', 'oidcToken.sub', 'oidcToken.exp'])
    expect(checkOidcToken(jwt({...good, nonce: 'x'}), {nowMs: now, expectedNonce: 'y'}).problems).toEqual([
      {field: 'oidcToken.nonce', message: expect.stringContaining('must be y')},
    ])
  })
})
