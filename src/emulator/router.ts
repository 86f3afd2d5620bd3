import {AUTHZ_TABLE, keyOf, type Operation} from './authz/table.js'
import type {EmuRequest, EmuResponse, SandboxContext} from './context.js'

export type {EmuRequest, EmuResponse}
export {DEFAULT_MAX_BODY, PUBLIC_MAX_BODY, UPLOAD_MAX_BODY} from './authz/table.js'

/** An operation's handler: the request, and its context (also `req.ctx`), which carries the caller's principal. */
export type Handler = (req: EmuRequest, ctx: SandboxContext) => EmuResponse | Promise<EmuResponse>

interface Compiled {
  op: Operation
  /** Literal segments; the parameter's name (`{customerId}` -> customerId) where the template has one. */
  parts: Array<{literal: string} | {param: string}>
}

/** A request matched to its operation: the table entry, its handler, and the path's parameters. */
export interface Matched {
  op: Operation
  handler: Handler
  params: Record<string, string>
}

/** Literal segments first: at the first position where two templates differ, a literal beats a parameter. */
function specificity(a: Compiled, b: Compiled): number {
  for (let i = 0; i < a.parts.length; i++) {
    const aParam = 'param' in a.parts[i]
    if (aParam !== 'param' in b.parts[i]) return aParam ? 1 : -1
  }
  return 0
}

/**
 * The sandbox's operations, routed from the operation table (authz/table/): one matcher, most specific
 * template first, so no registration order decides anything. Route modules bind a handler to each
 * operation by key (`handle`); an operation of no table entry cannot be routed, and `complete()`
 * refuses a table entry left without a handler.
 */
export class Router {
  /** Entries by `METHOD segmentCount`, most specific first. */
  private readonly index = new Map<string, Compiled[]>()
  /** Entries by handler key, and the contract's operationIds (an own route's key is `METHOD /path`). */
  private readonly byKey = new Map<string, Operation>()
  private readonly handlers = new Map<Operation, Handler>()

  constructor(readonly operations: readonly Operation[] = AUTHZ_TABLE) {
    for (const op of operations) {
      if (this.byKey.has(keyOf(op))) throw new Error(`The operation table names ${keyOf(op)} twice`)
      this.byKey.set(keyOf(op), op)
      this.byKey.set(`${op.method} ${op.path}`, op)
      const parts = op.path
        .split('/')
        .filter(Boolean)
        .map((s) => (/^\{.+\}$/.test(s) ? {param: s.slice(1, -1)} : {literal: s}))
      const key = `${op.method} ${parts.length}`
      this.index.set(key, [...(this.index.get(key) ?? []), {op, parts}])
    }
    for (const list of this.index.values()) list.sort(specificity)
  }

  /**
   * Binds `handler` to the operation `key` names: its operationId, or `METHOD /path/{param}` exactly as
   * the table spells it. A key the table does not have, or an operation bound twice, is a wiring error.
   */
  handle(key: string, handler: Handler): this {
    const op = this.byKey.get(key)
    if (!op) throw new Error(`${key} is not in the operation table (authz/table/); declare it there first`)
    if (this.handlers.has(op)) throw new Error(`${keyOf(op)} has two handlers; an operation has one`)
    this.handlers.set(op, handler)
    return this
  }

  /** Throws naming every operation of the table that no handler serves (called once routes are wired). */
  complete(): this {
    const missing = this.operations.filter((op) => !this.handlers.has(op)).map(keyOf)
    if (missing.length) throw new Error(`Operations with no handler: ${missing.join(', ')}`)
    return this
  }

  /** Every routed operation as `METHOD /template`. */
  patterns(): Array<{method: string; pattern: string}> {
    return this.operations.filter((op) => this.handlers.has(op)).map((op) => ({method: op.method, pattern: op.path}))
  }

  /** The most specific operation whose template fits `method path`, with the path's values (URL-decoded). */
  find(method: string, path: string): {op: Operation; params: Record<string, string>} | undefined {
    let segments: string[]
    try {
      segments = path.split('/').filter(Boolean).map(decodeURIComponent)
    } catch {
      return undefined
    }
    for (const c of this.index.get(`${method} ${segments.length}`) ?? []) {
      const params: Record<string, string> = {}
      const fits = c.parts.every((p, i) => {
        if ('literal' in p) return p.literal === segments[i]
        params[p.param] = segments[i]
        return true
      })
      if (fits) return {op: c.op, params}
    }
    return undefined
  }

  /**
   * The operation, handler and params for a request; `{allow}` when the path exists only for other
   * methods (the 405's Allow header, RFC 9110 §15.5.6: HEAD wherever GET is, as the server answers
   * HEAD as GET); or undefined.
   */
  match(method: string, path: string): Matched | {allow: string[]} | undefined {
    const found = this.find(method, path)
    const handler = found && this.handlers.get(found.op)
    if (found && handler) return {...found, handler}
    const allow = new Set<string>()
    for (const other of new Set(this.operations.map((op) => op.method))) {
      const at = other === method ? undefined : this.find(other, path)
      if (!at || !this.handlers.has(at.op)) continue
      allow.add(other)
      if (other === 'GET') allow.add('HEAD')
    }
    return allow.size ? {allow: [...allow].sort()} : undefined
  }
}
