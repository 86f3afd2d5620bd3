import type {CredentialType} from '../../lib/api/wallet.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {idArg, readJsonInput} from '../../lib/flags.js'
import {walletLoginFlags} from '../../lib/flags-wallet.js'
import {
  finishPasskeyLogin,
  loginWithOauth,
  precheckOidcToken,
  prepareOauth,
  startPasskeyLogin,
} from '../../lib/workflows/wallet/login-extra.js'
import {loginWithOtp, otpSource, resolveCredential} from '../../lib/workflows/wallet/login.js'
import {readSecretInput} from '../../lib/workflows/wallet/input.js'
import {printOauthNonce, printPasskeyChallenge, renderSession} from '../../lib/output/wallet.js'

export default class WalletLogin extends BaseCommand<typeof WalletLogin> {
  static override summary = 'Log in to an embedded wallet: verify a credential and store the session signing key'
  static override description =
    'EMAIL_OTP and SMS_OTP complete in one command (the sandbox OTP 000000 is used automatically). OAUTH ' +
    'takes a fresh OIDC token on stdin (--print-nonce first to bind it). PASSKEY runs in two steps: ' +
    'without --assertion it prints the challenge; with --assertion it verifies.'
  static override examples = [
    '<%= config.bin %> wallet login InternalAccount:0b6f...',
    'echo 000000 | <%= config.bin %> wallet login InternalAccount:0b6f... --type SMS_OTP --otp-stdin',
    '<%= config.bin %> wallet login InternalAccount:0b6f... --type OAUTH --print-nonce',
    'mint-token --nonce <nonce> | <%= config.bin %> wallet login InternalAccount:0b6f... --type OAUTH --oidc-token-stdin',
    '<%= config.bin %> wallet login InternalAccount:0b6f... --type PASSKEY --json > challenge.json',
    '<%= config.bin %> wallet login InternalAccount:0b6f... --type PASSKEY --assertion @assertion.json',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = walletLoginFlags

  async run() {
    const f = this.flags
    const accountId = this.args.accountId
    // Read and check a token before any request, so a malformed or stale one sends nothing.
    const token = f['oidc-token-stdin']
      ? await readSecretInput(this.ctx, {stdin: true, flag: 'oidc-token-stdin', prompt: ''})
      : undefined
    if (token) precheckOidcToken(this.ctx, token)
    const credential = await resolveCredential(this.ctx, accountId, {
      credentialId: f.credential,
      type: f.type as CredentialType | undefined,
    })
    if (credential.type === 'OAUTH') {
      if (f['print-nonce']) {
        const prepared = await prepareOauth(this.ctx, credential, f['legacy-key'])
        printOauthNonce(this.out, prepared.nonce, accountId, credential.id)
        return {credentialId: credential.id, ...prepared}
      }
      const oidc =
        token ?? (await readSecretInput(this.ctx, {stdin: false, flag: 'oidc-token-stdin', prompt: 'OIDC ID token'}))
      return this.done(await loginWithOauth(this.ctx, credential, oidc, f['legacy-key']))
    }
    if (credential.type === 'PASSKEY') {
      if (f.assertion)
        return this.done(await finishPasskeyLogin(this.ctx, credential, readJsonInput(f.assertion, '--assertion')))
      const started = await startPasskeyLogin(this.ctx, credential)
      printPasskeyChallenge(this.out, started, accountId, credential.id)
      return {step: 'PASSKEY_CHALLENGE', credential: credential.id, ...started}
    }
    const otp = otpSource(this.ctx, {
      otpStdin: f['otp-stdin'],
      readStdin: async () => (await readSecretInput(this.ctx, {stdin: true, flag: 'otp-stdin', prompt: ''})).reveal(),
      prompt: async () =>
        (
          await readSecretInput(this.ctx, {
            stdin: false,
            flag: 'otp-stdin',
            prompt: `OTP code sent for ${credential.nickname ?? credential.id}`,
            onAbort: 'the code was not used and no session was created; run the login again for a new code',
          })
        ).reveal(),
    })
    return this.done(await loginWithOtp(this.ctx, credential, {otp, allowUnsigned: f['allow-unsigned-envelope']}))
  }

  private done(result: Awaited<ReturnType<typeof loginWithOtp>>) {
    this.out.success(`Logged in: ${result.session.id}, key stored until ${result.session.expiresAt}`)
    renderSession(this.out, result.session, result.key)
    return {
      session: result.session,
      key: {publicKey: result.key.publicKey, expiresAt: result.key.expiresAt, encrypted: result.key.encrypted},
    }
  }
}
