import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {clearRunning, runningPid, stopProcess} from '../../lib/sandbox-process.js'

export default class SandboxStop extends BaseCommand<typeof SandboxStop> {
  static override summary = 'Stop a local sandbox started with --detach'
  static override examples = ['<%= config.bin %> sandbox stop']
  static override flags = {'data-dir': Flags.string({description: 'data dir of the sandbox to stop'})}

  async run() {
    const dataDir = this.flags['data-dir'] ?? sandboxDataDir()
    const pid = runningPid(dataDir)
    if (!pid) {
      this.out.info('No local sandbox is running for ' + dataDir)
      return {stopped: false}
    }
    await stopProcess(pid)
    clearRunning(dataDir)
    this.out.success(`Stopped the local sandbox (pid ${pid})`)
    return {stopped: true, pid}
  }
}
