// The sandbox side of certify: a real PENDING incoming payment made by the trigger recipe, and its status.
import {getTransaction} from '../api/transactions.js'
import type {Context} from '../context.js'
import {Kit} from '../webhook-trigger/kit.js'
import {moneyRecipes} from '../webhook-trigger/recipes-money.js'
import type {SandboxProbe} from './callback.js'

export function sandboxProbe(ctx: Context): SandboxProbe {
  const read = async (id: string) =>
    (await ctx.client.call(getTransaction(id))) as Record<string, unknown> & {id: string}
  return {
    async pendingPayment() {
      // A `$pending.long` sender: the sandbox never decides for the platform, so only the receiver can.
      const made = await moneyRecipes['INCOMING_PAYMENT.PENDING']!(new Kit(ctx))
      return read(made.objectId)
    },
    status: async (id) => String((await read(id)).status),
    now: () => ctx.now(),
    sleep: (ms) => ctx.sleep(ms),
  }
}
