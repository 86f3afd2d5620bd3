import {BaseCommand} from '../lib/base-command.js'

export default class Version extends BaseCommand<typeof Version> {
  static override summary = 'Show the version of svc, the platform and Node (same as `svc --version`)'
  static override description =
    '`svc --version` prints the same line without starting the CLI, and `svc --version --json` the same document as `svc version --json`.'
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version --json']

  async run() {
    // The same document bin/run.js prints for `svc --version --json` without loading oclif.
    const info = {
      name: this.config.name,
      version: this.config.version,
      platform: process.platform,
      arch: process.arch,
      node: process.version,
    }
    this.out.print(this.config.userAgent)
    return info
  }
}
