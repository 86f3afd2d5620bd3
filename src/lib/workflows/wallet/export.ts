import {createHash} from 'node:crypto'
import {exportResponseSchema, walletOps} from '../../api/wallet.js'
import type {Context} from '../../context.js'
import {Secret} from '../../secret.js'
import {bytesToHex, decryptExportBundle, type EnvelopeTrust, generateP256KeyPair} from '../../wallet/index.js'
import {cryptoFailure, engineFor, envelopeTrust, keyStoreFor, requireSession, signerFor} from './common.js'

export interface ExportResult {
  accountId: string
  mnemonic: Secret
  wordCount: number
  /** First 8 hex of SHA-256 of the mnemonic: lets two people compare exports without showing them. */
  fingerprint: string
  trust: EnvelopeTrust
}

export function mnemonicFingerprint(mnemonic: Secret): string {
  return createHash('sha256').update(mnemonic.reveal(), 'utf8').digest('hex').slice(0, 8)
}

/**
 * Spec 5.5: a fresh P-256 export key that lives only in this process (uncompressed on the wire,
 * api-gaps 5.6), the signed retry with PROCESSING re-sends, envelope verification against the
 * trusted quorum key, local decryption and BIP-39 validation.
 */
export async function exportWallet(
  ctx: Context,
  accountId: string,
  opts: {allowUnsigned?: boolean} = {},
): Promise<ExportResult> {
  const keys = keyStoreFor(ctx)
  const session = requireSession(keys, accountId)
  const trust = await envelopeTrust(ctx, opts.allowUnsigned)
  const exportKey = generateP256KeyPair()
  try {
    const op = walletOps.exportWallet(accountId, bytesToHex(exportKey.publicKeyUncompressed))
    const res = await engineFor(ctx).run(op, signerFor(keys, session))
    const body = ctx.client.parse(exportResponseSchema, res.body, 'wallet export')
    const decrypted = await decryptExportBundle(body.encryptedWalletCredentials, exportKey.privateKey, trust).catch(
      (e) => cryptoFailure(e, 'The exported wallet bundle was rejected'),
    )
    if (decrypted.kind !== 'mnemonic') throw new Error('unreachable: wallet exports decrypt to a mnemonic')
    const mnemonic = new Secret(decrypted.mnemonic)
    return {
      accountId: body.id,
      mnemonic,
      wordCount: decrypted.mnemonic.split(' ').length,
      fingerprint: mnemonicFingerprint(mnemonic),
      trust: decrypted.trust,
    }
  } finally {
    exportKey.privateKey.fill(0)
  }
}
