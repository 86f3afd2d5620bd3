import * as z from 'zod'
import {sandboxEvents, type EventFilter} from '../api/sandbox-events.js'
import type {Context} from '../context.js'
import {ApiError, SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {Kit} from './kit.js'
import type {Made, Recipe} from './recipe.js'

const loggedEvent = z.looseObject({
  id: z.string(),
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
  delivery: z
    .looseObject({
      state: z.string(),
      held: z.string().optional(),
      attempts: z.array(
        z.looseObject({status: z.number().optional(), url: z.string().optional(), error: z.string().optional()}),
      ),
    })
    .optional(),
})
export type LoggedEvent = z.infer<typeof loggedEvent>

/** The result document of `svc webhooks trigger <TYPE> --json`. */
export interface TriggerResult {
  type: string
  /** What the recipe made (customer, transaction, card, account ...) and the event's own object id. */
  objectId: string
  steps: string[]
  /** False against a sandbox without the local event log: the event went to the configured endpoint unseen. */
  eventLog: boolean
  event?: {id: string; type: string; timestamp: string; data?: Record<string, unknown>}
  /** `held` says why a pending event is not out yet (the sandbox's reason, e.g. the endpoint is unreachable). */
  delivery?: {state: string; endpointStatus?: number; attempts: number; held?: string}
  replay?: {url: string; status: number | null}
  /** The `--object` form: the object as the transition left it. */
  object?: Record<string, unknown>
}

async function recipeFor(type: string): Promise<Recipe> {
  const groups = await Promise.all([
    import('./recipes-kyc.js'),
    import('./recipes-money.js'),
    import('./recipes-cards.js'),
    import('./recipes-other.js'),
    import('./recipes-agents.js'),
  ])
  const all: Record<string, Recipe> = Object.assign(
    {},
    groups[0].kycRecipes,
    groups[1].moneyRecipes,
    groups[2].cardRecipes,
    groups[3].otherRecipes,
    groups[4].agentRecipes,
  )
  return all[type]
}

/**
 * Makes the sandbox do what causes `type` (a recipe of real API calls), then waits (bounded by
 * --timeout) for that event about that object in the sandbox's event log, and for its delivery to
 * the configured endpoint to settle. Optionally re-delivers it to `url` as well.
 */
export async function triggerEvent(ctx: Context, type: string, opts: {url?: string} = {}): Promise<TriggerResult> {
  const recipe = await recipeFor(type)
  const kit = new Kit(ctx)
  const made = await recipe(kit)
  const logged = await waitForEvent(kit, type, made)
  if (!logged) {
    if (opts.url)
      ctx.out.warn(`--url ${opts.url} is not used: without the local event log there is no stored event to re-deliver`)
    return {type, objectId: made.objectId, steps: kit.steps, eventLog: false}
  }
  return finish(kit, type, made.objectId, logged, opts.url)
}

/**
 * The result once the event is in the log: its delivery given a moment to settle, the answer the
 * endpoint gave, and a re-delivery to `url` if asked. Shared with the `--object` form (on-object.ts).
 */
export async function finish(
  kit: Kit,
  type: string,
  objectId: string,
  logged: LoggedEvent,
  url: string | undefined,
): Promise<TriggerResult> {
  const settled = await settledDelivery(kit, logged)
  const {delivery, ...event} = settled
  const last = delivery?.attempts.at(-1)
  const result: TriggerResult = {
    type,
    objectId: typeof event.data?.id === 'string' ? event.data.id : objectId,
    steps: kit.steps,
    eventLog: true,
    event: {id: event.id, type: event.type, timestamp: event.timestamp, ...(event.data ? {data: event.data} : {})},
    delivery: {
      state: delivery?.state ?? 'unknown',
      ...(last?.status !== undefined ? {endpointStatus: last.status} : {}),
      attempts: delivery?.attempts.length ?? 0,
      ...(delivery?.held ? {held: delivery.held} : {}),
    },
  }
  if (url) result.replay = await replayTo(kit, event.id, url)
  return result
}

export async function eventLog(kit: Kit, filter: string | EventFilter): Promise<LoggedEvent[] | undefined> {
  try {
    return z.array(loggedEvent).parse(await sandboxEvents(kit.client, filter))
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined // a remote sandbox has no event log
    throw e
  }
}

async function waitForEvent(kit: Kit, type: string, made: Made): Promise<LoggedEvent | undefined> {
  let found: LoggedEvent | undefined
  let hasLog = true
  try {
    await kit.until(
      `${type} about ${made.objectId}`,
      async () => {
        const events = await eventLog(kit, type)
        hasLog = events !== undefined
        found = events?.find((e) => e.type === type && e.data !== undefined && made.matches(e.data))
        return found
      },
      (hit) => hit !== undefined || !hasLog,
    )
  } catch (e) {
    if (e instanceof SvcError && e.exitCode === ExitCode.PENDING) {
      throw new SvcError({
        code: 'TIMEOUT',
        exitCode: ExitCode.PENDING,
        message: `${made.objectId} was set up (${kit.steps.length} steps), but no ${type} event about it appeared before --timeout`,
        details: {steps: kit.steps},
        hint: 'Check `svc webhooks events list --last 10`; the sandbox may have slow delays configured.',
      })
    }
    throw e
  }
  return found
}

/** The event's object (its data's id), to read only that object's events. */
const objectOf = (e: LoggedEvent) => (typeof e.data?.id === 'string' ? e.data.id : undefined)

/** Gives the outbox a moment to deliver (or give up on) the event, so the answer shows the endpoint's status. */
async function settledDelivery(kit: Kit, e: LoggedEvent): Promise<LoggedEvent> {
  if (e.delivery?.state !== 'pending') return e
  const end = kit.ctx.now() + Math.min(10_000, kit.ctx.remainingMs())
  let current = e
  // A held event (the endpoint unreachable, none set, an older event of its object first) will not go out in moments: said at once.
  while (current.delivery?.state === 'pending' && !current.delivery.held && kit.ctx.now() < end) {
    await kit.ctx.sleep(100)
    current =
      (await eventLog(kit, objectOf(e) ? {type: e.type, object: objectOf(e)} : e.type))?.find((x) => x.id === e.id) ??
      current
  }
  return current
}

async function replayTo(kit: Kit, eventId: string, url: string): Promise<{url: string; status: number | null}> {
  const res = await kit.client.request({method: 'POST', path: ['sandbox', 'events', eventId, 'replay'], body: {url}})
  const status = (res.body as {response_status?: number | null} | undefined)?.response_status ?? null
  kit.did(`re-delivered ${eventId} to ${url} (HTTP ${status})`)
  return {url, status}
}
