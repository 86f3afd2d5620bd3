import {describe, expect, it} from 'vitest'

import {
  decryptOtpBundle,
  encryptOtpBundle,
  makeSignedEnvelope,
  makeUnsignedEnvelope,
  WalletCryptoError,
} from '../../../src/lib/wallet/index.js'
import {caught, vectors} from './vectors.js'

const pin = vectors.keys.quorum.publicKeyUncompressed
const target = vectors.keys.otpTarget

describe('encryptOtpBundle()', () => {
  it.each(vectors.otp.vectors.map((v) => [v.name, v] as const))(
    '%s: byte-identical with the injected ephemeral key',
    async (_n, v) => {
      const bundle = await encryptOtpBundle({
        targetBundle: v.otpEncryptionTargetBundle,
        otpCode: v.otpCode,
        publicKey: v.publicKeyInPlaintext,
        pinnedQuorumKey: pin,
        ephemeralPrivateKey: v.ephemeralPrivateKey,
      })
      expect(bundle).toBe(v.encryptedOtpBundle)
    },
  )

  it('keeps leading zeros and the caller’s public-key form in the plaintext', async () => {
    const bundle = await encryptOtpBundle({
      targetBundle: vectors.otp.vectors[0]!.otpEncryptionTargetBundle,
      otpCode: '000123',
      publicKey: vectors.keys.tek.publicKeyUncompressed,
      pinnedQuorumKey: pin,
    })
    expect(await decryptOtpBundle(bundle, target.privateKey)).toEqual({
      otp_code: '000123',
      public_key: vectors.keys.tek.publicKeyUncompressed,
    })
  })

  it('seals to the uncompressed key even when the enclave data carries it compressed', async () => {
    const targetBundle = makeSignedEnvelope({targetPublic: target.publicKeyCompressed}, vectors.keys.quorum.privateKey)
    const v = vectors.otp.vectors[0]!
    const bundle = await encryptOtpBundle({
      targetBundle,
      otpCode: v.otpCode,
      publicKey: v.publicKeyInPlaintext,
      ephemeralPrivateKey: v.ephemeralPrivateKey,
    })
    expect(bundle).toBe(v.encryptedOtpBundle)
  })

  it('refuses a target bundle from an unpinned quorum key, and an unsigned one unless allowed', async () => {
    const v = vectors.otp.vectors[0]!
    const base = {otpCode: v.otpCode, publicKey: v.publicKeyInPlaintext}
    const mismatch = (await caught(() =>
      encryptOtpBundle({
        ...base,
        targetBundle: v.otpEncryptionTargetBundle,
        pinnedQuorumKey: vectors.keys.recipient.publicKeyUncompressed,
      }),
    )) as WalletCryptoError
    expect(mismatch.code).toBe('QUORUM_KEY_MISMATCH')
    const sandbox = makeUnsignedEnvelope({targetPublic: target.publicKeyUncompressed})
    const unsigned = (await caught(() =>
      encryptOtpBundle({...base, targetBundle: sandbox, pinnedQuorumKey: pin}),
    )) as WalletCryptoError
    expect(unsigned.code).toBe('ENVELOPE_UNSIGNED')
    const bundle = await encryptOtpBundle({...base, targetBundle: sandbox, allowUnsigned: true})
    expect(await decryptOtpBundle(bundle, target.privateKey)).toEqual({
      otp_code: v.otpCode,
      public_key: v.publicKeyInPlaintext,
    })
  })

  it.each([
    [
      'no targetPublic',
      {targetBundle: makeSignedEnvelope({otpId: 'x'}, vectors.keys.quorum.privateKey)},
      'ENVELOPE_MALFORMED',
      /no targetPublic/,
    ],
    ['empty OTP code', {otpCode: ''}, 'INVALID_INPUT', /OTP code must be a non-empty string/],
    [
      'public key off the curve',
      {publicKey: '02' + 'ff'.repeat(32)},
      'INVALID_KEY',
      /public key to bind to the OTP is not a valid P-256 point/,
    ],
  ])('rejects %s', async (_name, override, code, message) => {
    const v = vectors.otp.vectors[0]!
    const error = (await caught(() =>
      encryptOtpBundle({
        targetBundle: v.otpEncryptionTargetBundle,
        otpCode: v.otpCode,
        publicKey: v.publicKeyInPlaintext,
        ...override,
      }),
    )) as WalletCryptoError
    expect(error.code).toBe(code)
    expect(error.message).toMatch(message)
  })
})

describe('decryptOtpBundle()', () => {
  it.each(vectors.otp.vectors.map((v) => [v.name, v] as const))('%s: opens the oracle bundle', async (_n, v) => {
    expect(await decryptOtpBundle(v.encryptedOtpBundle, v.targetPrivateKey)).toEqual(JSON.parse(v.plaintext))
    expect(await decryptOtpBundle(JSON.stringify(v.encryptedOtpBundle), v.targetPrivateKey)).toEqual({
      otp_code: v.otpCode,
      public_key: v.publicKeyInPlaintext,
    })
  })

  it('fails clearly on malformed or foreign bundles, without echoing the code', async () => {
    const v = vectors.otp.vectors[0]!
    const cases: Array<[string, string, string]> = [
      ['{"ciphertext":"00"}', target.privateKey, 'BUNDLE_MALFORMED'],
      ['{"encappedPublic":"zz","ciphertext":"00"}', target.privateKey, 'BUNDLE_MALFORMED'],
      ['nope', target.privateKey, 'BUNDLE_MALFORMED'],
      [v.encryptedOtpBundle, vectors.keys.recipient.privateKey, 'DECRYPT_FAILED'],
    ]
    for (const [bundle, key, code] of cases) {
      const error = (await caught(() => decryptOtpBundle(bundle, key))) as WalletCryptoError
      expect(error.code).toBe(code)
      expect(error.message).not.toContain(v.otpCode)
    }
  })
})
