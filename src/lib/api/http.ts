import type {Method} from './request.js'
import {decodeBody, type ApiResponse} from './response.js'

/** Node's default limit, given explicitly so undici need not load node:http to read it. */
const MAX_HEADER_BYTES = 16 * 1024

/**
 * The pool settings of every dispatcher the client makes. undici is imported here and in
 * dispatcher.ts (proxies, trust), lazily: loading it costs start-up time, and a command that sends
 * nothing (--dry-run, --help) never pays for it.
 */
export function keepAliveAgentOptions() {
  return {keepAliveTimeout: 10_000, connections: 8, maxHeaderSize: MAX_HEADER_BYTES}
}

/** One HTTP exchange, its answer read whole and decoded (JSON when the answer says so). */
export async function exchange(
  dispatcher: import('undici').Dispatcher,
  method: Method,
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  timeoutMs: number,
): Promise<ApiResponse> {
  const u = new URL(url)
  const res = await dispatcher.request({
    origin: u.origin,
    path: u.pathname + u.search,
    method,
    headers,
    body,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  })
  const text = await res.body.text()
  return {
    status: res.statusCode,
    headers: res.headers,
    body: decodeBody(res.statusCode, res.headers['content-type'], text),
  }
}

/**
 * undici's Agent plus its request API, without the rest of the package (fetch, websocket, mocks,
 * caches, interceptors): the full entry point is much slower to load. The same wiring as
 * undici's index.js (`Object.assign(Dispatcher.prototype, api)`).
 */
export async function loadAgent(): Promise<typeof import('undici').Agent> {
  const [agent, api, dispatcher] = await Promise.all([
    // @ts-expect-error deep import (no declarations); typed by the return type
    import('undici/lib/dispatcher/agent.js'),
    // @ts-expect-error deep import (no declarations)
    import('undici/lib/api/index.js'),
    // @ts-expect-error deep import (no declarations)
    import('undici/lib/dispatcher/dispatcher.js'),
  ])
  const cjs = (m: {default?: unknown}) => (m.default ?? m) as Record<string, unknown> & {prototype: object}
  Object.assign(cjs(dispatcher).prototype, cjs(api))
  return cjs(agent) as unknown as typeof import('undici').Agent
}
