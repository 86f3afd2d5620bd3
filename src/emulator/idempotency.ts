import {createHash} from 'node:crypto'
import {principalKey} from './authz/principal-of.js'
import type {EmuRequest, EmuResponse, SandboxContext} from './context.js'
import {badRequest, conflict} from './http-error.js'
import type {Matched} from './router.js'
import type {Db} from './store/db.js'

/**
 * Runs a matched operation's handler with what its entry declares around it: Idempotency-Key replay in
 * the entry's scope (`{param}` filled from the path), and the key itself where the contract demands it.
 */
export function invoke(m: Matched, req: EmuRequest, ctx: SandboxContext): EmuResponse | Promise<EmuResponse> {
  const idempotency = m.op.idempotency
  if (!idempotency) return m.handler(req, ctx)
  const key = req.headers['idempotency-key']
  if (idempotency.required && (typeof key !== 'string' || !key))
    throw badRequest('INVALID_INPUT', 'Invalid input: Idempotency-Key', {
      errors: [{field: 'Idempotency-Key', message: 'header is required on this endpoint'}],
    })
  const scope = idempotency.scope.replace(/\{(\w+)\}/g, (_, name: string) => m.params[name])
  return replayOrRun(ctx.db, req, scope, () => m.handler(req, ctx), ctx.now())
}

/**
 * Idempotency-Key handling: the same key with the same body replays the first answer; the same
 * key with a different body is 409 DUPLICATE_PAY_REQUEST. Only successful answers are stored.
 * Keys belong to the caller (token or agent), as payment APIs scope them per account: another
 * principal's use of the same key is a request of its own, never a replay of someone else's answer.
 * A stored answer is kept for the idempotency retention (`at`: when it was stored, on the sandbox
 * clock), then pruned: the key is new again.
 */
async function replayOrRun(
  db: Db,
  req: EmuRequest,
  scope: string,
  run: () => EmuResponse | Promise<EmuResponse>,
  now: number,
): Promise<EmuResponse> {
  const key = req.headers['idempotency-key']
  if (typeof key !== 'string' || !key) return run()
  const id = `${principalKey(req.ctx?.principal)}|${scope}|${key}`
  const hash = createHash('sha256').update(req.rawBody).digest('hex')
  const seen = db.get<{hash: string; response: EmuResponse}>('idempotency', id)
  if (seen) {
    if (seen.hash !== hash)
      throw conflict('DUPLICATE_PAY_REQUEST', `Idempotency-Key "${key}" was already used with a different request body`)
    return seen.response
  }
  const response = await run()
  if (response.status < 400) db.put('idempotency', id, {hash, response, at: now})
  return response
}
