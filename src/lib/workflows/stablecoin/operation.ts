import {burnStablecoin, mintStablecoin} from '../../api/stablecoins.js'
import type {Context} from '../../context.js'
import type {Output} from '../../output/output.js'
import {renderOperation} from '../../output/stablecoin.js'

type Kind = 'mint' | 'burn'
type Body = {amount: string}
const VERB: Record<Kind, string> = {mint: 'Mint', burn: 'Burn'}

/**
 * A mint or a burn, as both commands run it: the body (built from the flags and checked before any
 * request), the dry run, the environment banner and confirmation, then one POST with the command's
 * Idempotency-Key.
 */
export async function submitOperation(
  ctx: Context,
  out: Output,
  op: {kind: Kind; id: string; body: (dryRun: boolean) => Promise<Body>; yes?: boolean; dryRun?: boolean},
  printDryRun: (d: ReturnType<Context['describe']>) => unknown,
) {
  const {kind, id} = op
  const body = await op.body(Boolean(op.dryRun))
  const req = kind === 'mint' ? mintStablecoin(id, body as never) : burnStablecoin(id, body as never)
  if (op.dryRun) return printDryRun(ctx.describe(req))
  ctx.banner(`${kind} ${body.amount} smallest units of ${id}`)
  await ctx.confirm(`${VERB[kind]} ${body.amount} smallest units of ${id}?`, {yes: op.yes})
  const result = await ctx.client.call(req)
  out.success(`${VERB[kind]} ${result.id}: ${result.status}`)
  renderOperation(out, result)
  return result
}
