import {exportWallet, updateWalletPrivacy} from '../domain/wallet/account.js'
import {settleNow} from '../domain/wallet/signed-retry-settle.js'
import {quorumPublicKeyHex} from '../domain/wallet/state.js'
import type {Router} from '../router.js'

/** The local enclave: wallet export, privacy, and the quorum key clients pin for the sandbox. */
export function registerWallet(router: Router): void {
  router.handle('exportInternalAccount', (req) => exportWallet(req, req.params.id))
  router.handle('updateInternalAccount', (req) => updateWalletPrivacy(req, req.params.id))
  router.handle('GET /sandbox/quorum-public-key', (_req, ctx) => ({
    status: 200,
    body: {publicKey: quorumPublicKeyHex(ctx)},
  }))
  // Settle a still-processing signed retry now rather than at walletProcessingDelayMs.
  router.handle('POST /sandbox/wallet-requests/{requestId}/settle', (req, ctx) => settleNow(ctx, req.params.requestId))
}
