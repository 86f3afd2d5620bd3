import {internalAccountPatchRequest, walletExportRequest} from '../../../lib/schemas/wallet.js'
import {encryptExportBundle} from '../../../lib/wallet/index.js'
import {HttpError, invalid, notFound, validate} from '../../http-error.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import type {InternalAccount} from '../internal-accounts.js'
import {assertPublicKey} from './sessions.js'
import {signedRetry} from './signed-retry.js'
import {getWalletAccount, organizationId, quorumPrivateKey, walletSeed} from './state.js'

/**
 * POST /internal-accounts/{id}/export: signed by a session of the wallet; 200 carries the mnemonic
 * HPKE-sealed to `clientPublicKey` inside an envelope signed by the quorum key. Nothing is stored,
 * so under PROCESSING only the re-send produces it (spec 5.4 rule 4).
 */
export function exportWallet(req: EmuRequest, accountId: string): Promise<EmuResponse> {
  const ctx = req.ctx
  const body = validate(walletExportRequest, req.body)
  assertPublicKey(body.clientPublicKey, 'clientPublicKey')
  return signedRetry(
    req,
    () => {
      const account = getWalletAccount(ctx, accountId)
      if (!walletSeed(ctx, account.id))
        throw new HttpError(409, 'WALLET_NOT_PROVISIONED', `${account.id} has no wallet seed`)
      return {
        operation: 'wallet.export',
        resourceType: 'INTERNAL_ACCOUNT',
        resourceId: account.id,
        signer: {kind: 'account', accountIds: [account.id]},
        deliverOnResend: true,
      }
    },
    async () => {
      const encryptedWalletCredentials = await encryptExportBundle({
        mnemonic: walletSeed(ctx, accountId)!,
        recipientPublicKey: body.clientPublicKey,
        quorumPrivateKey: quorumPrivateKey(ctx),
        organizationId: organizationId(ctx),
      })
      return {status: 200, body: {id: accountId, encryptedWalletCredentials}}
    },
  )
}

/** PATCH /internal-accounts/{id} {privateEnabled}: embedded wallets only, signed retry → 200 InternalAccount. */
export function updateWalletPrivacy(req: EmuRequest, accountId: string): Promise<EmuResponse> {
  const ctx = req.ctx
  const account = ctx.db.get<InternalAccount>('internalAccounts', accountId)
  if (!account) throw notFound('ACCOUNT_NOT_FOUND', `Internal account ${accountId}`)
  const body = validate(internalAccountPatchRequest, req.body)
  if (account.type !== 'EMBEDDED_WALLET') {
    throw invalid([
      {field: 'privateEnabled', message: `applies to EMBEDDED_WALLET accounts only; ${accountId} is ${account.type}`},
    ])
  }
  return signedRetry(
    req,
    () => ({
      operation: 'internal_account.update',
      resourceType: 'INTERNAL_ACCOUNT',
      resourceId: accountId,
      signer: {kind: 'account', accountIds: [accountId]},
    }),
    () => {
      const current = getWalletAccount(ctx, accountId)
      const next = {...current, privateEnabled: body.privateEnabled, updatedAt: ctx.iso()}
      ctx.db.put('internalAccounts', accountId, next)
      return {status: 200, body: next}
    },
  )
}
