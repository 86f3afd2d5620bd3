import type {Contract, Operation} from './contract.js'
import {ALLOWANCES, type Allowance} from './contract-allow.js'

/** One request/answer pair the sandbox served during a test. */
export interface Exchange {
  test: string
  method: string
  path: string
  query: Array<[string, string]>
  requestContentType: string
  /** Parsed JSON request body, the raw text when not JSON, or undefined when empty. */
  requestBody: unknown
  /** Refused before its body was read (credentials, size cap): there is no body to check. */
  bodyUnread?: boolean
  /** Sent by the CLI (user-agent svc-cli/…) rather than by a test's direct setup call. */
  fromCli: boolean
  status: number
  responseContentType: string
  responseBody: unknown
}

export interface Finding {
  kind: 'request' | 'response'
  exchange: Exchange
  operation?: string
  errors: string[]
}

/** A documented answer: `GET /customers/{customerId} 404` (the status as the contract keys it). */
export type AnswerKey = string

export interface CheckResult {
  findings: Finding[]
  /** Per documented answer the exchanges produced it: how many, and how many bodies matched its schema as they were (no allowance excusing a line). */
  answers: Record<AnswerKey, {seen: number; valid: number; excusedBy?: string[]}>
  /** Operation keys with any answer, and with a 2xx answer. */
  exercised: string[]
  succeeded: string[]
  cliRequests: number
  /** How often each allowance excused something (an unused one is worth removing). */
  allowanceUse: Record<string, number>
}

/** Checks every recorded exchange: answers against the response schema by operation and status, CLI requests against the request schema. */
export function checkExchanges(contract: Contract, exchanges: Exchange[]): CheckResult {
  const findings: Finding[] = []
  const exercised = new Set<string>()
  const succeeded = new Set<string>()
  const allowanceUse: Record<string, number> = Object.fromEntries(ALLOWANCES.map((a) => [a.id, 0]))
  const answers: CheckResult['answers'] = {}
  let cliRequests = 0
  const countAnswer = (o: Operation, ex: Exchange, errors: string[]) => {
    const documented = contract.responseFor(o, ex.status)
    if (!documented) return
    const a = (answers[`${o.key} ${documented.key}`] ??= {seen: 0, valid: 0})
    a.seen++
    if (!errors.length) a.valid++
    // Off the schema only where an allowance decides: which ones (docs/fidelity.md gives their reason).
    const by = errors.map((line) => excuserOf('response', ex, o, line))
    if (errors.length && by.every(Boolean))
      a.excusedBy = [...new Set([...(a.excusedBy ?? []), ...(by as string[])])].sort()
  }
  for (const seen of exchanges) {
    const x = adapt(seen, allowanceUse)
    const op = contract.match(x.method, x.path)
    if (op) {
      exercised.add(op.key)
      if (x.status < 300) succeeded.add(op.key)
    }
    const report = (kind: Finding['kind'], errors: string[]) => {
      const left = errors.filter((line) => !excused(ALLOWANCES, allowanceUse, kind, x, op, line))
      if (left.length) findings.push({kind, exchange: x, operation: op?.key, errors: left})
    }
    if (!op) {
      // The contract documents a 405 on the operations of a path, for the methods that path does not take.
      if (x.status === 405)
        for (const o of contract.operations.filter((o) => o.regex.test(x.path)))
          if (contract.responseFor(o, 405)?.key === '405') countAnswer(o, x, checkResponse(contract, o, x))
      report('response', [`no operation ${x.method} ${x.path} in the contract`])
      continue
    }
    const errors = checkResponse(contract, op, x)
    countAnswer(op, x, errors)
    report('response', errors)
    // A request the sandbox refused as invalid is a test of that refusal (often `svc api` with a bad body on purpose).
    if (x.fromCli && x.status !== 400) {
      cliRequests++
      report('request', checkRequest(contract, op, x))
    }
  }
  return {
    findings,
    answers,
    exercised: [...exercised].sort(),
    succeeded: [...succeeded].sort(),
    cliRequests,
    allowanceUse,
  }
}

