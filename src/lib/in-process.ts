import {Writable} from 'node:stream'
import {Errors, type Command, type Config} from '@oclif/core'
import {withIo, type Io} from './io.js'

/** What an in-process run takes instead of the process's own (defaults: no terminal, empty stdin, real time). */
export interface InProcessDeps {
  env: NodeJS.ProcessEnv
  /** Standard input (a piped secret, `--data -`). */
  input?: string | Uint8Array
  stdoutIsTTY?: boolean
  stderrIsTTY?: boolean
  stdinIsTTY?: boolean
  columns?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  dispatcher?: import('undici').Dispatcher
}

/** What a child process would have given: exit code, stdout, stderr. */
export interface InProcessRun {
  code: number
  stdout: string
  stderr: string
}

export type CommandClass = typeof Command & {id?: string}

/**
 * Runs one command in this process (gh's runF, sf's `new Cmd(argv, config).run()`): the real
 * parsing, context, API client, output layer and history, on an Io of the caller's making, so
 * nothing but the process differs from running `svc` itself. One at a time per process: the Io is
 * the process's current one while the command runs (io.ts); callers start another only after
 * this one settled (test/helpers/run-command.ts, src/lib/mcp/runner.ts).
 */
export async function runInProcess(
  Cmd: CommandClass,
  argv: string[],
  config: Config,
  deps: InProcessDeps,
): Promise<InProcessRun> {
  let stdout = ''
  let stderr = ''
  const sink = (write: (s: string) => void, isTTY: boolean) =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _enc, cb) {
          write(chunk.toString())
          cb()
        },
      }),
      {isTTY, columns: isTTY ? (deps.columns ?? 80) : undefined},
    )
  let exited: number | undefined
  const input = deps.input ?? ''
  const io: Io = {
    env: deps.env,
    stdout: sink((s) => (stdout += s), Boolean(deps.stdoutIsTTY)),
    stderr: sink((s) => (stderr += s), Boolean(deps.stderrIsTTY)),
    stdinIsTTY: Boolean(deps.stdinIsTTY),
    readStdin: () => Buffer.from(input),
    now: deps.now ?? Date.now,
    sleep: deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    dispatcher: deps.dispatcher,
    // Signals are the host process's; a command run here never ends it.
    onSignal: () => () => {},
    exit: (code) => (exited ??= code),
  }
  let code: number
  try {
    await withIo(io, async () => {
      const cmd = new (Cmd as unknown as new (argv: string[], config: Config) => Command)(argv, config)
      await (cmd as unknown as {_run(): Promise<unknown>})._run()
    })
    code = exited ?? 0
  } catch (error) {
    const oclif = (error as {oclif?: {exit?: number}}).oclif
    if (error instanceof Errors.ExitError || typeof oclif?.exit === 'number') code = oclif?.exit ?? 1
    else {
      stderr += `${(error as Error).stack ?? error}\n`
      code = 1
    }
  }
  return {code, stdout, stderr}
}
