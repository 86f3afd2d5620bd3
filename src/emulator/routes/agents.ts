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
  issueDeviceCode,
  publicAgent,
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
  router.post('/agents', (req, emu) => ({
    status: 201,
    body: createAgent(emu, validate(agentCreateRequest, req.body ?? {})),
  }))

  router.get('/agents', (req, emu) => {
    const q = validate(agentListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listAgents(emu.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicAgent)}
  })

  router.get('/agents/approvals', (req, emu) => {
    const q = validate(approvalListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listAgentActions(emu.db, {...q, status: 'PENDING_APPROVAL'}, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (x) => publicAction(emu, x))}
  })

  router.get('/agents/device-codes/:code/status', (req, emu) => {
    const dc = deviceCodeOf(emu, req.params.code)
    return {status: 200, body: {code: dc.code, redeemed: dc.redeemed}}
  })
  router.post('/agents/device-codes/:code/redeem', (req, emu) => ({
    status: 200,
    body: redeemDeviceCode(emu, req.params.code),
  }))

  router.get('/agents/:agentId', (req, emu) => ({status: 200, body: publicAgent(getAgent(emu, req.params.agentId))}))
  router.patch('/agents/:agentId', (req, emu) => {
    const a = getAgent(emu, req.params.agentId)
    return {status: 200, body: publicAgent(updateAgent(emu, a, validate(agentUpdateRequest, req.body ?? {})))}
  })
  router.delete('/agents/:agentId', (req, emu) => {
    deleteAgent(emu, getAgent(emu, req.params.agentId))
    return {status: 204}
  })
  router.patch('/agents/:agentId/policy', (req, emu) => {
    const a = getAgent(emu, req.params.agentId)
    return {status: 200, body: publicAgent(updatePolicy(emu, a, validate(agentPolicyUpdateRequest, req.body ?? {})))}
  })
  router.post('/agents/:agentId/device-codes', (req, emu) => ({
    status: 201,
    body: issueDeviceCode(emu, getAgent(emu, req.params.agentId)),
  }))

  router.post('/agents/:agentId/actions/:actionId/approve', (req, emu) => {
    const x = getAction(emu, getAgent(emu, req.params.agentId).id, req.params.actionId)
    return {status: 200, body: publicAction(emu, approveAction(emu, x))}
  })
  router.post('/agents/:agentId/actions/:actionId/reject', (req, emu) => {
    const x = getAction(emu, getAgent(emu, req.params.agentId).id, req.params.actionId)
    const {reason} = validate(agentActionRejectRequest, req.body ?? {})
    return {status: 200, body: publicAction(emu, rejectAction(emu, x, reason))}
  })
}
