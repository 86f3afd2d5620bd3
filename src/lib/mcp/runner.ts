import {spawn} from 'node:child_process'
import type {Config} from '@oclif/core'
import {configCommands} from '../command-lookup.js'
import {runInProcess} from '../in-process.js'

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
          env: toolEnv(baseEnv, env),
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        const out: Buffer[] = []
        const err: Buffer[] = []
        child.stdout.on('data', (c: Buffer) => out.push(c))
        child.stderr.on('data', (c: Buffer) => err.push(c))
        child.on('error', reject)
        child.on('close', (code) => {
          const doc = documentOf(Buffer.concat(out).toString('utf8'))
          resolve({code: code ?? 1, doc, stderr: Buffer.concat(err).toString('utf8')})
        })
      }),
  }
}

/**
 * Runs a command in the server's own process (in-process.ts) with exactly what the child would
 * get: the same argv (with the server's --profile/--base-url and --json), the same environment,
 * no stdin, no terminal. The command is the one oclif would run for that command line (this
 * process's config holds every command: bin/run.js loads the full bundle for `svc mcp`), so its
 * checks, authorization answers, history and exit codes are the CLI's. Only one command runs in
 * the process at a time (the Io is per process): a call that comes while one runs gets a child
 * process (`fallback`), so a long `--wait` never holds up another tool.
 */
export function inProcessRunner(
  config: Config,
  baseEnv: NodeJS.ProcessEnv,
  globalFlags: string[],
  fallback: Runner,
): Runner {
  let busy = false
  const commands = configCommands(config)
  return {
    async run(argv, env = {}) {
      if (busy) return fallback.run(argv, env)
      busy = true // before the first await: a concurrent call sees it
      let found
      try {
        found = await commands(argv)
      } finally {
        if (!found) busy = false
      }
      if (!found) return fallback.run(argv, env)
      try {
        const run = await runInProcess(found.Cmd, [...found.rest, ...globalFlags, '--json'], config, {
          env: toolEnv(baseEnv, env),
        })
        return {code: run.code, doc: documentOf(run.stdout), stderr: run.stderr}
      } finally {
        busy = false
      }
    },
  }
}

/** A tool's command runs on the server's environment and the call's, never prompting, without colour. */
function toolEnv(baseEnv: NodeJS.ProcessEnv, env: Record<string, string>): NodeJS.ProcessEnv {
  return {...baseEnv, ...env, SVC_NO_INPUT: '1', NO_COLOR: '1'}
}

/** stdout parsed: the --json document (undefined when none was printed; the text when it is not JSON). */
function documentOf(stdout: string): unknown {
  const text = stdout.trim()
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return {output: text}
  }
}
