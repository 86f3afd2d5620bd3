import {listFactors} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'
import {renderTable} from '../../../lib/output/render.js'

export default class ScaFactorsList extends BaseCommand<typeof ScaFactorsList> {
  static override summary = "List a customer's SCA factors (SMS_OTP is always there; TOTP and one PASSKEY are enrolled)"
  static override examples = ['<%= config.bin %> sca factors list Customer:… --json']
  static override args = customerArg

  async run() {
    const list = await this.ctx.client.call(listFactors(this.args.customerId))
    await renderTable(
      this.out,
      ['factor', 'credentialId', 'name'],
      list.factors.map((f) => [f.factor, f.credentialId, f.name]),
      {what: 'SCA factors', hint: 'Enrol one with `svc sca factors enrol`.'},
    )
    return list
  }
}
