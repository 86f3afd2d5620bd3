/**
 * Ours -> reference: what we produce (with fresh random keys) must be accepted by @turnkey/crypto,
 * the implementation the service's enclave is compatible with. Test-only devDependency.
 */
import {beforeAll, describe, expect, it} from 'vitest'

import {
  bytesToHex,
  decryptOtpBundle,
  encryptCredentialBundle,
  encryptExportBundle,
  encryptOtpBundle,
  generateP256KeyPair,
  hexToBytes,
  parseStamp,
  stamp,
  utf8Decode,
} from '../../../src/lib/wallet/index.js'
import {vectors} from './vectors.js'

type Turnkey = typeof import('@turnkey/crypto')
let tk: Turnkey

beforeAll(async () => {
  tk = await import('@turnkey/crypto')
})

const pin = vectors.keys.quorum.publicKeyUncompressed
const payloads = [...new Set(vectors.stamps.map((v) => v.payload))]

describe('stamps -> verifyStampSignature', () => {
  it.each(payloads.map((p) => [JSON.stringify(p).slice(0, 40), p] as const))(
    '%s: fresh keys, both S modes',
    async (_label, payload) => {
      for (let i = 0; i < 4; i++) {
        const {privateKey, publicKeyCompressed} = generateP256KeyPair()
        for (const lowS of [false, true]) {
          const parsed = parseStamp(stamp(payload, privateKey, {lowS}))
          expect(parsed.publicKey).toBe(bytesToHex(publicKeyCompressed))
          await expect(tk.verifyStampSignature(parsed.publicKey, parsed.signature, payload)).resolves.toBe(true)
          await expect(tk.verifyStampSignature(parsed.publicKey, parsed.signature, `${payload} `)).resolves.toBe(false)
        }
      }
    },
  )
})

describe('OTP bundle -> hpkeDecrypt', () => {
  it.each(vectors.otp.vectors.map((v) => [v.name, v] as const))('%s: fresh ephemeral key', async (_n, v) => {
    const tek = generateP256KeyPair()
    const publicKey = bytesToHex(
      v.publicKeyInPlaintext.startsWith('04') ? tek.publicKeyUncompressed : tek.publicKeyCompressed,
    )
    const bundle = await encryptOtpBundle({
      targetBundle: v.otpEncryptionTargetBundle,
      otpCode: '007007',
      publicKey,
      pinnedQuorumKey: pin,
    })
    const {encappedPublic, ciphertext} = JSON.parse(bundle) as {encappedPublic: string; ciphertext: string}
    expect(encappedPublic).not.toBe(v.ephemeralPublicKeyUncompressed)
    const plaintext = tk.hpkeDecrypt({
      ciphertextBuf: hexToBytes(ciphertext),
      encappedKeyBuf: hexToBytes(encappedPublic),
      receiverPriv: vectors.keys.otpTarget.privateKey,
    })
    expect(utf8Decode(plaintext)).toBe(`{"otp_code":"007007","public_key":"${publicKey}"}`)
  })

  it('and the reverse: the reference encryptOtpCodeToBundle opens with decryptOtpBundle', async () => {
    const v = vectors.otp.vectors[0]!
    const bundle = await tk.encryptOtpCodeToBundle('424242', v.otpEncryptionTargetBundle, v.publicKeyInPlaintext, pin)
    expect(await decryptOtpBundle(bundle, v.targetPrivateKey)).toEqual({
      otp_code: '424242',
      public_key: v.publicKeyInPlaintext,
    })
  })
})

describe('credential bundle -> decryptCredentialBundle', () => {
  it('fresh session key, client key and ephemeral key', async () => {
    for (let i = 0; i < 4; i++) {
      const session = generateP256KeyPair()
      const client = generateP256KeyPair()
      const clientKey = i % 2 === 0 ? client.publicKeyUncompressed : client.publicKeyCompressed
      const bundle = await encryptCredentialBundle(session.privateKey, clientKey)
      expect(tk.decryptCredentialBundle(bundle, bytesToHex(client.privateKey))).toBe(bytesToHex(session.privateKey))
    }
  })
})

describe('signed export bundle -> decryptExportBundle', () => {
  it.each(vectors.exportBundles.map((v) => [v.name, v] as const))(
    '%s: fresh recipient and ephemeral key',
    async (_n, v) => {
      const recipient = generateP256KeyPair()
      const isMnemonic = v.kind === 'mnemonic'
      const envelope = await encryptExportBundle({
        ...(isMnemonic ? {mnemonic: v.expectedPlaintext!} : {privateKey: v.expectedPlaintextHex}),
        recipientPublicKey: recipient.publicKeyUncompressed,
        quorumPrivateKey: vectors.keys.quorum.privateKey,
        organizationId: 'org-fresh',
      })
      const result = await tk.decryptExportBundle({
        exportBundle: envelope,
        embeddedKey: bytesToHex(recipient.privateKey),
        organizationId: 'org-fresh',
        dangerouslyOverrideSignerPublicKey: pin,
        returnMnemonic: isMnemonic,
      })
      expect(result).toBe(isMnemonic ? v.expectedPlaintext : v.expectedPlaintextHex)
    },
  )
})
