// Client half: svc's ownership-verification steps. The sandbox's rule is emulator/domain/ownership.ts.
import {getExternalAccount} from '../api/accounts.js'
import type {Context} from '../context.js'
import {SvcError, stillPending} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {interrupts} from '../interrupt.js'
import type {ExternalAccountView} from '../schemas/accounts.js'

/** Polls the account until a LIVENESS outcome lands (ACTIVE, or UNVERIFIED = failed); exit 8 at --timeout. */
export async function waitForOwnership(ctx: Context, id: string): Promise<ExternalAccountView> {
  ctx.out.info(ctx.out.dim('Waiting for the liveness check to finish (Ctrl-C is safe; re-run to keep waiting)…'))
  const doing = (status: string) => `The liveness check of ${id} goes on at the Service (last seen: ${status})`
  return interrupts.during({doing: doing('not yet polled'), resume: `svc accounts external get ${id}`}, (update) =>
    poll(ctx, id, (s) => update(doing(s))),
  )
}

async function poll(ctx: Context, id: string, seen: (status: string) => void): Promise<ExternalAccountView> {
  let delay = 250
  for (;;) {
    const a = await ctx.client.call(getExternalAccount(id))
    seen(a.status)
    if (a.status === 'ACTIVE') return a
    if (a.status === 'UNVERIFIED') {
      throw new SvcError({
        code: 'OWNERSHIP_NOT_VERIFIED',
        exitCode: ExitCode.FAILED,
        message: `The liveness check failed: ${id} is UNVERIFIED`,
        details: {account: a},
        hint: `Start a new challenge: svc accounts external verify-ownership ${id} --method LIVENESS`,
      })
    }
    if (ctx.remainingMs() <= 0)
      throw stillPending(
        `${id} is still ${a.status} at --timeout`,
        `Re-run with --wait later, or check \`svc accounts external get ${id}\`. Starting a new challenge abandons the current one.`,
      )
    await ctx.sleep(Math.min(delay, ctx.remainingMs()))
    delay = Math.min(delay * 2, 2000)
  }
}
