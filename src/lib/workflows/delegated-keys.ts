// Client half: creating and revoking delegated keys from svc. The sandbox's rules are emulator/domain/delegated-keys.ts.
import {createDelegatedKeyOp, delegatedKeySchema, revokeDelegatedKey} from '../api/delegated-keys.js'
import type {Context} from '../context.js'
import type {DelegatedKey, DelegatedKeyCreateRequest} from '../schemas/delegated-keys.js'
import {engineFor, keyStoreFor, requireSession, signerFor} from './wallet/common.js'

/**
 * Delegated keys: creation runs the signed-retry engine over its three legs (202 -> 202 -> 201),
 * both challenges stamped with a session key of the wallet from the local key store. The key pair
 * itself is the Service's; its record (id, card, public key) is kept in the key store beside the
 * session keys, with no private part, and dropped when the key is revoked.
 */
export async function createDelegatedKey(
  ctx: Context,
  op: ReturnType<typeof createDelegatedKeyOp>,
): Promise<DelegatedKey> {
  const keys = keyStoreFor(ctx)
  const signer = requireSession(keys, (op.body as DelegatedKeyCreateRequest).internalAccountId)
  const res = await engineFor(ctx).run(op, signerFor(keys, signer))
  const key = ctx.client.parse(delegatedKeySchema, res.body, 'delegated key')
  keys.saveDelegated({id: key.id, accountId: key.accountId, cardId: key.cardId, publicKey: key.publicKey})
  return key
}

export async function revokeDelegated(
  ctx: Context,
  req: ReturnType<typeof revokeDelegatedKey>,
): Promise<{revoked: string; localRecordRemoved: boolean}> {
  const id = req.path[2]
  await ctx.client.call(req)
  const keys = keyStoreFor(ctx)
  const local = keys.findDelegated(id)
  if (local) keys.remove(local.id)
  return {revoked: id, localRecordRemoved: Boolean(local)}
}
