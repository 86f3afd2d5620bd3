import type {EmuRequest, EmuResponse, SandboxContext} from './context.js'

export type {EmuRequest, EmuResponse}

/** Documents are at most 10 MB (spec); a multipart envelope adds a little. Routes that take uploads declare it. */
export const UPLOAD_MAX_BODY = 12 * 1024 * 1024
/** Every other API request body: JSON far larger than any the contract describes. */
export const DEFAULT_MAX_BODY = 1024 * 1024
/** Routes anyone may call without credentials (hosted pages, device-code redemption) read at most this much. */
export const PUBLIC_MAX_BODY = 64 * 1024

/** A route's handler: the request, and its context (also `req.ctx`), which carries the caller's principal. */
export type Handler = (req: EmuRequest, ctx: SandboxContext) => EmuResponse | Promise<EmuResponse>

export interface RouteOptions {
  /**
   * false: the handler runs outside a database unit, for one that writes nothing and waits on the
   * network (a webhook test delivery), so it cannot hold up every other request.
   */
  unit?: boolean
  /** The largest body the route reads (default DEFAULT_MAX_BODY); uploads declare theirs. */
  maxBody?: number
}

interface Route {
  method: string
  parts: string[]
  handler: Handler
  options: RouteOptions
}

/** A small path router: `/customers/:customerId/kyc-link`; segments are URL-decoded. */
export class Router {
  private readonly routes: Route[] = []

  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    this.routes.push({method, parts: pattern.split('/').filter(Boolean), handler, options})
    return this
  }

  get(p: string, h: Handler, o?: RouteOptions) {
    return this.add('GET', p, h, o)
  }
  post(p: string, h: Handler, o?: RouteOptions) {
    return this.add('POST', p, h, o)
  }
  put(p: string, h: Handler, o?: RouteOptions) {
    return this.add('PUT', p, h, o)
  }
  patch(p: string, h: Handler, o?: RouteOptions) {
    return this.add('PATCH', p, h, o)
  }
  delete(p: string, h: Handler, o?: RouteOptions) {
    return this.add('DELETE', p, h, o)
  }

  /** Every registered route as `METHOD /pattern` (the authorization table must name each). */
  patterns(): Array<{method: string; pattern: string}> {
    return this.routes.map((r) => ({method: r.method, pattern: '/' + r.parts.join('/')}))
  }

  /**
   * The handler and params for a request; `{allow}` when the path exists only for other methods (the
   * 405's Allow header, RFC 9110 §15.5.6: HEAD wherever GET is, as the server answers HEAD as GET); or undefined.
   */
  match(
    method: string,
    path: string,
  ): {handler: Handler; params: Record<string, string>; options: RouteOptions} | {allow: string[]} | undefined {
    let segments: string[]
    try {
      segments = path.split('/').filter(Boolean).map(decodeURIComponent)
    } catch {
      return undefined
    }
    const allow = new Set<string>()
    for (const r of this.routes) {
      if (r.parts.length !== segments.length) continue
      const params: Record<string, string> = {}
      let ok = true
      for (let i = 0; i < r.parts.length; i++) {
        const p = r.parts[i]
        if (p.startsWith(':')) params[p.slice(1)] = segments[i]
        else if (p !== segments[i]) {
          ok = false
          break
        }
      }
      if (!ok) continue
      if (r.method === method) return {handler: r.handler, params, options: r.options}
      allow.add(r.method)
      if (r.method === 'GET') allow.add('HEAD')
    }
    return allow.size ? {allow: [...allow].sort()} : undefined
  }
}
