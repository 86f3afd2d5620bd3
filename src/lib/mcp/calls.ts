import {requestDigest} from '../api/planned.js'
import type {DescribedRequest} from '../api/describe.js'
import {SvcError, isSvcError, type ErrorDocument} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {redact} from '../secret.js'
import {checkArguments, planArguments, toArgv, type ToolArguments} from './arguments.js'
import type {Tool} from './catalogue.js'
import type {PlanStore} from './plans.js'
import type {Runner} from './runner.js'
import {moneySummary} from './summary.js'

export interface ToolResult {
  ok: boolean
  /** The command's --json document (or the plan, or the error document), secrets redacted. */
  doc: Record<string, unknown>
}

export interface CallDeps {
  runner: Runner
  plans: PlanStore
  /** Writes are refused (a production profile started without --allow-production). */
  writesRefused?: string
  /** One line per write for the server's log (stderr): what was planned, confirmed or refused. */
  audit: (line: string) => void
}

/**
 * One tool call. A read runs its command. A write without `confirm` runs the command's dry run
 * with a fresh Idempotency-Key and answers the plan; with `confirm`, the plan is taken (used up)
 * and the same command runs with that key, allowed to send only the requests the plan showed.
 */
export async function callTool(tool: Tool, input: ToolArguments | undefined, deps: CallDeps): Promise<ToolResult> {
  try {
    const args = checkArguments(tool, input)
    if (tool.kind === 'read') return fromRun(await deps.runner.run(toArgv(tool, args), readOnlyEnv(tool)))
    if (deps.writesRefused)
      throw new SvcError({code: 'PRODUCTION_REFUSED', exitCode: ExitCode.USAGE, message: deps.writesRefused})
    const planned = planArguments(args)
    if (typeof args.confirm === 'string') return await confirm(tool, planned, args.confirm, deps)
    return await plan(tool, planned, deps)
  } catch (error) {
    if (isSvcError(error)) {
      if (typeof input?.confirm === 'string') deps.audit(`refused ${tool.name}: ${error.code}`)
      return {ok: false, doc: {error: redact(error.toDocument()) as ErrorDocument}}
    }
    throw error
  }
}

async function plan(tool: Tool, args: ToolArguments, deps: CallDeps): Promise<ToolResult> {
  const key = deps.plans.newKey()
  // The dry run with an empty plan too: should a command's --dry-run ever send a write, the transport refuses it.
  const run = await deps.runner.run([...toArgv(tool, args), '--dry-run'], {
    SVC_PLAN_IDEMPOTENCY_KEY: key,
    SVC_PLANNED_REQUESTS: '',
  })
  if (run.code !== 0) return fromRun(run)
  const requests = describedRequests(run.doc)
  const writes = requests.filter((r) => r.method !== 'GET')
  const p = deps.plans.add(tool.name, args, writes.map(requestDigest), key)
  deps.audit(`planned ${tool.name}: ${writes.map((r) => `${r.method} ${r.url}`).join(', ') || 'no write'}`)
  const summary = await moneySummary(tool, args, writes, deps.runner)
  return {
    ok: true,
    doc: {
      plan: {
        tool: tool.name,
        confirm: p.token,
        expiresAt: new Date(p.expiresAt).toISOString(),
        idempotencyKey: key,
        requestDigests: p.requests,
        ...(summary ? {summary} : {}),
        // As --dry-run printed them: credentials and secret fields already redacted by the command.
        requests,
      },
      next:
        'Nothing was sent. Show this plan to the person; only if they agree, call the same tool again with the same ' +
        'arguments and `confirm` set to plan.confirm.',
    },
  }
}

async function confirm(tool: Tool, args: ToolArguments, token: string, deps: CallDeps): Promise<ToolResult> {
  const p = deps.plans.take(tool.name, args, token)
  const argv = [...toArgv(tool, args), ...('yes' in tool.command.flags ? ['--yes'] : [])]
  const run = await deps.runner.run(argv, {
    SVC_PLAN_IDEMPOTENCY_KEY: p.idempotencyKey,
    SVC_PLANNED_REQUESTS: p.requests.join(','),
  })
  deps.audit(`confirmed ${tool.name} (key ${p.idempotencyKey}): exit ${run.code}`)
  return fromRun(run)
}

/**
 * A read runs with an empty plan: its transport refuses any request but a GET, so a command taken
 * for a read by mistake still cannot change anything.
 */
export function readOnlyEnv(tool: Pick<Tool, 'readPost'>): Record<string, string> {
  return tool.readPost ? {} : {SVC_PLANNED_REQUESTS: ''}
}

/** Every request a dry run's document shows (one, or several for a command that sends more than one). */
export function describedRequests(doc: unknown): DescribedRequest[] {
  const found: DescribedRequest[] = []
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit)
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>
      if (typeof o.method === 'string' && typeof o.url === 'string' && o.headers && typeof o.headers === 'object')
        found.push(o as unknown as DescribedRequest)
      else Object.values(o).forEach(visit)
    }
  }
  visit(doc)
  return found
}

function fromRun(run: {code: number; doc: unknown; stderr: string}): ToolResult {
  const doc = redact(run.doc) as unknown
  if (run.code === 0)
    return {
      ok: true,
      doc:
        doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {data: doc ?? null},
    }
  if (doc && typeof doc === 'object' && 'error' in doc) return {ok: false, doc: doc as Record<string, unknown>}
  // No --json document (a crash): the first line of stderr says what happened (a stack follows it).
  const line = run.stderr.trim().split('\n')[0] ?? ''
  return {ok: false, doc: {error: {code: 'FAILED', message: line || `exit ${run.code}`, exitCode: run.code}}}
}
