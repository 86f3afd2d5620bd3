import {Flags} from '@oclif/core'
import {confirmEnrolment} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {InputError} from '../../../lib/errors.js'
import {readJsonInput} from '../../../lib/flags.js'
import {codeFlag, customerArg, readScaCode} from '../../../lib/flows/sca.js'
import {scaConfirmRequest} from '../../../lib/schemas/sca.js'
import {redact} from '../../../lib/secret.js'
import {checkWith} from '../../../lib/validate.js'
import {readSecretValue} from '../../../lib/flows/sca.js'

export default class ScaFactorsConfirm extends BaseCommand<typeof ScaFactorsConfirm> {
  static override summary = 'Finish an SCA factor enrolment: TOTP with its secret and first code, PASSKEY with the credential the device made'
  static override examples = [
    '<%= config.bin %> sca factors confirm Customer:… --type PASSKEY --credential @credential.json --origin https://localhost',
    '<%= config.bin %> sca factors confirm Customer:… --type TOTP --secret @totp-secret.txt --code -',
  ]
  static override args = customerArg
  static override flags = {
    type: Flags.string({description: 'factor being enrolled', options: ['TOTP', 'PASSKEY'], required: true}),
    secret: Flags.string({description: 'TOTP: the shared secret from `sca factors enrol`, or @file holding it (keeps it out of shell history)'}),
    code: codeFlag,
    credential: Flags.string({description: 'PASSKEY: the WebAuthn credential JSON (inline, @file or -)'}),
    origin: Flags.string({description: 'PASSKEY: the origin the credential was made against'}),
  }

  async run() {
    const f = this.flags
    let body: Record<string, unknown>
    if (f.type === 'TOTP') {
      const missing = f.secret === undefined ? [{field: 'secret', message: 'is required for TOTP'}] : []
      if (missing.length) throw new InputError(missing)
      body = {type: 'TOTP', secret: readSecretValue(f.secret!), code: readScaCode(f.code)!.reveal()}
    } else body = {type: 'PASSKEY', origin: f.origin, credential: f.credential === undefined ? undefined : readJsonInput(f.credential, '--credential')}
    const checked = checkWith(scaConfirmRequest, body)
    const done = await confirmEnrolment(this.ctx.client, this.args.customerId, checked)
    this.out.success(`${f.type} enrolled for ${this.args.customerId}`)
    // TOTP recovery codes are secrets: they are not printed (the Service shows them once; keep them with the customer).
    return redact(done)
  }
}
