import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AGENT_PERMISSIONS} from '../../src/lib/schemas/agents.js'
import {Contract, type Operation} from '../helpers/contract.js'
import {
  absentPath,
  brokenBody,
  isAgentOperation,
  needsCredentials,
  neededHeaders,
  neededQuery,
  parameters,
  storeFingerprint,
  validBody,
} from '../helpers/contract-sweep.js'
import {approvedCustomer} from '../helpers/money.js'
import {agentWith, call} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Every operation of the published contract, driven from the contract alone (Schemathesis-style):
 * without credentials it is 401; with a path naming nothing it is 404; with a body broken in one
 * field it is 400 naming that field. Each refusal changes nothing the sandbox stores, and its body
 * is checked against the contract's schema for that status by the contract check
 * (test/helpers/contract-setup.ts), which also counts the answers for docs/fidelity.md.
 */
let sbx: TestSandbox
let contract: Contract
let platformAuth: string
let agentAuth: string
let customerId: string
beforeAll(async () => {
  sbx = await startSandbox()
  contract = await Contract.load()
  platformAuth = `Basic ${Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')}`
  const owner = await approvedCustomer(sbx, ['USD'])
  customerId = owner.id
  // SCA on: its endpoints answer 409 while the platform does not require it, before any other check.
  await call(sbx, platformAuth, 'PATCH', '/config', {sandbox: {scaRequired: true}})
  agentAuth = (await agentWith(sbx, owner.id, [...AGENT_PERMISSIONS])).auth
})
afterAll(async () => sbx.stop())

const documents = (op: Operation, status: string) =>
  status in ((contract.operation(op).responses ?? {}) as Record<string, unknown>)
const hasPathParameter = (op: Operation) => op.template.includes('{')
const authFor = (op: Operation) => (isAgentOperation(op) ? agentAuth : platformAuth)

/** Operations answered otherwise on purpose, with the reason; the sweep asserts those answers instead. */
const EXPECTED_OTHERWISE: Record<string, {status: number; why: string}> = {}

/** The request, with what the operation needs besides (required query parameters, an Idempotency-Key). */
async function refusal(
  op: Operation,
  auth: string | undefined,
  body: unknown,
  query = neededQuery(contract, op, customerId),
): Promise<{status: number; body: any; unchanged: boolean}> {
  const before = storeFingerprint(sbx)
  const path = absentPath(contract, op) + query
  const r = await call(sbx, auth, op.method.toUpperCase(), path, body, neededHeaders(contract, op))
  return {...r, unchanged: storeFingerprint(sbx) === before}
}

describe('every operation, from the contract', () => {
  it('without credentials: 401 with the contract body, nothing changed', async () => {
    const ops = contract.operations.filter((op) => needsCredentials(contract, op) && documents(op, '401'))
    expect(ops.length).toBeGreaterThan(140)
    const off: string[] = []
    for (const op of ops) {
      const r = await refusal(op, undefined, validBody(contract, op))
      if (r.status !== 401 || r.body?.code === undefined || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.body?.code}${r.unchanged ? '' : ' (changed the store)'}`)
    }
    expect(off).toEqual([])
  })

  it('naming something that does not exist: 404, nothing changed', async () => {
    const ops = contract.operations.filter((op) => hasPathParameter(op) && documents(op, '404'))
    expect(ops.length).toBeGreaterThan(80)
    const off: string[] = []
    for (const op of ops) {
      const r = await refusal(op, authFor(op), validBody(contract, op))
      const expected = EXPECTED_OTHERWISE[`404 ${op.key}`]?.status ?? 404
      if (r.status !== expected || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.body?.code} ${JSON.stringify(r.body?.details ?? {}).slice(0, 120)}`)
    }
    expect(off).toEqual([])
  })

  it('a body broken in one field: 400 naming that field, nothing changed', async () => {
    const ops = contract.operations.filter((op) => !hasPathParameter(op) && documents(op, '400'))
    const off: string[] = []
    let checked = 0
    for (const op of ops) {
      const broken = brokenBody(contract, op)
      if (!broken) continue
      checked++
      const r = await refusal(op, authFor(op), broken.body)
      const fields = ((r.body?.details?.errors ?? []) as Array<{field: string}>).map((e) => e.field)
      if (
        r.status !== 400 ||
        !fields.some((f) => f === broken.field || f.startsWith(`${broken.field}.`)) ||
        !r.unchanged
      )
        off.push(`${op.key} [${broken.field}] -> ${r.status} ${r.body?.code} ${fields.join(',')}`)
    }
    expect(checked).toBeGreaterThan(20)
    expect(off).toEqual([])
  })

  it('a query parameter of the wrong type or outside its values: 400 naming it, nothing changed', async () => {
    const off: string[] = []
    let checked = 0
    for (const op of contract.operations.filter((o) => o.method === 'get' && documents(o, '400'))) {
      const p = parameters(contract, op).find(
        (x) => x.in === 'query' && (x.schema?.enum || x.schema?.type === 'integer'),
      )
      if (!p) continue
      checked++
      const q = new URLSearchParams(neededQuery(contract, op, customerId))
      q.set(p.name, p.schema.enum ? 'NOT_A_VALUE' : 'not-a-number')
      const r = await refusal(op, authFor(op), undefined, `?${q}`)
      const fields = ((r.body?.details?.errors ?? []) as Array<{field: string}>).map((e) => e.field)
      if (r.status !== 400 || !fields.includes(String(p.name)) || !r.unchanged)
        off.push(`${op.key} [${p.name}] -> ${r.status} ${r.body?.code} ${fields.join(',')}`)
    }
    expect(checked).toBeGreaterThan(10)
    expect(off).toEqual([])
  })
})
