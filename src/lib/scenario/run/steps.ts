import {sandboxEvents} from '../../api/cards.js'
import {advanceClock, setClock} from '../../api/clock.js'
import type {Config} from '@oclif/core'
import type {ApiClient} from '../../api/client.js'
import type {CommandFinder} from '../../command-lookup.js'
import {ApiError} from '../../errors.js'
import type {FlowStep} from '../../schemas/flow.js'
import {getPath} from './paths.js'

/** What a step produced: the JSON its expectations and captures read, and the exit code or status. */
export interface StepOutcome {
  doc: unknown
  exit?: number
  status?: number
  /** Last lines of the command's stderr (shown when the step fails; svc keeps secrets off stderr). */
  stderr?: string
  /** A webhook step whose event did not come in time: what did arrive instead. */
  timedOut?: {afterMs: number; otherEvents: string[]}
}

/** The flow's own process, for running its `svc:` steps in it: the oclif config and the commands it finds. */
export interface InProcessCommands {
  config: Config
  commands: CommandFinder
}

export interface StepTarget {
  client: ApiClient
  /** Environment of the svc commands the flow runs. */
  env: NodeJS.ProcessEnv
  /** Working directory of svc commands: the flow file's folder, so @file paths are relative to it. */
  cwd: string
  /** Event ids that existed before the run, and those already consumed by a webhook step. */
  seenEvents: Set<string>
  signal: AbortSignal
  sleep: (ms: number) => Promise<void>
  /** Runs `svc:` steps in the flow's own process (svc-step.ts); without it each is a child process. */
  inProcess?: InProcessCommands
}

/** One API call; an error answer is an outcome too (its body is {code, reason, details}). */
export async function runApi(api: NonNullable<FlowStep['api']>, target: StepTarget): Promise<StepOutcome> {
  const [pathname, qs] = api.path.split('?')
  const query = {...Object.fromEntries(new URLSearchParams(qs ?? '')), ...api.query}
  try {
    const res = await target.client.request({
      method: api.method,
      path: pathname.split('/').filter(Boolean).map(decodeURIComponent),
      query,
      body: api.body,
      idempotencyKey: api.idempotencyKey,
    })
    return {doc: res.body ?? null, status: res.status}
  } catch (e) {
    if (e instanceof ApiError && e.status)
      return {doc: {code: e.code, reason: e.message, details: e.details ?? {}}, status: e.status}
    throw e
  }
}

/** A clock step: moves the sandbox clock; the answer (jobs run, events emitted, or the clock) is the step's JSON. */
export async function runClock(clock: NonNullable<FlowStep['clock']>, target: StepTarget): Promise<StepOutcome> {
  const doc =
    clock.freeze !== undefined
      ? await target.client.call(setClock(clock.freeze ? 'freeze' : 'unfreeze'))
      : await target.client.call(advanceClock(clock.advance !== undefined ? {by: clock.advance} : {to: clock.to!}))
  return {doc, status: 200}
}

interface SandboxEvent {
  id: string
  type: string
  data?: unknown
}

/**
 * Waits for an event of the type (and `where` values) emitted during this run, from the sandbox's
 * event log (GET /sandbox/events); each event satisfies one webhook step only.
 */
export async function waitWebhook(
  hook: NonNullable<FlowStep['webhook']>,
  target: StepTarget,
  timeoutMs: number,
): Promise<StepOutcome> {
  const until = Date.now() + timeoutMs
  let seenTypes: string[]
  for (let delay = 100; ; delay = Math.min(delay * 1.5, 1000)) {
    const events = await listEvents(target, hook.type)
    const hit = events.find(
      (e) =>
        !target.seenEvents.has(e.id) &&
        e.type === hook.type &&
        Object.entries(hook.where ?? {}).every(([p, v]) => deepEqual(getPath(e, p), v)),
    )
    if (hit) {
      target.seenEvents.add(hit.id)
      return {doc: hit}
    }
    seenTypes = events
      .filter((e) => !target.seenEvents.has(e.id))
      .map((e) => e.type)
      .slice(-10)
    if (Date.now() + delay > until || target.signal.aborted) break
    await target.sleep(delay)
  }
  return {doc: null, timedOut: {afterMs: timeoutMs, otherEvents: seenTypes}}
}

export async function listEvents(target: StepTarget, type?: string): Promise<SandboxEvent[]> {
  return (await sandboxEvents(target.client, type)) as SandboxEvent[]
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  )
}