/** Applies every allowance that translates a deliberate difference (see contract-allow.ts). */
function adapt(x: Exchange, use: Record<string, number>): Exchange {
  let out = x
  for (const a of ALLOWANCES) {
    const next = a.adapt?.(out)
    if (next) {
      out = next
      use[a.id]++
    }
  }
  return out
}

/** The allowance that excuses a finding line, without counting its use. */
function excuserOf(kind: Finding['kind'], x: Exchange, op: Operation, line: string): string | undefined {
  return ALLOWANCES.find((a) => a.excuses?.({kind, exchange: x, operation: op.key, line}))?.id
}

function excused(
  list: Allowance[],
  use: Record<string, number>,
  kind: Finding['kind'],
  x: Exchange,
  op: Operation | undefined,
  line: string,
): boolean {
  const a = list.find((a) => a.excuses?.({kind, exchange: x, operation: op?.key, line}))
  if (a) use[a.id]++
  return Boolean(a)
}

function checkResponse(contract: Contract, op: Operation, x: Exchange): string[] {
  const documented = contract.responseFor(op, x.status)
  if (!documented) return [`status ${x.status} is not a documented answer of ${op.key}`]
  if (!documented.content.length)
    return x.responseBody === undefined
      ? []
      : [`(body) ${op.key} ${x.status} has no body in the contract, the sandbox sent one`]
  if (!documented.content.includes('application/json')) return []
  if (x.responseBody === undefined) return [`(body) missing: ${op.key} ${x.status} answers application/json`]
  if (!x.responseContentType.includes('json'))
    return [`(body) content-type "${x.responseContentType}" instead of application/json`]
  if (!documented.schema) return []
  return contract.validate('response', documented.pointer, x.responseBody)
}

function checkRequest(contract: Contract, op: Operation, x: Exchange): string[] {
  const errors: string[] = []
  const expected = contract.requestFor(op)
  if (x.bodyUnread) {
    // nothing to check in the body
  } else if (!expected) {
    if (x.requestBody !== undefined) errors.push(`(request body) ${op.key} takes no body, the CLI sent one`)
  } else if (x.requestBody === undefined) {
    if (expected.required) errors.push(`(request body) missing: ${op.key} requires one`)
  } else if (x.requestContentType.includes('json')) {
    if (!expected.content.includes('application/json'))
      errors.push(`(request body) JSON sent, the contract takes ${expected.content.join(', ')}`)
    else if (expected.schema)
      errors.push(...contract.validate('request', expected.pointer, x.requestBody).map((e) => `(request) ${e}`))
  } else if (!expected.content.some((c) => x.requestContentType.startsWith(c))) {
    errors.push(
      `(request body) content-type "${x.requestContentType}", the contract takes ${expected.content.join(', ')}`,
    )
  }
  errors.push(...checkQuery(contract, op, x))
  return errors
}

function checkQuery(contract: Contract, op: Operation, x: Exchange): string[] {
  const params = contract.queryParameters(op)
  const errors: string[] = []
  for (const [name, value] of x.query) {
    const p = params.get(name)
    if (!p) {
      errors.push(`(query) ${name} is not a parameter of ${op.key}`)
      continue
    }
    const coerced = coerce(value, p.type)
    if (coerced === undefined) errors.push(`(query) ${name}=${JSON.stringify(value).slice(0, 60)} is not a ${p.type}`)
    else
      errors.push(
        ...contract.validate('request', p.pointer, coerced).map((e) => `(query ${name}) ${e.replace('(body) ', '')}`),
      )
  }
  return errors
}

function coerce(value: string, type: string | undefined): unknown {
  if (type === 'integer') return /^-?\d+$/.test(value) ? Number(value) : undefined
  if (type === 'number') return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : undefined
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : undefined
  if (type === 'array') return value.split(',')
  return value
}
