import {
  agentActionRejectRequest,
  agentCreateRequest,
  agentListQuery,
  agentPolicyUpdateRequest,
  agentUpdateRequest,
  approvalListQuery,
} from '../../lib/schemas/agents.js'
import {approveAction, getAction, publicAction, rejectAction} from '../domain/agent-actions.js'
import {
  createAgent,
  deleteAgent,
  deviceCodeOf,
  getAgent,
  publicAgent,
  regenerateDeviceCode,
  redeemDeviceCode,
  updateAgent,
  updatePolicy,
} from '../domain/agents.js'
import {validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {listAgentActions, listAgents} from '../store/agents.js'

/** The platform's side of agents (HTTP Basic): lifecycle, policy, device codes, approvals. */
export function registerAgents(router: Router): void {
  router.handle('createAgent', (req, ctx) => ({
    status: 201,
    body: createAgent(ctx, validate(agentCreateRequest, req.body ?? {})),
  }))

  router.handle('listAgents', (req, ctx) => {
    const q = validate(agentListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listAgents(ctx.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicAgent)}
  })

  router.handle('listAgentApprovals', (req, ctx) => {
    const q = validate(approvalListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listAgentActions(ctx.db, {...q, status: 'PENDING_APPROVAL'}, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (x) => publicAction(ctx, x))}
  })

  router.handle('getAgentDeviceCodeStatus', (req, ctx) => {
    const dc = deviceCodeOf(ctx, req.params.code)
    return {status: 200, body: {code: dc.code, redeemed: dc.redeemed}}
  })
  router.handle('redeemAgentDeviceCode', (req, ctx) => ({
    status: 200,
    body: redeemDeviceCode(ctx, req.params.code),
  }))

  router.handle('getAgentById', (req, ctx) => ({status: 200, body: publicAgent(getAgent(ctx, req.params.agentId))}))
  router.handle('updateAgent', (req, ctx) => {
    const a = getAgent(ctx, req.params.agentId)
    return {status: 200, body: publicAgent(updateAgent(ctx, a, validate(agentUpdateRequest, req.body ?? {})))}
  })
  router.handle('deleteAgent', (req, ctx) => {
    deleteAgent(ctx, getAgent(ctx, req.params.agentId))
    return {status: 204}
  })
  router.handle('updateAgentPolicy', (req, ctx) => {
    const a = getAgent(ctx, req.params.agentId)
    return {status: 200, body: publicAgent(updatePolicy(ctx, a, validate(agentPolicyUpdateRequest, req.body ?? {})))}
  })
  router.handle('regenerateAgentDeviceCode', (req, ctx) => ({
    status: 201,
    body: regenerateDeviceCode(ctx, getAgent(ctx, req.params.agentId)),
  }))

  router.handle('approveAgentAction', (req, ctx) => {
    const x = getAction(ctx, getAgent(ctx, req.params.agentId).id, req.params.actionId)
    return {status: 200, body: publicAction(ctx, approveAction(ctx, x))}
  })
  router.handle('rejectAgentAction', (req, ctx) => {
    const x = getAction(ctx, getAgent(ctx, req.params.agentId).id, req.params.actionId)
    const {reason} = validate(agentActionRejectRequest, req.body ?? {})
    return {status: 200, body: publicAction(ctx, rejectAction(ctx, x, reason))}
  })
}
