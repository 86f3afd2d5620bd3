import {createHash, randomUUID} from 'node:crypto'
import type {Contract, Operation} from './contract.js'
import {sample} from './contract-samples.js'
import type {TestSandbox} from './sandbox.js'

/**
 * Requests built from the contract alone, for the sweep of every operation
 * (test/integration/contract-sweep.test.ts): a concrete path, a body the contract accepts, and the
 * same body broken in one field.
 */
type Json = Record<string, any>

/** The sandbox serves these contract operations at another path (contract-allow.ts `internal-account-path`). */
const SANDBOX_PATHS: Record<string, string> = {'/customers/internal-accounts': '/internal-account'}

export function parameters(contract: Contract, op: Operation): Json[] {
  const item = (contract.doc.paths as Json)[op.template] as Json
  return [...(item.parameters ?? []), ...((contract.operation(op).parameters ?? []) as Json[])].map((p: Json) =>
    contract.deref(p),
  )
}

/**
 * The query string a request needs to reach the operation's own checks: every required query
 * parameter (its example), and `customerId` (the caller's customer) wherever the operation takes one.
 */
export function neededQuery(contract: Contract, op: Operation, customerId: string): string {
  const q = new URLSearchParams()
  for (const p of parameters(contract, op))
    if (p.in === 'query' && (p.required || p.name === 'customerId'))
      q.set(p.name, p.name === 'customerId' ? customerId : String(p.example ?? p.schema?.example ?? 'x'))
  return q.size ? `?${q}` : ''
}

/** Headers the operation requires (an Idempotency-Key, fresh each time). */
export function neededHeaders(contract: Contract, op: Operation): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of parameters(contract, op))
    if (p.in === 'header' && p.required && p.name.toLowerCase() === 'idempotency-key') out[p.name] = randomUUID()
  return out
}

/** The operation's path with every parameter set to a well-formed id of nothing (the contract's example, its tail zeroed). */
export function absentPath(contract: Contract, op: Operation): string {
  const byName = new Map(parameters(contract, op).map((p) => [p.name as string, p]))
  const path = SANDBOX_PATHS[op.template] ?? op.template
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(absentValue(byName.get(name), name)))
}

/**
 * The operation's path with its parameters set to things that exist (`ids` by parameter name; a
 * `/platform/...` operation looks up `platform:<name>` first), or undefined when one is not given.
 */
export function realPath(op: Operation, ids: Record<string, string>): string | undefined {
  const path = SANDBOX_PATHS[op.template] ?? op.template
  const scope = op.template.split('/')[1]
  let missing = false
  const out = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const id = ids[`${scope}:${name}`] ?? ids[name]
    if (!id) missing = true
    return encodeURIComponent(id ?? '')
  })
  return missing ? undefined : out
}

function absentValue(p: Json | undefined, name: string): string {
  const example = String(p?.example ?? p?.schema?.example ?? '')
  const m = /^([A-Z][A-Za-z]+):/.exec(example)
  if (m) return `${m[1]}:00000000-0000-4000-8000-00000000a404`
  if (example.startsWith('$') || /uma/i.test(name)) return '$nobody@sandbox.uma.money'
  return `${name}-absent`
}

/** Whether the operation takes credentials (the document's default applies unless it says `security: []`). */
export function needsCredentials(contract: Contract, op: Operation): boolean {
  const own = contract.operation(op).security as unknown[] | undefined
  return (own ?? (contract.doc.security as unknown[])).length > 0
}

export const isAgentOperation = (op: Operation) => op.template.startsWith('/agents/me')

/** A JSON request body the contract accepts: its example when it has one, else a minimal sample. */
export function validBody(contract: Contract, op: Operation): unknown {
  const req = contract.requestFor(op)
  if (!req?.content.includes('application/json') || !req.schema) return undefined
  const media = ((contract.deref((contract.operation(op).requestBody ?? {}) as Json).content ?? {}) as Json)[
    'application/json'
  ] as Json
  const examples = Object.values((media.examples ?? {}) as Record<string, Json>).map((e) => contract.deref(e).value)
  const candidates = [media.example, ...examples, sample(contract.doc, req.schema, {variant: 0, full: false})]
  return candidates.find((c) => c !== undefined && !contract.validate('request', req.pointer, c).length)
}

/**
 * The body with one property of the top-level object given a value of the wrong type: the first
 * required one the schema types, else the first typed one. Undefined when nothing can be broken.
 */
