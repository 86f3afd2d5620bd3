import {fileURLToPath} from 'node:url'
import {isMainThread} from 'node:worker_threads'
import type {FoundCommand} from '../../command-lookup.js'
import {startInProcess, type InProcessHandle, type InProcessRun} from '../../in-process.js'
import {splitArgs} from './paths.js'
import type {InProcessCommands, StepOutcome, StepTarget} from './steps.js'

const BIN = fileURLToPath(new URL('../../../../bin/run.js', import.meta.url))
/** A step stopped at its timeout or by Ctrl-C that handles the signal itself gets this long to end. */
const GRACE_MS = 2_000
const HELP = new Set(['--help', '-h', '--version', 'help'])

/**
 * Runs `svc <argv> --json` the way a script would: in this process when it can (no Node start-up
 * per step), else as a child process. Either way the step sees the same: its argv with --json, the
 * flow's environment, its `input` on stdin, the flow file's folder as working directory; and the
 * flow reads the same: exit code, stdout's JSON, the last lines of stderr.
 */
export async function runSvc(
  argv: string[] | string,
  input: string | undefined,
  target: StepTarget,
  timeoutMs: number,
): Promise<StepOutcome> {
  const args = typeof argv === 'string' ? splitArgs(argv) : argv
  if (!args.includes('--json')) args.push('--json')
  const found = await commandHere(args, target)
  return found && target.inProcess
    ? runHere(found, target.inProcess, input, target, timeoutMs)
    : runChild(args, input, target, timeoutMs)
}

/**
 * The command to run in this process, or undefined for a child: help (no command runs), a command
 * that serves until a signal stops it (handlesInterrupt: sandbox serve, mcp, webhooks listen, a
 * nested flow run), and a worker thread, which cannot change its working directory.
 */
async function commandHere(args: string[], target: StepTarget): Promise<FoundCommand | undefined> {
  const end = args.includes('--') ? args.indexOf('--') : args.length
  if (!target.inProcess || args.slice(0, end).some((a) => HELP.has(a))) return undefined
  if (!isMainThread && target.cwd !== process.cwd()) return undefined
  const found = await target.inProcess.commands(args)
  return found && !(found.Cmd as {handlesInterrupt?: boolean}).handlesInterrupt ? found : undefined
}

/**
 * In this process, with the flow file's folder as the working directory while the step runs, so
 * relative paths (`@body.json`, `--file fixtures/passport.jpg`, a relative SVC_* dir) resolve as in
 * a child started there. The process's working directory is changed for the step, not carried in
 * the Io: every path a command resolves follows it, not just those that know of an Io, and the
 * flow's own paths (the file, --junit, the --local sandbox's dir) were made absolute before any
 * step runs, and steps run one at a time, so nothing else reads it meanwhile. (A command given up
 * on at its timeout is the exception: it goes on after the folder was put back. The flow has failed
 * by then and runs no other step.) A worker thread cannot chdir: commandHere sends it a child.
 */
async function runHere(
  found: FoundCommand,
  here: InProcessCommands,
  input: string | undefined,
  target: StepTarget,
  timeoutMs: number,
): Promise<StepOutcome> {
  const home = process.cwd()
  process.chdir(target.cwd)
  try {
    const run = startInProcess(found.Cmd, found.rest, here.config, {
      env: target.env,
      input: input ?? '',
      commands: here.commands,
    })
    const end = await settle(run, target, timeoutMs)
    const sofar = run.sofar()
    const killed = end.stoppedBy === 'timeout' ? `killed after ${timeoutMs} ms` : ''
    if (end.run) return {doc: documentOf(end.run.stdout), exit: end.run.code, stderr: lines(killed, end.run.stderr)}
    // Given up on: a child would have died of the signal (143) or exited as its SIGINT handler asked (130).
    const abandoned =
      '(it runs inside `svc flow run`, which stopped waiting for it; a request it had sent may still complete)'
    return {
      doc: documentOf(sofar.stdout),
      exit: sofar.exited ?? (end.stoppedBy === 'timeout' ? 128 + 15 : 128 + 2),
      stderr: lines(killed && `${killed} ${abandoned}`, sofar.stderr),
    }
  } finally {
    process.chdir(home)
  }
}

interface Settled {
  /** The command's result, when it ended (by itself or once told to stop). */
  run?: InProcessRun
  stoppedBy?: 'timeout' | 'interrupt'
}

/**
 * Waits for the command; at its timeout it gets SIGTERM and on Ctrl-C SIGINT then SIGTERM, as a child
 * would. A command that handles the signal gets GRACE_MS to end; one that does not (or that asked
 * to exit, as the base command's SIGINT handler does once it said what still runs) cannot be
 * stopped in this process: the step ends there with what it wrote so far, and the command is left
 * to finish unobserved (its Io is its own: io.ts).
 */
function settle(run: InProcessHandle, target: StepTarget, timeoutMs: number): Promise<Settled> {
  return new Promise((resolve) => {
    let stoppedBy: Settled['stoppedBy']
    let grace: NodeJS.Timeout | undefined
    const finish = (s: Settled) => {
      clearTimeout(timer)
      clearTimeout(grace)
      target.signal.removeEventListener('abort', onAbort)
      resolve(s)
    }
    const stop = (by: NonNullable<Settled['stoppedBy']>, signals: ('SIGINT' | 'SIGTERM')[]) => {
      if (stoppedBy) return
      stoppedBy = by
      const handled = signals.map((s) => run.signal(s)).some(Boolean)
      const exiting = run.sofar().exited !== undefined || !handled
      if (exiting) finish({stoppedBy})
      else grace = setTimeout(() => finish({stoppedBy}), GRACE_MS)
    }
    const onAbort = () => stop('interrupt', ['SIGINT', 'SIGTERM'])
    const timer = setTimeout(() => stop('timeout', ['SIGTERM']), timeoutMs)
    target.signal.addEventListener('abort', onAbort, {once: true})
    if (target.signal.aborted) onAbort()
    void run.done.then((r) => finish({run: r, stoppedBy}))
  })
}

/** As a child process started in the flow file's folder, for the commands that need a process of their own. */
function runChild(
  args: string[],
  input: string | undefined,
  target: StepTarget,
  timeoutMs: number,
): Promise<StepOutcome> {
  return new Promise((resolve, reject) => {
    // node:child_process on use: a flow whose steps all run in-process never loads it.
    const child = process.getBuiltinModule('node:child_process').spawn(process.execPath, [BIN, ...args], {
      env: target.env,
      cwd: target.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const kill = () => child.kill('SIGTERM')
    const timer = setTimeout(kill, timeoutMs)
    target.signal.addEventListener('abort', kill, {once: true})
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      target.signal.removeEventListener('abort', kill)
      const timedOut = signal !== null && !target.signal.aborted
      resolve({
        doc: documentOf(stdout),
        exit: code ?? 128 + 15,
        stderr: lines(timedOut ? `killed after ${timeoutMs} ms` : '', stderr),
      })
    })
    child.stdin.end(input ?? '')
  })
}

/** stdout's JSON document (null when empty); NDJSON or plain text stays a string for `matches`. */
function documentOf(stdout: string): unknown {
  const text = stdout.trim()
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return text
  }
}

/** The note of why the step was stopped (if it was), then the last lines of its stderr. */
const lines = (note: string, stderr: string) =>
  (note ? `${note}\n` : '') + stderr.trim().split('\n').slice(-5).join('\n')
