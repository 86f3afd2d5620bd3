import {Args} from '@oclif/core'
import {deviceCodeStatusOf} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {deviceCode} from '../../../lib/schemas/agents.js'
import {checkWith} from '../../../lib/validate.js'

export default class AgentsDeviceCodeStatus extends BaseCommand<typeof AgentsDeviceCodeStatus> {
  static override summary = 'Whether a device code was redeemed by its agent'
  static override examples = ['<%= config.bin %> agents device-code status ABCD-2345 --json']
  static override args = {code: Args.string({description: 'the device code (ABCD-2345)', required: true})}

  async run() {
    const status = await this.ctx.client.call(deviceCodeStatusOf(checkWith(deviceCode, this.args.code, 'code')))
    this.out.print(`${status.code}  ${status.redeemed ? 'redeemed' : 'not redeemed yet'}`)
    return status
  }
}
