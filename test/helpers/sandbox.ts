import {rmSync} from 'node:fs'
import {join} from 'node:path'
import {Emulator, type EmulatorOptions} from '../../src/emulator/emulator.js'
import type {SandboxSettings} from '../../src/emulator/settings.js'
import type {CliResult} from './cli.js'
import {svcInProcess} from './run-command.js'
import {recordContract} from './contract-recorder.js'
import {closeBeforeRemoval, tempDir} from './temp-dirs.js'

/** How one `svc` run differs from the sandbox's own: `env` is laid over `TestSandbox.env` (undefined removes a variable). */
export interface RunOptions {
  input?: string
  env?: Record<string, string | undefined>
  timeoutMs?: number
  cwd?: string
  /** The clock of an in-process run (test/helpers/fake-time.ts): waits and timeouts on fake time. */
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** A terminal of this many columns on stdout (in-process runs only): tables fitted as a person sees them. */
  stdoutIsTTY?: boolean
  /** stderr and stdin on a terminal too (in-process runs only): what a person at a terminal has. */
  stderrIsTTY?: boolean
  stdinIsTTY?: boolean
  columns?: number
}

/** Leaves out the environment's credentials and base URL: only what `svc login` stored counts. */
export const NO_ENV_CREDENTIALS = {SVC_BASE_URL: undefined, SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined}

export interface TestSandbox {
  emu: Emulator
  url: string
  dir: string
  /** Environment pointing `svc` at this sandbox, with a private config dir and no prompts. */
  env: Record<string, string>
  /** Runs `svc` against this sandbox (its `env`, stdin `input`, ...), in this process when the line names a command (run-command.ts), else the built binary: the one CLI runner of a test file. */
  run(args: string[], opts?: RunOptions): Promise<CliResult>
  /** `run` with --json added, insisting on exit 0: the parsed document. */
  json<T = any>(args: string[], opts?: RunOptions): Promise<T>
  /** Number of HTTP requests the sandbox has seen so far (to prove that nothing was sent). */
  requestCount(): number
  stop(): Promise<void>
  restart(): Promise<TestSandbox>
}

/** What a test may set of the emulator itself besides its settings (a shorter wait for another process's lock, retention). */
export type SandboxOptions = Pick<EmulatorOptions, 'lockWaitMs' | 'retention'>

/** Starts the real emulator in-process on an ephemeral loopback port with a fresh data dir (removed after the test file). */
export async function startSandbox(
  settings: Partial<SandboxSettings> = {},
  dir?: string,
  options: SandboxOptions = {},
): Promise<TestSandbox> {
  const dataDir = dir ?? tempDir('svc-sbx-')
  const emu = await Emulator.start({
    ...options,
    dataDir,
    port: 0,
    recordRequests: true,
    settings: {decisionDelayMs: 50, webhookRetryBaseMs: 50, ...settings},
  })
  recordContract(emu)
  let running = true
  const stop = async () => {
    if (!running) return
    running = false
    await emu.close()
  }
  closeBeforeRemoval(stop)
  const env = cliEnv(emu.url, emu.credentials.tokenId, emu.credentials.clientSecret)
  const sandbox: TestSandbox = {
    emu,
    url: emu.url,
    dir: dataDir,
    env,
    run: (args, opts = {}) => svcInProcess(args, {...opts, env: {...env, ...opts.env}}),
    json: async (args, opts) => {
      const r = await sandbox.run([...args, '--json'], opts)
      if (r.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`)
      return r.json()
    },
    requestCount: () => emu.requests.length,
    stop,
    restart: async () => {
      await stop()
      return startSandbox(settings, dataDir, options)
    },
  }
  return sandbox
}

/** Environment pointing `svc` at `baseUrl` with these credentials, a private home and config dir (removed after the test file), and no prompts. */
export function cliEnv(baseUrl: string, tokenId: string, clientSecret: string): Record<string, string> {
  const home = tempDir('svc-home-')
  return {
    SVC_BASE_URL: baseUrl,
    SVC_TOKEN_ID: tokenId,
    SVC_CLIENT_SECRET: clientSecret,
    SVC_CONFIG_DIR: join(home, 'config'),
    SVC_DATA_DIR: join(home, 'data'),
    HOME: home,
    CI: '1',
    SVC_NO_INPUT: '1',
    NO_COLOR: '1',
  }
}

export function cleanup(dir: string): void {
  rmSync(dir, {recursive: true, force: true})
}
