import {exportWallet, updateWalletPrivacy} from '../domain/wallet/account.js'
import {executeChecks} from '../domain/quote-execute.js'
import {checkWalletQuoteSignature} from '../domain/wallet/quote-signing.js'
import {registerSettler, settleNow} from '../domain/wallet/signed-retry.js'
import {provisionEmbeddedWallet, quorumPublicKeyHex} from '../domain/wallet/state.js'
import type {Emulator} from '../emulator.js'
import type {Router} from '../router.js'
import {customerHooks} from './customers.js'

// Module scope: one hook per process, however many emulators a test run starts.
customerHooks.created.push(provisionEmbeddedWallet)
executeChecks.push(checkWalletQuoteSignature)

/** The local enclave: wallet export, privacy, and the quorum key clients pin for the sandbox. */
export function registerWallet(router: Router, emu: Emulator): void {
  registerSettler(emu)
  router.post('/internal-accounts/:id/export', (req) => exportWallet(req, req.params.id))
  router.patch('/internal-accounts/:id', (req) => updateWalletPrivacy(req, req.params.id))
  router.get('/sandbox/quorum-public-key', () => ({status: 200, body: {publicKey: quorumPublicKeyHex(emu)}}))
  // Settle a still-processing signed retry now rather than at walletProcessingDelayMs.
  router.post('/sandbox/wallet-requests/:requestId/settle', (req) => settleNow(emu, req.params.requestId))
}
