import {createHash} from 'node:crypto'
import {delegatedKeyCreateRequest} from '../../lib/schemas/delegated-keys.js'
import {bytesToHex, generateP256KeyPair} from '../../lib/wallet/index.js'
import type {SandboxContext} from '../context.js'
import {badRequest, conflict, notFound, validate} from '../http-error.js'
import {newId} from '../ids.js'
import type {EmuRequest, EmuResponse} from '../router.js'
import {activeKeyOfFundingSource} from '../store/delegated-keys.js'
import {TABLES} from '../store/tables.js'
import {signedRetry} from './wallet/signed-retry.js'
import {challenge, type PendingRequest, type SignedOperation} from './wallet/signed-retry-challenge.js'
import {getWalletAccount} from './wallet/state.js'
import type {SignerRule} from './wallet/stamps.js'

/**
 * Delegated signing keys (api-gaps 5.7): the keypair is made and kept here (the custodian); the
 * private key is never returned. Creation is three legs signed by a session of the wallet:
 * 202 (create) -> signed -> the key exists PENDING and a second 202 (activate) -> signed -> 201 ACTIVE.
 */
export interface StoredDelegatedKey {
  id: string
  cardId: string
  fundingSourceId: string
  accountId: string
  publicKey: string
  nickname: string
  status: 'PENDING' | 'ACTIVE' | 'REVOKED'
  createdAt: string
  updatedAt: string
  /** The custodied private key (hex): sandbox state only, never in an answer. */
  _privateKey: string
}

const CREATE = 'delegated_key.create'
const ACTIVATE = 'delegated_key.activate'

export function publicKeyView(k: StoredDelegatedKey) {
  const {_privateKey, ...rest} = k
  return rest
}

/**
 * The card funding source binding `(cardId, internalAccountId)`. Cards live in another branch of
 * work; when the `cards` table exists the card must exist and be funded by that wallet, otherwise
 * the binding is derived from the pair (stable across calls).
 */
export function fundingSourceOf(ctx: SandboxContext, cardId: string, accountId: string): string {
  if (TABLES.some((t) => t.name === 'cards')) {
    const card = ctx.db.get<{
      id: string
      fundingSourceId?: string
      internalAccountId?: string
      fundingSources?: Array<{id: string; accountId?: string}>
    }>('cards', cardId)
    if (!card) throw notFound('NOT_FOUND', `Card ${cardId}`)
    const bound = card.fundingSources?.find((f) => f.accountId === accountId)
    if (bound) return bound.id
  }
  const digest = createHash('sha256').update(`${cardId}|${accountId}`).digest('hex')
  return `CardFundingSource:${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`
}

function noActiveKey(ctx: SandboxContext, fundingSourceId: string): void {
  const active = activeKeyOfFundingSource<StoredDelegatedKey>(ctx.db, fundingSourceId)
  if (active)
    throw conflict('CONFLICT', `${active.id} is the ACTIVE delegated key of ${fundingSourceId}; revoke it first`, {
      delegatedKeyId: active.id,
    })
}

/** POST /auth/delegated-keys (three legs, same body each). */
export function createDelegatedKey(req: EmuRequest): Promise<EmuResponse> {
  const ctx = req.ctx
  const body = validate(delegatedKeyCreateRequest, req.body)
  const account = getWalletAccount(ctx, body.internalAccountId)
  const fundingSourceId = fundingSourceOf(ctx, body.cardId, account.id)
  const signer: SignerRule = {kind: 'account', accountIds: [account.id]}
  const requestId = req.headers['request-id']
  const pending = typeof requestId === 'string' ? ctx.db.get<PendingRequest>('walletRequests', requestId) : undefined
  const activation = pending?.operation === ACTIVATE
  return signedRetry(
    req,
    (): SignedOperation => {
      noActiveKey(ctx, fundingSourceId)
      return activation
        ? {operation: ACTIVATE, resourceType: 'DELEGATED_KEY', resourceId: pending!.resourceId, signer}
        : {operation: CREATE, resourceType: 'INTERNAL_ACCOUNT', resourceId: account.id, signer}
    },
    (p) => {
      if (p.operation === ACTIVATE) return activate(ctx, String(p.context.delegatedKeyId), fundingSourceId)
      const kp = generateP256KeyPair()
      const now = ctx.iso()
      const key: StoredDelegatedKey = {
        id: newId('DelegatedKey'),
        cardId: body.cardId,
        fundingSourceId,
        accountId: account.id,
        publicKey: bytesToHex(kp.publicKeyCompressed),
        nickname: body.nickname,
        status: 'PENDING',
        createdAt: now,
        updatedAt: now,
        _privateKey: bytesToHex(kp.privateKey),
      }
      ctx.db.put('delegatedKeys', key.id, key)
      return challenge(ctx, req, {
        operation: ACTIVATE,
        resourceType: 'DELEGATED_KEY',
        resourceId: key.id,
        signer,
        context: {delegatedKeyId: key.id},
      })
    },
  )
}

function activate(ctx: SandboxContext, id: string, fundingSourceId: string): EmuResponse {
  const key = getDelegatedKey(ctx, id)
  noActiveKey(ctx, fundingSourceId)
  const active = ctx.db.put<StoredDelegatedKey>('delegatedKeys', id, {...key, status: 'ACTIVE', updatedAt: ctx.iso()})
  return {status: 201, body: publicKeyView(active)}
}

export function getDelegatedKey(ctx: SandboxContext, id: string): StoredDelegatedKey {
  const k = ctx.db.get<StoredDelegatedKey>('delegatedKeys', id)
  if (!k) throw notFound('NOT_FOUND', `Delegated key ${id}`)
  return k
}

/** DELETE: only an ACTIVE key (400 otherwise); it can never sign again. */
export function revokeDelegatedKey(ctx: SandboxContext, id: string): void {
  const key = getDelegatedKey(ctx, id)
  if (key.status !== 'ACTIVE')
    throw badRequest(
      'DELEGATED_KEY_NOT_ACTIVE',
      `${id} is ${key.status}; only an ACTIVE delegated key can be revoked`,
      {status: key.status},
    )
  ctx.db.put<StoredDelegatedKey>('delegatedKeys', id, {...key, status: 'REVOKED', updatedAt: ctx.iso()})
}
