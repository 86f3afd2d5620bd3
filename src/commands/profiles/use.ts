import {Args} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {useProfile} from '../../lib/config.js'

export default class ProfilesUse extends BaseCommand<typeof ProfilesUse> {
  static override summary = 'Make a profile the active one'
  static override examples = ['<%= config.bin %> profiles use sandbox', '<%= config.bin %> profiles use local']
  static override args = {name: Args.string({description: 'profile name', required: true})}

  async run() {
    await useProfile(this.args.name, this.ctx.env)
    this.out.success(`Active profile: ${this.args.name}`)
    return {profile: this.args.name, active: true}
  }
}
