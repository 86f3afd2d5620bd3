import * as z from 'zod'
import {apiRequest} from '../api/request.js'
import type {Context} from '../context.js'
import {InputError, SvcError, type FieldError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {Kit} from './kit.js'
import {OBJECT_FORMS, checkSets, kindOfId, objectForm, parseSetPairs} from './object-forms.js'
import {eventLog, finish, type TriggerResult} from './run.js'

/** What `svc webhooks trigger TYPE --object ID [--set k=v ...]` asks the sandbox for, checked. */
export interface ObjectTrigger {
  type: string
  objectId: string
  set: Record<string, string>
}

/**
 * Checks the `--object` form before anything is sent (exit 2): TYPE has an object form, the id is of
 * the kind it is about, and every `--set` field is one of its parameters with a fitting value (the
 * refusal lists what is allowed). `type` is the known type as the catalogue spells it.
 */
export function objectTriggerInput(type: string, objectId: string, pairs: readonly string[] = []): ObjectTrigger {
  const form = objectForm(type)
  const {set, errors} = parseSetPairs(pairs)
  const all: FieldError[] = [...errors]
  if (!form)
    all.unshift({
      field: 'object',
      message: `${type} has no object form (it only happens to a new object); types with one: ${OBJECT_FORMS.map((f) => f.type).join(', ')}`,
    })
  else {
    if (kindOfId(objectId) !== form.object)
      all.unshift({
        field: 'object',
        message: `"${objectId}" is not a ${form.object}:... id; ${type} happens to a ${form.object}`,
      })
    all.push(...checkSets(form, set))
  }
  if (all.length) throw new InputError(all, undefined, 'See `svc webhooks trigger --list`; nothing was sent.')
  return {type, objectId, set}
}

const answer = z.looseObject({
  object: z.record(z.string(), z.unknown()),
  events: z.array(z.looseObject({id: z.string(), type: z.string()})),
})

/** POST /sandbox/webhooks/trigger: described once, sent or shown by --dry-run. */
export function objectTriggerRequest(t: ObjectTrigger) {
  return apiRequest(
    {
      method: 'POST',
      path: ['sandbox', 'webhooks', 'trigger'],
      body: {type: t.type, objectId: t.objectId, ...(Object.keys(t.set).length ? {set: t.set} : {})},
    },
    answer,
    'trigger answer',
  )
}

/**
 * The sandbox takes the object through the transition (one request: a wrong state is its 409, exit 6;
 * an unknown object its 404, exit 5), then the event it emitted is read from the event log and its
 * delivery given a moment to settle, as for a recipe.
 */
export async function triggerOnObject(
  ctx: Context,
  t: ObjectTrigger,
  opts: {url?: string} = {},
): Promise<TriggerResult> {
  const kit = new Kit(ctx)
  const {object, events} = await ctx.client.call(objectTriggerRequest(t))
  const state = String(object.status ?? object.state ?? object.kycStatus ?? object.kybStatus ?? '')
  kit.did(
    `${t.objectId} is now ${state || 'changed'}; the sandbox emitted ${events.map((e) => e.type).join(', ') || 'nothing'}`,
  )
  const emitted = events.find((e) => e.type === t.type)
  if (!emitted)
    throw new SvcError({
      code: 'TRIGGER_OTHER_EVENT',
      exitCode: ExitCode.FAILED,
      message: `${t.objectId} moved, but to ${state}: the sandbox emitted ${events.map((e) => e.type).join(', ') || 'no event'}, not ${t.type}`,
      details: {object, events},
    })
  const logged = (await eventLog(kit, {type: t.type, object: t.objectId}))?.find((e) => e.id === emitted.id)
  if (!logged)
    throw new SvcError({
      code: 'TRIGGER_EVENT_MISSING',
      exitCode: ExitCode.FAILED,
      message: `The sandbox answered that it emitted ${emitted.id}, but its event log does not hold it`,
    })
  return {...(await finish(kit, t.type, t.objectId, logged, opts.url)), object}
}
