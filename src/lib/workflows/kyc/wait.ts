import {getCustomer} from '../../api/customers.js'
import {latestVerification} from '../../api/kyc.js'
import type {Context} from '../../context.js'
import {SvcError, stillPending} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {interrupts} from '../../interrupt.js'
import {statusOf} from '../../output/customer.js'
import type {Customer} from '../../schemas/customer.js'
import {io} from '../../io.js'
import {explainFrozenClock} from '../../frozen-clock.js'

const FIRST_POLL_MS = 250
const MAX_POLL_MS = 5000
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/** A one-line spinner on stderr, only when stderr is a terminal (silent in pipes and CI logs). */
class Spinner {
  private frame = 0
  constructor(private readonly stream: NodeJS.WritableStream & {isTTY?: boolean}) {}
  get active(): boolean {
    return Boolean(this.stream.isTTY)
  }
  tick(text: string): void {
    if (this.active) this.stream.write(`\r\x1b[2K${FRAMES[this.frame++ % FRAMES.length]} ${text}`)
  }
  clear(): void {
    if (this.active) this.stream.write('\r\x1b[2K')
  }
}

/**
 * Polls the customer with backoff (250 ms growing to 5 s) until APPROVED (returned) or REJECTED
 * (exit 1). Gives up with exit 8 at --timeout. An incomplete latest submission fails at once
 * (exit 6): nothing will change by waiting, and the checklist says what to do.
 */
export async function waitForDecision(
  ctx: Context,
  customerId: string,
  stream: NodeJS.WritableStream & {isTTY?: boolean} = io().stderr,
): Promise<Customer> {
  const doing = (status: string) => `The review of ${customerId} goes on at the Service (last seen: ${status})`
  return interrupts.during({doing: doing('not yet polled'), resume: `svc kyc wait ${customerId}`}, (update) =>
    poll(ctx, customerId, stream, (s) => update(doing(s))),
  )
}

async function poll(
  ctx: Context,
  customerId: string,
  stream: NodeJS.WritableStream & {isTTY?: boolean},
  seen: (status: string) => void,
): Promise<Customer> {
  const spinner = new Spinner(stream)
  const started = ctx.now()
  const warned = new Set<string>()
  let delay = FIRST_POLL_MS
  try {
    for (;;) {
      const c = await ctx.client.call(getCustomer(customerId))
      if (c.isDeleted)
        throw new SvcError({
          code: 'CUSTOMER_DELETED',
          message: `${customerId} was deleted; no decision will come`,
          exitCode: ExitCode.NOT_FOUND,
        })
      const status = statusOf(c)
      const kind = c.customerType === 'BUSINESS' ? 'KYB' : 'KYC'
      seen(`${kind} ${status}`)
      if (status === 'APPROVED') return c
      if (status === 'REJECTED') {
        throw new SvcError({
          code: `${kind}_REJECTED`,
          message: `${customerId} was REJECTED`,
          exitCode: ExitCode.FAILED,
          details: {customerId, status},
        })
      }
      if (status === 'UNVERIFIED' && !warned.has(status)) {
        warned.add(status)
        const v = await latestVerification(ctx.client, customerId)
        if (v?.verificationStatus === 'RESOLVE_ERRORS') {
          throw new SvcError({
            code: 'VERIFICATION_INCOMPLETE',
            message: `${customerId} is UNVERIFIED and its latest submission (${v.id}) has ${v.errors.length} unresolved error(s)`,
            exitCode: ExitCode.CONFLICT,
            details: {
              verificationId: v.id,
              errors: v.errors.map((e) => ({field: e.field ?? `${e.resourceId} ${e.type}`, message: e.reason})),
            },
          })
        }
        ctx.out.warn(
          `${customerId} is UNVERIFIED: nothing was submitted yet (\`svc kyc submit\`, or the end user completes the hosted link). Waiting.`,
        )
      }
      if (status === 'HOLD' && !warned.has(status)) {
        warned.add(status)
        ctx.out.warn(
          `${customerId} is on HOLD: the provider needs more information; fix it and \`svc kyc submit\` again. Waiting.`,
        )
      }
      const remaining = ctx.remainingMs()
      if (remaining <= 0) {
        throw await explainFrozenClock(
          ctx,
          stillPending(
            `${customerId} is still ${status} after ${Math.round((ctx.now() - started) / 1000)}s`,
            `Run \`svc kyc wait ${customerId}\` again, or raise --timeout.`,
          ),
        )
      }
      spinner.tick(`${kind} ${status} · waiting for a decision (${Math.round((ctx.now() - started) / 1000)}s)`)
      await ctx.sleep(Math.min(delay, remaining))
      delay = Math.min(Math.round(delay * 1.6), MAX_POLL_MS)
    }
  } finally {
    spinner.clear()
  }
}
