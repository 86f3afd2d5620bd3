/**
 * Export bundles (`encryptedWalletCredentials`): a signed envelope whose data is
 * {"organizationId","encappedPublic":<130 hex>,"ciphertext":<hex>}; the plaintext is a BIP-39
 * mnemonic (wallet export) or raw key bytes (private-key export).
 */
import {validateMnemonic} from '@scure/bip39'
import {wordlist} from '@scure/bip39/wordlists/english.js'

import {hexField} from './bundle-json.js'
import {type BytesLike, bytesToHex, toBytes, utf8Decode, utf8Encode} from './encoding.js'
import {
  type EnvelopeTrust,
  type EnvelopeTrustOptions,
  makeSignedEnvelope,
  makeUnsignedEnvelope,
  parseSignedEnvelope,
  verifySignedEnvelope,
} from './envelope.js'
import {WalletCryptoError} from './errors.js'
import {hpkeOpen, hpkeSeal} from './hpke.js'

export type ExportKind = 'mnemonic' | 'privateKey'

export interface DecryptExportOptions extends EnvelopeTrustOptions {
  /** Checked against the signed organizationId when given (the reference makes it mandatory). */
  organizationId?: string
  /** Wallet exports carry a mnemonic (the default); private-key exports carry raw key bytes. */
  kind?: ExportKind
}

export type DecryptedExport = {organizationId: string | undefined; trust: EnvelopeTrust} & (
  {kind: 'mnemonic'; mnemonic: string} | {kind: 'privateKey'; privateKeyHex: string}
)

function notBip39(): WalletCryptoError {
  return new WalletCryptoError(
    'NOT_BIP39',
    'the decrypted export is not a valid English BIP-39 mnemonic (word count, word list or checksum); ' +
      'if this is a private-key export, decrypt it as a private key',
  )
}

export async function decryptExportBundle(
  envelopeString: string,
  exportPrivateKey: BytesLike,
  opts: DecryptExportOptions = {},
): Promise<DecryptedExport> {
  const what = 'export bundle'
  const {signedData, trust} = verifySignedEnvelope(parseSignedEnvelope(envelopeString), opts)
  const signedOrganizationId = signedData.organizationId
  if (opts.organizationId !== undefined && signedOrganizationId !== opts.organizationId) {
    throw new WalletCryptoError(
      'ORGANIZATION_MISMATCH',
      `the export bundle is for organization ${JSON.stringify(signedOrganizationId ?? null)}, expected ${JSON.stringify(opts.organizationId)}`,
    )
  }
  const organizationId = typeof signedOrganizationId === 'string' ? signedOrganizationId : undefined
  const enc = hexField(signedData, 'encappedPublic', what)
  const ciphertext = hexField(signedData, 'ciphertext', what)
  const plaintext = await hpkeOpen({enc, ciphertext, recipientPrivateKey: exportPrivateKey})
  if ((opts.kind ?? 'mnemonic') === 'privateKey') {
    return {kind: 'privateKey', privateKeyHex: bytesToHex(plaintext), organizationId, trust}
  }
  let mnemonic: string
  try {
    mnemonic = utf8Decode(plaintext)
  } catch {
    throw notBip39()
  }
  // Strict: single spaces, no trailing newline, valid checksum; the plaintext is returned verbatim.
  if (!validateMnemonic(mnemonic, wordlist)) throw notBip39()
  return {kind: 'mnemonic', mnemonic, organizationId, trust}
}

export type EncryptExportBundleInput = (
  {mnemonic: string; privateKey?: never} | {privateKey: BytesLike; mnemonic?: never}
) & {
  recipientPublicKey: BytesLike
  /** null produces the sandbox shape, with empty signature fields. */
  quorumPrivateKey: BytesLike | null
  organizationId: string
  ephemeralPrivateKey?: BytesLike
}

/** Emulator side: builds the `encryptedWalletCredentials` envelope text. */
export async function encryptExportBundle(input: EncryptExportBundleInput): Promise<string> {
  let plaintext: Uint8Array
  if (input.mnemonic !== undefined) {
    if (!validateMnemonic(input.mnemonic, wordlist)) {
      throw new WalletCryptoError('NOT_BIP39', 'the mnemonic to export is not a valid English BIP-39 mnemonic')
    }
    plaintext = utf8Encode(input.mnemonic)
  } else {
    plaintext = toBytes(input.privateKey, 'private key to export')
  }
  const {enc, ciphertext} = await hpkeSeal({
    plaintext,
    recipientPublicKey: input.recipientPublicKey,
    ephemeralPrivateKey: input.ephemeralPrivateKey,
  })
  // Key order as the enclave writes it.
  const data = {
    organizationId: input.organizationId,
    encappedPublic: bytesToHex(enc),
    ciphertext: bytesToHex(ciphertext),
  }
  return input.quorumPrivateKey === null ? makeUnsignedEnvelope(data) : makeSignedEnvelope(data, input.quorumPrivateKey)
}
