import {p256} from '@noble/curves/nist.js'
import {describe, expect, it} from 'vitest'

import {
  decryptExportBundle,
  encryptExportBundle,
  parseSignedEnvelope,
  publicKeyFromPrivate,
  WalletCryptoError,
  type WalletCryptoErrorCode,
} from '../../../src/lib/wallet/index.js'
import {caught, sOf, vectors} from './vectors.js'

const pin = vectors.keys.quorum.publicKeyUncompressed
const recipient = vectors.keys.recipient
const twelveWords = vectors.exportBundles[0]!.expectedPlaintext!
const N = p256.Point.CURVE().n

describe('decryptExportBundle() on the export vectors', () => {
  it.each(vectors.exportBundles.map((v) => [v.name, v] as const))(
    '%s decrypts to the expected plaintext',
    async (_n, v) => {
      const opts = {pinnedQuorumKey: v.quorumPublicKey, organizationId: v.organizationId}
      if (v.kind === 'mnemonic') {
        expect(await decryptExportBundle(v.encryptedWalletCredentials, v.recipientPrivateKey, opts)).toEqual({
          kind: 'mnemonic',
          mnemonic: v.expectedPlaintext,
          organizationId: 'org-test-0001',
          trust: 'pinned',
        })
      } else {
        expect(
          await decryptExportBundle(v.encryptedWalletCredentials, v.recipientPrivateKey, {...opts, kind: 'privateKey'}),
        ).toEqual({
          kind: 'privateKey',
          privateKeyHex: vectors.keys.exportedKey.privateKey,
          organizationId: 'org-test-0001',
          trust: 'pinned',
        })
      }
    },
  )

  it('a raw-key export is not mistaken for a mnemonic', async () => {
    const v = vectors.exportBundles.find((e) => e.kind === 'hex-key')!
    const error = (await caught(() =>
      decryptExportBundle(v.encryptedWalletCredentials, v.recipientPrivateKey, {pinnedQuorumKey: pin}),
    )) as WalletCryptoError
    expect(error.code).toBe('NOT_BIP39')
    expect(error.message).toMatch(/not a valid English BIP-39 mnemonic.*decrypt it as a private key/)
    expect(error.message).not.toContain(v.expectedPlaintextHex)
  })
})

describe('exportNegative vectors', () => {
  const expectedCode: Record<string, WalletCryptoErrorCode> = {
    'corrupted dataSignature': 'ENVELOPE_SIGNATURE_INVALID',
    'data modified after signing': 'ENVELOPE_SIGNATURE_INVALID',
    'enclaveQuorumPublic is not the pinned key': 'QUORUM_KEY_MISMATCH',
    'organizationId mismatch (caller expects org-other)': 'ORGANIZATION_MISMATCH',
    'ciphertext tampered, validly re-signed': 'DECRYPT_FAILED',
    'sandbox envelope with empty dataSignature/enclaveQuorumPublic': 'ENVELOPE_UNSIGNED',
  }

  it('are all mapped', () => {
    expect(vectors.exportNegative.map((v) => v.name).sort()).toEqual(Object.keys(expectedCode).sort())
    expect(vectors.exportNegative.every((v) => !v.oracle.ok)).toBe(true)
  })

  it.each(vectors.exportNegative.map((v) => [v.name, v] as const))('%s is rejected with its code', async (name, v) => {
    const opts = {pinnedQuorumKey: pin, organizationId: v.expectedOrganizationId ?? 'org-test-0001'}
    const error = (await caught(() =>
      decryptExportBundle(v.encryptedWalletCredentials, recipient.privateKey, opts),
    )) as WalletCryptoError
    expect(error).toBeInstanceOf(WalletCryptoError)
    expect(error.code).toBe(expectedCode[name])
    expect(error.message).not.toMatch(/egg|drastic|lottery/)
    expect(error.message).not.toContain(recipient.privateKey)
  })

  it('the organization mismatch names both ids', async () => {
    const v = vectors.exportNegative.find((e) => e.expectedOrganizationId)!
    const error = (await caught(() =>
      decryptExportBundle(v.encryptedWalletCredentials, recipient.privateKey, {
        pinnedQuorumKey: pin,
        organizationId: 'org-other',
      }),
    )) as WalletCryptoError
    expect(error.message).toBe('the export bundle is for organization "org-test-0001", expected "org-other"')
  })

  it('the sandbox envelope decrypts only with allowUnsigned', async () => {
    const v = vectors.exportNegative.find((e) => e.expectedPlaintextIfUnverified)!
    const result = await decryptExportBundle(v.encryptedWalletCredentials, recipient.privateKey, {
      allowUnsigned: true,
      organizationId: 'org-test-0001',
    })
    expect(result).toEqual({
      kind: 'mnemonic',
      mnemonic: v.expectedPlaintextIfUnverified,
      organizationId: 'org-test-0001',
      trust: 'unsigned',
    })
  })

  it('the pin-mismatch vector swaps only the key, so even unpinned its signature fails', async () => {
    const v = vectors.exportNegative.find((e) => e.name === 'enclaveQuorumPublic is not the pinned key')!
    const error = (await caught(() =>
      decryptExportBundle(v.encryptedWalletCredentials, recipient.privateKey),
    )) as WalletCryptoError
    expect(error.code).toBe('ENVELOPE_SIGNATURE_INVALID')
  })

  it('without a pin, an impostor that signs with its own key passes as integrity-only (why production must pin)', async () => {
    const impostor = await encryptExportBundle({
      mnemonic: twelveWords,
      recipientPublicKey: recipient.publicKeyUncompressed,
      quorumPrivateKey: vectors.keys.tek.privateKey,
      organizationId: 'org-test-0001',
    })
    expect(await decryptExportBundle(impostor, recipient.privateKey)).toMatchObject({
      mnemonic: twelveWords,
      trust: 'unpinned',
    })
    const error = (await caught(() =>
      decryptExportBundle(impostor, recipient.privateKey, {pinnedQuorumKey: pin}),
    )) as WalletCryptoError
    expect(error.code).toBe('QUORUM_KEY_MISMATCH')
    expect(error.message).toContain(vectors.keys.tek.publicKeyUncompressed)
  })
})

