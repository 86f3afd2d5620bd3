import {describe, expect, it} from 'vitest'

import {
  bytesToHex,
  compressPublicKey,
  hexToBytes,
  hpkeOpen,
  hpkeSeal,
  utf8Decode,
  WalletCryptoError,
} from '../../../src/lib/wallet/index.js'
import {caught, vectors} from './vectors.js'

const target = vectors.keys.otpTarget

function sealedOf(encryptedOtpBundle: string) {
  const {encappedPublic, ciphertext} = JSON.parse(encryptedOtpBundle) as {encappedPublic: string; ciphertext: string}
  return {enc: hexToBytes(encappedPublic), ciphertext: hexToBytes(ciphertext)}
}

describe('HPKE suite (DHKEM P-256, HKDF-SHA256, AES-256-GCM, info turnkey_hpke, AAD enc||pkR)', () => {
  it.each(vectors.otp.vectors.map((v) => [v.name, v] as const))(
    '%s: seal with the injected ephemeral key is byte-identical',
    async (_n, v) => {
      const expected = sealedOf(v.encryptedOtpBundle)
      const sealed = await hpkeSeal({
        plaintext: hexToBytes(v.plaintextHex),
        recipientPublicKey: target.publicKeyUncompressed,
        ephemeralPrivateKey: v.ephemeralPrivateKey,
      })
      expect(bytesToHex(sealed.enc)).toBe(v.ephemeralPublicKeyUncompressed)
      expect(bytesToHex(sealed.ciphertext)).toBe(bytesToHex(expected.ciphertext))
      expect(sealed.ciphertext).toHaveLength(hexToBytes(v.plaintextHex).length + 16)
    },
  )

  it.each(vectors.otp.vectors.map((v) => [v.name, v] as const))('%s: opens to the vector plaintext', async (_n, v) => {
    const plaintext = await hpkeOpen({...sealedOf(v.encryptedOtpBundle), recipientPrivateKey: v.targetPrivateKey})
    expect(utf8Decode(plaintext)).toBe(v.plaintext)
  })

  it('normalises a compressed recipient key to 65 bytes (same output) and accepts a compressed enc', async () => {
    const v = vectors.otp.vectors[0]!
    const sealed = await hpkeSeal({
      plaintext: hexToBytes(v.plaintextHex),
      recipientPublicKey: hexToBytes(target.publicKeyCompressed),
      ephemeralPrivateKey: hexToBytes(v.ephemeralPrivateKey),
    })
    expect(bytesToHex(sealed.ciphertext)).toBe(bytesToHex(sealedOf(v.encryptedOtpBundle).ciphertext))
    const opened = await hpkeOpen({
      enc: compressPublicKey(sealed.enc),
      ciphertext: sealed.ciphertext,
      recipientPrivateKey: target.privateKey,
    })
    expect(utf8Decode(opened)).toBe(v.plaintext)
  })

  it('uses a fresh ephemeral key by default', async () => {
    const a = await hpkeSeal({plaintext: new Uint8Array([1]), recipientPublicKey: target.publicKeyUncompressed})
    const b = await hpkeSeal({plaintext: new Uint8Array([1]), recipientPublicKey: target.publicKeyUncompressed})
    expect(a.enc).toHaveLength(65)
    expect(bytesToHex(a.enc)).not.toBe(bytesToHex(b.enc))
    expect(Array.from(await hpkeOpen({...a, recipientPrivateKey: target.privateKey}))).toEqual([1])
  })

  it('fails with DECRYPT_FAILED on a flipped ciphertext bit, a swapped enc or the wrong key', async () => {
    const v = vectors.otp.vectors[0]!
    const good = sealedOf(v.encryptedOtpBundle)
    const flipped = Uint8Array.from(good.ciphertext)
    flipped[0]! ^= 1
    const otherEnc = sealedOf(vectors.otp.vectors[1]!.encryptedOtpBundle).enc
    const attempts = [
      {...good, ciphertext: flipped, recipientPrivateKey: target.privateKey},
      {...good, enc: otherEnc, recipientPrivateKey: target.privateKey},
      {...good, recipientPrivateKey: vectors.keys.recipient.privateKey},
      {...good, ciphertext: good.ciphertext.subarray(0, 10), recipientPrivateKey: target.privateKey},
    ]
    for (const attempt of attempts) {
      const error = (await caught(() => hpkeOpen(attempt))) as WalletCryptoError
      expect(error).toBeInstanceOf(WalletCryptoError)
      expect(error.code).toBe('DECRYPT_FAILED')
      expect(error.message).toBe('decryption failed: the bundle was altered, or it was not encrypted to this key')
    }
  })

  it('rejects an invalid recipient key before doing any crypto', async () => {
    const error = (await caught(() =>
      hpkeSeal({plaintext: new Uint8Array(1), recipientPublicKey: '02' + 'ff'.repeat(32)}),
    )) as WalletCryptoError
    expect(error.code).toBe('INVALID_KEY')
    expect(error.message).toBe('recipient public key is not a valid P-256 point')
  })
})
