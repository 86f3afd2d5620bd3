import type {FlowFile, FlowStep} from '../../schemas/flow.js'
import {ApiError, SvcError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {redact} from '../../secret.js'
import {parseDuration} from '../../duration.js'
import {getPath, hasPath, interpolate, UnknownVariable} from './paths.js'
import {deepEqual, listEvents, runApi, runClock, waitWebhook, type StepOutcome, type StepTarget} from './steps.js'
import {runSvc} from './svc-step.js'

export type StepStatus = 'passed' | 'failed' | 'skipped'

export interface StepFailure {
  message: string
  expected: unknown
  actual: unknown
}

export interface StepResult {
  index: number
  name: string
  line: number
  kind: 'svc' | 'api' | 'webhook' | 'clock'
  status: StepStatus
  durationMs: number
  /** Variables this step set (names only: values may be personal data). */
  captured: string[]
  failure?: StepFailure
}

export interface FlowResult {
  name: string
  file: string
  ok: boolean
  durationMs: number
  steps: StepResult[]
}

export interface Progress {
  start(index: number, total: number, name: string): void
  end(result: StepResult, total: number): void
}

const DEFAULT_STEP_TIMEOUT = 60_000

/** Runs the steps in order; the first step that does not hold stops the flow (the rest are skipped). */
export async function runFlow(
  flow: FlowFile,
  opts: {
    file: string
    stepLines: number[]
    target: StepTarget
    progress: Progress
    env: NodeJS.ProcessEnv
    /** When the run's --timeout ends (epoch ms): no step runs past it. */
    deadline?: number
  },
): Promise<FlowResult> {
  const started = Date.now()
  const vars: Record<string, unknown> = {run: {id: runId()}, env: {...opts.env}}
  for (const [k, v] of Object.entries(flow.vars ?? {})) vars[k] = interpolate(v, vars)
  if (flow.steps.some((s) => s.webhook))
    for (const e of await baselineEvents(opts.target)) opts.target.seenEvents.add(e.id)
  const results: StepResult[] = []
  let failed = false
  for (const [index, step] of flow.steps.entries()) {
    const base = {
      index: index + 1,
      name: step.name,
      line: opts.stepLines[index] ?? 0,
      kind: kindOf(step),
      captured: [] as string[],
    }
    if (failed || opts.target.signal.aborted) {
      results.push({...base, status: 'skipped', durationMs: 0})
      continue
    }
    opts.progress.start(index + 1, flow.steps.length, step.name)
    const t0 = Date.now()
    let failure: StepFailure | undefined
    let outcome: StepOutcome | undefined
    const leftMs = opts.deadline === undefined ? Infinity : opts.deadline - Date.now()
    try {
      if (leftMs <= 0) throw new FlowDeadline()
      outcome = await execute(step, vars, opts.target, leftMs)
      failure = check(step, outcome, vars)
      // A step cut short by the run's deadline (not by its own timeout) fails for that reason.
      const cut = outcome.timedOut || outcome.stderr?.startsWith('killed after')
      if (failure && cut && leftMs < ownTimeout(step)) throw new FlowDeadline()
      if (!failure)
        for (const [name, path] of Object.entries(step.capture ?? {})) {
          if (!hasPath(outcome.doc, path)) {
            failure = {
              message: `capture ${name}: nothing at ${path}`,
              expected: `a value at ${path}`,
              actual: redact(outcome.doc),
            }
            break
          }
          vars[name] = getPath(outcome.doc, path)
          base.captured.push(name)
        }
    } catch (e) {
      failure = {
        message:
          e instanceof FlowDeadline
            ? "the flow's --timeout ran out (raise --timeout for the whole run)"
            : e instanceof UnknownVariable
              ? e.message
              : `could not run: ${(e as Error).message}`,
        expected: 'the step to run',
        actual: null,
      }
    }
    // An svc step says what it left running and how to resume it (its Ctrl-C error document).
    if (opts.target.signal.aborted)
      failure = {
        message: 'interrupted (SIGINT/SIGTERM)',
        expected: 'the step to finish',
        actual: outcome?.exit !== undefined ? {exit: outcome.exit, output: redact(outcome.doc)} : 'interrupted',
      }
    const result: StepResult = {
      ...base,
      status: failure ? 'failed' : 'passed',
      durationMs: Date.now() - t0,
      ...(failure ? {failure} : {}),
    }
    results.push(result)
    opts.progress.end(result, flow.steps.length)
    failed = Boolean(failure)
  }
  return {name: flow.name, file: opts.file, ok: !failed, durationMs: Date.now() - started, steps: results}
}

function kindOf(step: FlowStep): StepResult['kind'] {
  return step.svc ? 'svc' : step.api ? 'api' : step.clock ? 'clock' : 'webhook'
}

const ownTimeout = (step: FlowStep) => (step.timeout ? parseDuration(step.timeout)! : DEFAULT_STEP_TIMEOUT)

/** The run's --timeout ended: the step in progress fails with that reason and the rest are skipped. */
class FlowDeadline extends Error {}

function execute(
  step: FlowStep,
  vars: Record<string, unknown>,
  target: StepTarget,
  leftMs: number,
): Promise<StepOutcome> {
  const timeoutMs = Math.max(1, Math.min(ownTimeout(step), leftMs))
  if (step.svc)
    return runSvc(
      interpolate(step.svc, vars) as string | string[],
      step.input === undefined ? undefined : String(interpolate(step.input, vars)),
      target,
      timeoutMs,
    )
  if (step.api) return runApi(interpolate(step.api, vars) as NonNullable<FlowStep['api']>, target)
  if (step.clock) return runClock(interpolate(step.clock, vars) as NonNullable<FlowStep['clock']>, target)
  return waitWebhook(interpolate(step.webhook, vars) as NonNullable<FlowStep['webhook']>, target, timeoutMs)
}

/** The step's expectations (and the implicit ones: exit 0, a status below 400, the event arriving). */
function check(step: FlowStep, outcome: StepOutcome, vars: Record<string, unknown>): StepFailure | undefined {
  const shown = redact(outcome.doc)
  if (outcome.timedOut)
    return {
      message: `no ${step.webhook!.type} event${step.webhook!.where ? ' matching where' : ''} within ${outcome.timedOut.afterMs} ms`,
      expected: {type: step.webhook!.type, where: interpolate(step.webhook!.where ?? {}, vars)},
      actual: {otherEvents: outcome.timedOut.otherEvents},
    }
  const ex = step.expect ?? {}
  if (step.svc) {
    const exit = ex.exit ?? 0
    if (outcome.exit !== exit)
      return {
        message: `exit code ${outcome.exit}, expected ${exit}${errorReason(outcome.doc)}`,
        expected: {exit},
        actual: {exit: outcome.exit, output: shown, ...(outcome.stderr ? {stderr: outcome.stderr} : {})},
      }
  }
  if (step.api) {
    const ok = ex.status === undefined ? outcome.status! < 400 : outcome.status === ex.status
    if (!ok)
      return {
        message: `HTTP ${outcome.status}, expected ${ex.status ?? 'a status below 400'}${errorReason(outcome.doc)}`,
        expected: {status: ex.status ?? '<400'},
        actual: {status: outcome.status, body: shown},
      }
  }
  for (const [path, raw] of Object.entries(ex.equals ?? {})) {
    const want = interpolate(raw, vars)
    const got = getPath(outcome.doc, path)
    if (!deepEqual(got, want))
      return {
        message: `${path} is ${JSON.stringify(redact(got)) ?? 'missing'}, expected ${JSON.stringify(want)}`,
        expected: {[path]: want},
        actual: {[path]: redact(got) ?? null},
      }
  }
  for (const [path, pattern] of Object.entries(ex.matches ?? {})) {
    const got = getPath(outcome.doc, path)
    const text = typeof got === 'string' ? got : JSON.stringify(got)
    if (got === undefined || !new RegExp(pattern).test(text))
      return {
        message: `${path} is ${JSON.stringify(redact(got)) ?? 'missing'}, expected to match /${pattern}/`,
        expected: {[path]: `/${pattern}/`},
        actual: {[path]: redact(got) ?? null},
      }
  }
  return undefined
}

function errorReason(doc: unknown): string {
  const e = (getPath(doc, 'error') ?? doc) as {code?: unknown; reason?: unknown} | null
  return e && typeof e === 'object' && typeof e.code === 'string' && typeof e.reason === 'string'
    ? ` (${e.code}: ${e.reason})`
    : ''
}

/** Events from before the run do not satisfy webhook steps; without an event log there is nothing to wait on. */
async function baselineEvents(target: StepTarget) {
  try {
    return await listEvents(target)
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
      throw new SvcError({
        code: 'NO_EVENT_LOG',
        exitCode: ExitCode.USAGE,
        message: 'This flow waits for webhooks, but the target has no sandbox event log (GET /sandbox/events)',
        hint: 'Run it with --local, or against a local sandbox.',
      })
    }
    throw e
  }
}

/**
 * `${run.id}`: eight hex digits that keep one run's names (platform ids, emails) apart from
 * another's. A label, not a secret, so it does not load node:crypto.
 */
function runId(): string {
  return Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')
}
