import {p256} from '@noble/curves/nist.js'
import {sha256} from '@noble/hashes/sha2.js'
import {describe, expect, it} from 'vitest'

import {
  base64urlEncode,
  bytesToHex,
  generateP256KeyPair,
  hexToBytes,
  parseStamp,
  stamp,
  STAMP_SCHEME,
  utf8Decode,
  base64urlDecode,
  utf8Encode,
  verifyStamp,
  verifyStampSignature,
  WalletCryptoError,
} from '../../../src/lib/wallet/index.js'
import {caught, sOf, vectors} from './vectors.js'

const N = p256.Point.CURVE().n
const headerOf = (json: object) => base64urlEncode(utf8Encode(JSON.stringify(json)))

describe('stamp vectors', () => {
  it('cover both runtimes and both S halves', () => {
    expect(vectors.stamps).toHaveLength(27)
    expect(vectors.stamps.filter((v) => v.runtime === 'purejs')).toHaveLength(15)
    expect(vectors.stamps.some((v) => v.signatureIsHighS)).toBe(true)
    expect(vectors.stamps.some((v) => !v.signatureIsHighS)).toBe(true)
  })

  it.each(vectors.stamps.map((v) => [v.name, v] as const))(
    '%s verifies and parses to the vector fields',
    (_name, v) => {
      expect(bytesToHex(utf8Encode(v.payload))).toBe(v.payloadUtf8Hex)
      expect(bytesToHex(sha256(utf8Encode(v.payload)))).toBe(v.sha256OfPayloadHex)
      expect(utf8Decode(base64urlDecode(v.stampHeaderValue))).toBe(v.stampJson)
      expect(v.stampHeaderValue).not.toContain('=')
      expect(parseStamp(v.stampHeaderValue)).toEqual({
        publicKey: v.publicKey,
        scheme: STAMP_SCHEME,
        signature: v.signatureDerHex,
      })
      expect(sOf(v.signatureDerHex) > N / 2n).toBe(v.signatureIsHighS)
      expect(verifyStamp(v.stampHeaderValue, v.payload)).toBe(true)
      expect(verifyStamp(v.stampHeaderValue, v.payload + ' ')).toBe(false)
    },
  )

  it.each(vectors.stamps.filter((v) => v.runtime === 'purejs').map((v) => [v.name, v] as const))(
    '%s is reproduced byte for byte',
    (_name, v) => {
      expect(stamp(v.payload, v.privateKey)).toBe(v.stampHeaderValue)
      expect(stamp(v.payload, hexToBytes(v.privateKey), {expectedPublicKey: v.publicKey})).toBe(v.stampHeaderValue)
    },
  )

  it('a verifier with noble v2 defaults (low-S enforced) rejects a genuine high-S stamp', () => {
    const v = vectors.stamps.find((s) => s.signatureIsHighS && s.runtime === 'purejs')!
    const der = hexToBytes(v.signatureDerHex)
    expect(p256.verify(der, utf8Encode(v.payload), hexToBytes(v.publicKey), {format: 'der'})).toBe(false)
    expect(verifyStampSignature(v.publicKey, v.signatureDerHex, v.payload)).toBe(true)
  })
})

describe('negative stamps', () => {
  it.each(vectors.negativeStamps.map((v) => [v.name, v] as const))('%s behaves as marked', (_name, v) => {
    expect(verifyStampSignature(v.publicKey, v.signatureDerHex, v.payload)).toBe(v.expectValid)
    const header = headerOf({publicKey: v.publicKey, scheme: STAMP_SCHEME, signature: v.signatureDerHex})
    expect(verifyStamp(header, v.payload)).toBe(v.expectValid)
  })
})

