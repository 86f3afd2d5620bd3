import {spawn} from 'node:child_process'

export interface CliRun {
  code: number
  /** stdout parsed: the command's --json document (undefined when it printed none). */
  doc: unknown
  stderr: string
}

export interface Runner {
  run(argv: string[], env?: Record<string, string>): Promise<CliRun>
}

/**
 * Runs a command of this very binary, the way an operator's script does (`svc <argv> --json`), so a
 * tool goes through the same path as the CLI: the same checks, authorization answers, banners,
 * audit and exit codes. stdin is closed and prompts are off: a tool never waits on a person.
 * The child inherits the server's environment and profile (`globalFlags`: --profile, --base-url) and no more.
 */
export function cliRunner(bin: string, baseEnv: NodeJS.ProcessEnv, globalFlags: string[]): Runner {
  return {
    run: (argv, env = {}) =>
      new Promise((resolve, reject) => {
        const args = [bin, ...argv, ...globalFlags, '--json']
        const child = spawn(process.execPath, args, {
          env: {...baseEnv, ...env, SVC_NO_INPUT: '1', NO_COLOR: '1'},
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        const out: Buffer[] = []
        const err: Buffer[] = []
        child.stdout.on('data', (c: Buffer) => out.push(c))
        child.stderr.on('data', (c: Buffer) => err.push(c))
        child.on('error', reject)
        child.on('close', (code) => {
          const stdout = Buffer.concat(out).toString('utf8').trim()
          let doc: unknown
          try {
            doc = stdout ? JSON.parse(stdout) : undefined
          } catch {
            doc = {output: stdout}
          }
          resolve({code: code ?? 1, doc, stderr: Buffer.concat(err).toString('utf8')})
        })
      }),
  }
}
