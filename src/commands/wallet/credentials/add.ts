import {Flags} from '@oclif/core'
import {CREDENTIAL_TYPES, type CredentialType} from '../../../lib/api/wallet.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, readJsonInput} from '../../../lib/flags.js'
import {addCredentialFlow, addCredentialOp} from '../../../lib/workflows/wallet/credentials.js'
import {renderKeyValue} from '../../../lib/output/render.js'
import {withArticle} from '../../../lib/article.js'

export default class WalletCredentialsAdd extends BaseCommand<typeof WalletCredentialsAdd> {
  static override summary = 'Add a credential to a wallet (signed by an existing session) and activate it'
  static override description =
    'EMAIL_OTP and SMS_OTP are activated at once (the new session key is stored). OAUTH takes an OIDC ' +
    'token on stdin; PASSKEY takes the registration from `svc sandbox passkey create` or a browser. Both ' +
    'are then activated with `svc wallet login`.'
  static override examples = [
    '<%= config.bin %> wallet credentials add InternalAccount:0b6f... --type SMS_OTP',
    'mint-token | <%= config.bin %> wallet credentials add InternalAccount:0b6f... --type OAUTH --oidc-token-stdin',
    '<%= config.bin %> wallet credentials add InternalAccount:0b6f... --type PASSKEY --nickname "Ops laptop" --attestation @registration.json',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {
    type: Flags.string({description: 'credential type', options: [...CREDENTIAL_TYPES], required: true}),
    'oidc-token-stdin': Flags.boolean({description: 'OAUTH: read the OIDC ID token from stdin'}),
    nickname: Flags.string({description: "PASSKEY: a name (1-100 letters, digits, spaces, . _ - ' ( ))"}),
    attestation: Flags.string({
      description:
        'PASSKEY: registration JSON (@file, - or inline) with credentialId, clientDataJSON, attestationObject',
    }),
    challenge: Flags.string({
      description: 'PASSKEY: the registration challenge (default: the one in the registration JSON)',
    }),
    'no-activate': Flags.boolean({description: 'EMAIL_OTP/SMS_OTP: only add, do not log in with the new credential'}),
    'allow-unsigned-envelope': Flags.boolean({
      description: 'sandbox only: accept an OTP target bundle with no enclave signature',
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const registration = f.attestation === undefined ? undefined : readJsonInput(f.attestation, '--attestation')
    const type = f.type as CredentialType
    const opts = {
      oidcTokenStdin: f['oidc-token-stdin'],
      nickname: f.nickname,
      registration,
      challenge: f.challenge,
      activate: !f['no-activate'],
      allowUnsigned: f['allow-unsigned-envelope'],
    }
    // The add request only: an OTP credential's activation that follows is a login (`svc wallet login`).
    const op = await addCredentialOp(this.ctx, this.args.accountId, type, {...opts, dryRun: f['dry-run']})
    if (f['dry-run']) return this.dryRun(this.ctx.describe(op))
    this.ctx.banner(`add ${withArticle(f.type)} credential to ${this.args.accountId}`)
    const result = await addCredentialFlow(this.ctx, op, type, opts)
    this.out.success(`Added ${result.credential.id} (${result.credential.type})`)
    renderKeyValue(this.out, [
      ['credential', result.credential.id],
      ['nickname', result.credential.nickname],
      ['session', result.session?.id],
    ])
    if (result.next) this.out.info(`Next: ${result.next}`)
    return result
  }
}