describe('stamp()', () => {
  const key = vectors.keys.sessionA
  const payload = '{"type":"ACTIVITY_TYPE_X"}'

  it('with lowS produces a low-S signature that still verifies', () => {
    const high = vectors.stamps.find(
      (s) => s.signatureIsHighS && s.runtime === 'purejs' && s.privateKey === key.privateKey,
    )!
    const header = stamp(high.payload, key.privateKey, {lowS: true})
    const {signature} = parseStamp(header)
    expect(sOf(signature)).toBe(N - sOf(high.signatureDerHex))
    expect(verifyStamp(header, high.payload)).toBe(true)
  })

  it('refuses a private key that does not match the expected public key, without leaking it', async () => {
    const error = (await caught(() =>
      stamp(payload, key.privateKey, {expectedPublicKey: vectors.keys.sessionB.publicKeyCompressed}),
    )) as WalletCryptoError
    expect(error.code).toBe('INVALID_KEY')
    expect(error.message).toContain(vectors.keys.sessionB.publicKeyCompressed)
    expect(error.message).not.toContain(key.privateKey)
  })

  it('accepts the expected public key in uncompressed form', () => {
    expect(verifyStamp(stamp(payload, key.privateKey, {expectedPublicKey: key.publicKeyUncompressed}), payload)).toBe(
      true,
    )
  })
})

describe('parseStamp() on malformed headers', () => {
  const v = vectors.stamps[0]!
  const good = JSON.parse(v.stampJson) as Record<string, string>
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '', /it is empty/],
    ['standard base64 alphabet', 'ab+/', /not base64url/],
    ['not JSON', base64urlEncode(utf8Encode('hello')), /does not decode to JSON/],
    ['JSON array', headerOf([1]), /not a JSON object/],
    [
      'wrong scheme',
      headerOf({...good, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519'}),
      /scheme must be SIGNATURE_SCHEME_TK_API_P256/,
    ],
    [
      'uncompressed key',
      headerOf({...good, publicKey: vectors.keys.sessionA.publicKeyUncompressed}),
      /publicKey must be a compressed/,
    ],
    ['key off the curve', headerOf({...good, publicKey: '02' + 'ff'.repeat(32)}), /not a point on P-256/],
    ['extra field', headerOf({...good, extra: 1}), /unexpected field\(s\) extra/],
    ['signature not hex', headerOf({...good, signature: 'xyz'}), /signature must be DER hex/],
    ['compact signature', headerOf({...good, signature: '11'.repeat(64)}), /not a valid DER/],
  ]

  it.each(cases)('%s -> STAMP_MALFORMED', async (_name, header, message) => {
    const error = (await caught(() => parseStamp(header))) as WalletCryptoError
    expect(error.code).toBe('STAMP_MALFORMED')
    expect(error.message).toMatch(message)
    expect(verifyStamp(header, v.payload)).toBe(false)
  })

  it('accepts padded base64url', () => {
    expect(parseStamp(v.stampHeaderValue + '=').signature).toBe(v.signatureDerHex)
  })
})

describe('generateP256KeyPair()', () => {
  it('turns 32 injected random bytes into that private key', () => {
    const pair = generateP256KeyPair(() => hexToBytes(vectors.keys.tek.privateKey))
    expect(bytesToHex(pair.privateKey)).toBe(vectors.keys.tek.privateKey)
    expect(bytesToHex(pair.publicKeyCompressed)).toBe(vectors.keys.tek.publicKeyCompressed)
    expect(bytesToHex(pair.publicKeyUncompressed)).toBe(vectors.keys.tek.publicKeyUncompressed)
  })

  it('draws again when the bytes are not a valid scalar, and gives up after 8 draws', async () => {
    const draws = [new Uint8Array(32), hexToBytes('ff'.repeat(32)), hexToBytes(vectors.keys.tek.privateKey)]
    expect(bytesToHex(generateP256KeyPair(() => draws.shift()!).privateKey)).toBe(vectors.keys.tek.privateKey)
    let calls = 0
    const error = (await caught(() => generateP256KeyPair(() => (calls++, new Uint8Array(32))))) as WalletCryptoError
    expect(error.code).toBe('INVALID_INPUT')
    expect(calls).toBe(8)
  })

  it('uses real randomness by default', () => {
    const a = generateP256KeyPair()
    const b = generateP256KeyPair()
    expect(a.privateKey).toHaveLength(32)
    expect(bytesToHex(a.privateKey)).not.toBe(bytesToHex(b.privateKey))
    expect(bytesToHex(p256.getPublicKey(a.privateKey, true))).toBe(bytesToHex(a.publicKeyCompressed))
  })
})
