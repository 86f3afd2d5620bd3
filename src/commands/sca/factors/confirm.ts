import {Flags} from '@oclif/core'
import {confirmEnrolment} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, readJsonInput} from '../../../lib/flags.js'
import {codeFlag, customerArg} from '../../../lib/workflows/sca/flags.js'
import {scaConfirmRequest} from '../../../lib/schemas/sca.js'
import {redact} from '../../../lib/secret.js'
import {checkWith} from '../../../lib/validate.js'
import {readTotpInput} from '../../../lib/workflows/sca/flags.js'

export default class ScaFactorsConfirm extends BaseCommand<typeof ScaFactorsConfirm> {
  static override summary =
    'Finish an SCA factor enrolment: TOTP with its secret and first code, PASSKEY with the credential the device made'
  static override examples = [
    '<%= config.bin %> sca factors confirm Customer:… --type PASSKEY --credential @credential.json --origin https://localhost',
    '<%= config.bin %> sca factors confirm Customer:… --type TOTP --secret-file totp-secret.txt --code -',
    '<%= config.bin %> sca factors confirm Customer:… --type TOTP --secret-stdin --code 123456 < totp-secret.txt',
  ]
  static override args = customerArg
  static override flags = {
    type: Flags.string({description: 'factor being enrolled', options: ['TOTP', 'PASSKEY'], required: true}),
    'secret-file': Flags.string({
      description:
        'TOTP: a file holding the shared secret from `sca factors enrol --show-secret` (on a terminal, without it, a hidden prompt asks)',
    }),
    'secret-stdin': Flags.boolean({description: 'TOTP: read the shared secret from stdin'}),
    // Refused with a pointer to the safe ways: a long-lived secret on argv lands in shell history and ps.
    secret: Flags.string({
      hidden: true,
      description: 'no longer accepted: use --secret-file, --secret-stdin or the prompt',
    }),
    code: codeFlag,
    credential: Flags.string({description: 'PASSKEY: the WebAuthn credential JSON (inline, @file or -)'}),
    origin: Flags.string({description: 'PASSKEY: the origin the credential was made against'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    let body: Record<string, unknown>
    if (f.type === 'TOTP') {
      const {secret, code} = await readTotpInput({
        file: f['secret-file'],
        stdin: f['secret-stdin'],
        code: f.code,
        legacyFlag: f.secret,
      })
      body = {type: 'TOTP', secret: secret.reveal(), code: code.reveal()}
    } else
      body = {
        type: 'PASSKEY',
        origin: f.origin,
        credential: f.credential === undefined ? undefined : readJsonInput(f.credential, '--credential'),
      }
    const checked = checkWith(scaConfirmRequest, body)
    const req = confirmEnrolment(this.args.customerId, checked)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const done = await this.ctx.client.call(req)
    this.out.success(`${f.type} enrolled for ${this.args.customerId}`)
    // TOTP recovery codes are secrets: they are not printed (the Service shows them once; keep them with the customer).
    return redact(done)
  }
}
