import {sha256} from '@noble/hashes/sha2.js'
import {base58, createBase58check} from '@scure/base'
import {describe, expect, it} from 'vitest'

import {
  bytesToHex,
  decryptCredentialBundle,
  encryptCredentialBundle,
  hexToBytes,
  publicKeyFromPrivate,
  WalletCryptoError,
} from '../../../src/lib/wallet/index.js'
import {caught, vectors} from './vectors.js'

const base58check = createBase58check(sha256)
const [oracleMade, knownAnswer] = vectors.credentialBundles as [
  (typeof vectors.credentialBundles)[0],
  (typeof vectors.credentialBundles)[0],
]

describe('decryptCredentialBundle()', () => {
  it.each(vectors.credentialBundles.map((v) => [v.name, v] as const))(
    '%s: decrypts to the expected session key',
    async (_n, v) => {
      expect(bytesToHex(base58check.decode(v.bundle))).toBe(v.decodedPayloadHex)
      const sessionKey = await decryptCredentialBundle(v.bundle, v.recipientPrivateKey)
      expect(bytesToHex(sessionKey)).toBe(v.expectedPlaintextHex)
    },
  )

  it('the published enclave-made known-answer test passes', async () => {
    expect(knownAnswer.bundle.startsWith('w99a5x')).toBe(true)
    expect(
      bytesToHex(await decryptCredentialBundle(knownAnswer.bundle, hexToBytes(knownAnswer.recipientPrivateKey))),
    ).toBe('67ee05fc3bdf4161bc70701c221d8d77180294cefcfcea64ba83c4d4c732fcb9')
  })

  it('yields a key whose compressed public key is the session API key', async () => {
    const sessionKey = await decryptCredentialBundle(`${oracleMade.bundle}\n`, oracleMade.recipientPrivateKey)
    expect(bytesToHex(publicKeyFromPrivate(sessionKey, true))).toBe(oracleMade.expectedSessionPublicKeyCompressed)
  })

  it('rejects a tampered character, a truncated bundle and a corrupted checksum with BUNDLE_CHECKSUM_INVALID', async () => {
    const b = oracleMade.bundle
    const swapped = b.slice(0, 40) + (b[40] === 'A' ? 'B' : 'A') + b.slice(41)
    const payload = base58check.decode(b)
    const raw = Uint8Array.from([...payload, ...sha256(sha256(payload)).subarray(0, 4)])
    raw[raw.length - 1]! ^= 0xff
    for (const bad of [swapped, b.slice(0, -1), base58.encode(raw)]) {
      const error = (await caught(() =>
        decryptCredentialBundle(bad, oracleMade.recipientPrivateKey),
      )) as WalletCryptoError
      expect(error.code).toBe('BUNDLE_CHECKSUM_INVALID')
      expect(error.message).toBe('the credential bundle checksum does not match: it was truncated, mistyped or altered')
    }
  })

  it.each([
    ['non-base58 text', '0OIl', /it is not base58 text/],
    [
      'a payload of only 33 bytes',
      base58check.encode(hexToBytes(vectors.keys.tek.publicKeyCompressed)),
      /33 bytes is too short/,
    ],
    [
      'an uncompressed key prefix',
      base58check.encode(hexToBytes(vectors.keys.tek.publicKeyUncompressed + '00'.repeat(48))),
      /does not start with a compressed/,
    ],
  ])('rejects %s with BUNDLE_MALFORMED', async (_name, bundle, message) => {
    const error = (await caught(() =>
      decryptCredentialBundle(bundle, oracleMade.recipientPrivateKey),
    )) as WalletCryptoError
    expect(error.code).toBe('BUNDLE_MALFORMED')
    expect(error.message).toMatch(message)
  })

  it('fails with DECRYPT_FAILED for the wrong client key', async () => {
    const error = (await caught(() =>
      decryptCredentialBundle(oracleMade.bundle, vectors.keys.tek.privateKey),
    )) as WalletCryptoError
    expect(error.code).toBe('DECRYPT_FAILED')
  })
})

describe('encryptCredentialBundle()', () => {
  it('reproduces the oracle bundle byte for byte with the injected ephemeral key', async () => {
    const bundle = await encryptCredentialBundle(
      vectors.keys.sessionKeyPlain.privateKey,
      vectors.keys.recipient.publicKeyUncompressed,
      oracleMade.ephemeralPrivateKey!,
    )
    expect(bundle).toBe(oracleMade.bundle)
  })

  it('accepts a compressed client key and round-trips with a fresh ephemeral key', async () => {
    const bundle = await encryptCredentialBundle(
      vectors.keys.sessionKeyPlain.privateKey,
      vectors.keys.recipient.publicKeyCompressed,
    )
    expect(bundle).not.toBe(oracleMade.bundle)
    expect(base58check.decode(bundle)).toHaveLength(81)
    expect(bytesToHex(await decryptCredentialBundle(bundle, vectors.keys.recipient.privateKey))).toBe(
      vectors.keys.sessionKeyPlain.privateKey,
    )
  })
})