export function brokenBody(contract: Contract, op: Operation): {body: Json; field: string} | undefined {
  const body = validBody(contract, op)
  const req = contract.requestFor(op)
  if (!req?.schema || !body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const props = properties(contract, req.schema)
  const required = new Set(requiredOf(contract, req.schema))
  const names = [...Object.keys(props).filter((n) => required.has(n)), ...Object.keys(props)]
  for (const name of names) {
    const wrong = wrongFor(contract.deref(props[name]))
    if (wrong === undefined) continue
    const broken = {...(body as Json), [name]: wrong}
    if (contract.validate('request', req.pointer, broken).length) return {body: broken, field: name}
  }
  return undefined
}

function properties(contract: Contract, schema: Json): Record<string, Json> {
  const s = contract.deref(schema)
  const out: Record<string, Json> = {...(s.properties ?? {})}
  for (const part of (s.allOf ?? []) as Json[]) Object.assign(out, properties(contract, part))
  return out
}

function requiredOf(contract: Contract, schema: Json): string[] {
  const s = contract.deref(schema)
  return [...((s.required ?? []) as string[]), ...((s.allOf ?? []) as Json[]).flatMap((p) => requiredOf(contract, p))]
}

function wrongFor(schema: Json): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  if (type === 'string') return 12345
  if (type === 'integer' || type === 'number') return 'not-a-number'
  if (type === 'boolean') return 'yes'
  if (type === 'object' || type === 'array' || schema.$ref || schema.allOf || schema.oneOf) return 'not-an-object'
  return undefined
}

/**
 * A fingerprint of everything the sandbox stores (every row of every table): equal before and
 * after a refusal means the refusal changed nothing.
 */
export function storeFingerprint(sbx: TestSandbox): string {
  const hash = createHash('sha256')
  const tables = sbx.emu.db.sql.rows(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`) as unknown[][]
  for (const [name] of tables) {
    hash.update(String(name))
    for (const row of sbx.emu.db.sql.rows(`SELECT * FROM "${String(name)}"`))
      hash.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))
  }
  return hash.digest('hex')
}

/** A request expected to be refused: its status, code and body, and whether the store is unchanged. */
export async function refusedIn(sbx: TestSandbox, request: () => Promise<{status: number; body: any}>) {
  const before = storeFingerprint(sbx)
  const r = await request()
  return {
    status: r.status,
    code: r.body?.code as string | undefined,
    body: r.body,
    unchanged: storeFingerprint(sbx) === before,
  }
}

/** Operations taking input that the sweep (test/integration/contract-sweep.test.ts) does not break, and why. */
const NO_400 = 'The contract documents no 400 for it: a broken query would be an undocumented answer.'
export const UNBROKEN: Record<string, string> = {
  'GET /sca/factors': NO_400,
  'DELETE /sca/factors/{credentialId}': NO_400,
  'GET /sca/factors/reset/{resetId}': NO_400,
  'GET /uma-providers': NO_400,
  'GET /agents/me/actions': NO_400,
  'GET /agents/me/internal-accounts': NO_400,
  'GET /stablecoins/{stablecoinId}/operations': NO_400,
  'POST /customers/external-accounts/{externalAccountId}/trust/confirm':
    'An SCA step: its body is read only where SCA applies (409 first here); contract-answers-kyc-sca.test.ts sends a wrong code (400 naming code).',
  'POST /customers/external-accounts/{externalAccountId}/untrust/confirm':
    'An SCA step: its body is read only where SCA applies (409 first here); contract-answers-kyc-sca.test.ts confirms with nothing started (400).',
  'POST /agents/{agentId}/actions/{actionId}/reject':
    'Needs a pending agent action; contract-answers.test.ts sends a reason that is no string (400).',
  'PATCH /beneficial-owners/{beneficialOwnerId}':
    "Needs a business customer's owner, which this sweep does not build (not yet).",
  'POST /auth/credentials':
    'A signed retry of an embedded wallet (a live session stamps it): not built from the contract alone (not yet).',
  'POST /auth/credentials/{id}/verify':
    'A signed retry of an embedded wallet (a live session stamps it): not built from the contract alone (not yet).',
  'POST /auth/credentials/{id}/challenge':
    'Needs an embedded wallet credential, which this sweep does not build (not yet).',
  'POST /auth/sessions/{id}/refresh':
    'A signed retry of an embedded wallet (a live session stamps it): not built from the contract alone (not yet).',
}
