import {Writable} from 'node:stream'
import {Errors, type Command, type Config} from '@oclif/core'
import type {CommandClass, CommandFinder} from './command-lookup.js'
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
  /** The commands a command run here may itself run in-process (io.ts `commands`). */
  commands?: CommandFinder
}

/** What a child process would have given: exit code, stdout, stderr. */
export interface InProcessRun {
  code: number
  stdout: string
  stderr: string
}

export type {CommandClass} from './command-lookup.js'

/** A command running in this process: its result once it ends, and the process-level events it may get. */
export interface InProcessHandle {
  done: Promise<InProcessRun>
  /** What it wrote so far and the exit code it asked for, if it did (a run given up on before it ended). */
  sofar(): {stdout: string; stderr: string; exited?: number}
  /**
   * Delivers a signal the way the process would: to the handlers the command registered through
   * io().onSignal, in the command's own context. False when it registered none (a child process
   * would just have died of it).
   */
  signal(name: 'SIGINT' | 'SIGTERM'): boolean
}

/**
 * Runs one command in this process (gh's runF, sf's `new Cmd(argv, config).run()`): the real
 * parsing, context, API client, output layer and history, on an Io of the caller's making, so
 * nothing but the process differs from running `svc` itself. The Io belongs to the run's own
 * asynchronous context (io.ts), so one run never writes into another's streams.
 */
export async function runInProcess(
  Cmd: CommandClass,
  argv: string[],
  config: Config,
  deps: InProcessDeps,
): Promise<InProcessRun> {
  return startInProcess(Cmd, argv, config, deps).done
}

/** `runInProcess` for a caller that may stop waiting for it (a flow step at its timeout or on Ctrl-C). */
export function startInProcess(
  Cmd: CommandClass,
  argv: string[],
  config: Config,
  deps: InProcessDeps,
): InProcessHandle {
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
  const handlers: {signal: string; fn: (signal: string) => void}[] = []
  const io: Io = {
    env: deps.env,
    stdout: sink((s) => (stdout += s), Boolean(deps.stdoutIsTTY)),
    stderr: sink((s) => (stderr += s), Boolean(deps.stderrIsTTY)),
    stdinIsTTY: Boolean(deps.stdinIsTTY),
    readStdin: () => Buffer.from(input),
    now: deps.now ?? Date.now,
    sleep: deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    dispatcher: deps.dispatcher,
    // The host process's own signals never reach a command run here; `signal` below delivers one.
    onSignal(signal, fn) {
      const entry = {signal, fn}
      handlers.push(entry)
      return () => handlers.includes(entry) && handlers.splice(handlers.indexOf(entry), 1)
    },
    exit: (code) => (exited ??= code),
    commands: deps.commands,
  }
  const done = withIo(io, async (): Promise<InProcessRun> => {
    let code: number
    try {
      const cmd = new (Cmd as unknown as new (argv: string[], config: Config) => Command)(argv, config)
      await (cmd as unknown as {_run(): Promise<unknown>})._run()
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
  })
  return {
    done,
    sofar: () => ({stdout, stderr, exited}),
    signal(name) {
      // process.once: each handler runs once, and is gone after.
      const due = handlers.filter((h) => h.signal === name)
      for (const h of due) {
        handlers.splice(handlers.indexOf(h), 1)
        withIo(io, () => h.fn(name))
      }
      return due.length > 0
    },
  }
}