describe('non-BIP-39 plaintext', () => {
  it.each([
    ['trailing newline', `${twelveWords}\n`],
    ['double space', twelveWords.replace(' ', '  ')],
    ['bad checksum', twelveWords.replace('lottery', 'abandon')],
    ['unknown word', twelveWords.replace('egg', 'eggs')],
    ['11 words', twelveWords.split(' ').slice(1).join(' ')],
  ])('%s is rejected with NOT_BIP39 and never echoed', async (_name, plaintext) => {
    // Sealed as a raw-key export so the emulator-side BIP-39 check does not stop it first.
    const envelope = await encryptExportBundle({
      privateKey: new TextEncoder().encode(plaintext),
      recipientPublicKey: recipient.publicKeyUncompressed,
      quorumPrivateKey: vectors.keys.quorum.privateKey,
      organizationId: 'org-test-0001',
    })
    const error = (await caught(() =>
      decryptExportBundle(envelope, recipient.privateKey, {pinnedQuorumKey: pin}),
    )) as WalletCryptoError
    expect(error.code).toBe('NOT_BIP39')
    expect(error.message).not.toContain('egg')
  })

  it('invalid UTF-8 is NOT_BIP39 too', async () => {
    const envelope = await encryptExportBundle({
      privateKey: 'ff'.repeat(32),
      recipientPublicKey: recipient.publicKeyUncompressed,
      quorumPrivateKey: null,
      organizationId: 'org-test-0001',
    })
    const error = (await caught(() =>
      decryptExportBundle(envelope, recipient.privateKey, {allowUnsigned: true}),
    )) as WalletCryptoError
    expect(error.code).toBe('NOT_BIP39')
  })
})

describe('encryptExportBundle()', () => {
  it.each(vectors.exportBundles.map((v) => [v.name, v] as const))(
    '%s: byte-identical data with the injected ephemeral key',
    async (_n, v) => {
      const secret = v.kind === 'mnemonic' ? {mnemonic: v.expectedPlaintext!} : {privateKey: v.expectedPlaintextHex}
      const envelope = await encryptExportBundle({
        ...secret,
        recipientPublicKey: publicKeyFromPrivate(v.recipientPrivateKey, false),
        quorumPrivateKey: vectors.keys.quorum.privateKey,
        organizationId: v.organizationId,
        ephemeralPrivateKey: v.ephemeralPrivateKey,
      })
      const ours = parseSignedEnvelope(envelope)
      const theirs = parseSignedEnvelope(v.encryptedWalletCredentials)
      expect(ours.data).toBe(theirs.data)
      if (v.signatureIsHighS && sOf(ours.dataSignature) !== sOf(theirs.dataSignature)) {
        // The generator flipped S to get a high-S case; RFC 6979 gives the low-S twin here.
        expect(sOf(theirs.dataSignature)).toBe(N - sOf(ours.dataSignature))
      } else {
        expect(envelope).toBe(v.encryptedWalletCredentials)
      }
    },
  )

  it('refuses to export a mnemonic that is not BIP-39', async () => {
    const error = (await caught(() =>
      encryptExportBundle({
        mnemonic: 'not a mnemonic',
        recipientPublicKey: recipient.publicKeyUncompressed,
        quorumPrivateKey: null,
        organizationId: 'o',
      }),
    )) as WalletCryptoError
    expect(error.code).toBe('NOT_BIP39')
    expect(error.message).toBe('the mnemonic to export is not a valid English BIP-39 mnemonic')
  })
})
