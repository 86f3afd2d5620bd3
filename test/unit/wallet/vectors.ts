/** Loads ../shared/vectors/wallet-crypto.json (layout: ../shared/spec/wallet-crypto.md section 7). */
import {p256} from '@noble/curves/nist.js'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {hexToBytes} from '../../../src/lib/wallet/index.js'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

export interface KeyVector {
  privateKey: string
  publicKeyCompressed: string
  publicKeyUncompressed: string
}

export interface StampVector {
  name: string
  runtime: 'purejs' | 'node'
  deterministic: boolean
  privateKey: string
  publicKey: string
  payload: string
  payloadUtf8Hex: string
  sha256OfPayloadHex: string
  signatureDerHex: string
  signatureIsHighS: boolean
  stampJson: string
  stampHeaderValue: string
}

export interface NegativeStampVector {
  name: string
  publicKey: string
  signatureDerHex: string
  payload: string
  expectValid: boolean
  oracleResult: boolean
}

export interface OtpVector {
  name: string
  otpEncryptionTargetBundle: string
  targetPrivateKey: string
  otpCode: string
  publicKeyInPlaintext: string
  plaintext: string
  plaintextHex: string
  ephemeralPrivateKey: string
  ephemeralPublicKeyUncompressed: string
  encryptedOtpBundle: string
}

export interface CredentialVector {
  name: string
  recipientPrivateKey: string
  ephemeralPrivateKey?: string | null
  bundle: string
  decodedPayloadHex: string
  expectedPlaintextHex: string
  expectedSessionPublicKeyCompressed?: string
}

export interface ExportVector {
  name: string
  kind: 'mnemonic' | 'hex-key'
  recipientPrivateKey: string
  organizationId: string
  quorumPublicKey: string
  ephemeralPrivateKey: string
  signatureIsHighS: boolean
  encryptedWalletCredentials: string
  signedData: {organizationId: string; encappedPublic: string; ciphertext: string}
  expectedPlaintext?: string
  expectedPlaintextHex: string
}

export interface ExportNegativeVector {
  name: string
  encryptedWalletCredentials: string
  expect: string
  expectedOrganizationId?: string
  expectedPlaintextIfUnverified?: string
  oracle: {ok: boolean; error: string}
}

export interface WalletVectors {
  keys: Record<
    | 'sessionA'
    | 'sessionB'
    | 'sessionC'
    | 'recipient'
    | 'otpTarget'
    | 'quorum'
    | 'tek'
    | 'sessionKeyPlain'
    | 'exportedKey',
    KeyVector
  >
  stamps: StampVector[]
  negativeStamps: NegativeStampVector[]
  otp: {signedData: Record<string, string>; vectors: OtpVector[]}
  credentialBundles: CredentialVector[]
  exportBundles: ExportVector[]
  exportNegative: ExportNegativeVector[]
}

export const vectors: WalletVectors = JSON.parse(
  readFileSync(path.resolve(repoRoot, '../shared/vectors/wallet-crypto.json'), 'utf8'),
) as WalletVectors

/** Runs `fn` and returns what it threw, so tests can assert on code and message. */
export async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw, but it returned')
}

/** The s component of a DER-encoded P-256 signature (to check low-S normalisation). */
export const sOf = (derHex: string) => p256.Signature.fromBytes(hexToBytes(derHex), 'der').s
