import {objectTriggerRequest} from '../../lib/schemas/webhooks.js'
import {triggerOnObject} from '../domain/object-triggers.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** `svc webhooks trigger TYPE --object ID`: an existing object through the transition that emits TYPE (one unit). */
export function registerSandboxTrigger(router: Router): void {
  router.handle('POST /sandbox/webhooks/trigger', (req, ctx) => ({
    status: 200,
    body: triggerOnObject(ctx, validate(objectTriggerRequest, req.body ?? {})),
  }))
}
