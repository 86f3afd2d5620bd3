import {AsyncLocalStorage} from 'node:async_hooks'
import {readFileSync} from 'node:fs'
import type {CommandFinder} from './command-lookup.js'

type Stream = NodeJS.WritableStream & {isTTY?: boolean; columns?: number}

/**
 * Everything a command takes from the process it runs in, in one object (gh's IOStreams and
 * factory): environment, the three streams and whether they are terminals, the clock, sleeping,
 * the HTTP dispatcher, signals and exiting. The binary runs on `processIo()`; a test runs a command
 * in its own process on an `Io` of its making (test/helpers/run-command.ts), so nothing in
 * src/lib or src/commands reads `process.*` for these.
 */
export interface Io {
  env: NodeJS.ProcessEnv
  stdout: Stream
  stderr: Stream
  stdinIsTTY: boolean
  /** All of standard input (a pipe, a file, a flow step's `input`). */
  readStdin(): Buffer
  now(): number
  sleep(ms: number): Promise<void>
  /** undici dispatcher for the API client (undefined: the client's own keep-alive agent). */
  dispatcher?: import('undici').Dispatcher
  /** Runs `fn` once on the signal (with the signal's name); returns a function that removes it. */
  onSignal(signal: 'SIGINT' | 'SIGTERM', fn: (signal: string) => void): () => void
  /** Ends the run with this code once the streams are written (the process itself, for the binary). */
  exit(code: number): void
  /**
   * The commands of this process, for running one of them in it (a flow's `svc:` step): undefined
   * in the binary (oclif's config finds them); a test's own, from src/ (test/helpers/run-command.ts).
   */
  commands?: CommandFinder
}

export function processIo(): Io {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    readStdin: () => readFileSync(0),
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    onSignal(signal, fn) {
      process.once(signal, fn)
      return () => process.removeListener(signal, fn)
    },
    exit(code) {
      process.exitCode = code
      // Let stdout/stderr drain (pipes are asynchronous), then stop.
      process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
    },
  }
}

/**
 * The Io of each in-process run, per asynchronous context rather than per process: a flow step's
 * command that is abandoned at its timeout (scenario/run/svc-step.ts) keeps its own Io while the
 * flow that gave up on it goes on with the flow's.
 */
const running = new AsyncLocalStorage<Io>()
let processDefault: Io | undefined

/** The Io of the command running now: the process's, unless a test runs one in-process. */
export function io(): Io {
  return running.getStore() ?? (processDefault ??= processIo())
}

/** The environment of the command running now (the default of every `env = ...` parameter in src/lib). */
export function currentEnv(): NodeJS.ProcessEnv {
  return io().env
}

/** Standard input as text. */
export function readStdinText(): string {
  return io().readStdin().toString('utf8')
}

/** Runs `fn` with `next` as the current Io (for `fn` and everything it starts). */
export function withIo<T>(next: Io, fn: () => T): T {
  return running.run(next, fn)
}
