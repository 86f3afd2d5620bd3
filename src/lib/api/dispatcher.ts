import {readFileSync} from 'node:fs'
import {SvcError, usageError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {currentEnv} from '../io.js'
import type {ClientOptions} from './client-options.js'
import {keepAliveAgentOptions, loadAgent} from './http.js'
import {proxyFor, type ProxyChoice} from './proxy.js'
import {explainTlsError, describeTlsSession} from './tls-errors.js'

/** How the client reaches the Service beyond its URL: the proxy variables, and a CA to trust. */
export interface NetworkOptions {
  /** Where HTTPS_PROXY, HTTP_PROXY, NO_PROXY (any case) and NODE_EXTRA_CA_CERTS are read (default: the running command's, lib/io.ts). */
  env?: NodeJS.ProcessEnv
  /** A CA trusted besides the system's (and NODE_EXTRA_CA_CERTS). */
  ca?: TrustedCa
}

export interface TrustedCa {
  file: string
  /** Where it was named, for messages: `--ca-file`, `SVC_CA_FILE`, `profile prod`, `the local sandbox`. */
  from: string
}

type Connector = import('undici').buildConnector.connector

/**
 * The client's dispatcher for one base URL: a keep-alive Agent, or undici's ProxyAgent (a CONNECT
 * tunnel, for http:// and https:// URLs alike) when a proxy variable applies to the URL's host.
 * Proxy code is loaded only then. Every connection goes through `explained`, so a refused tunnel or
 * certificate arrives as an SvcError (exit 9) that names the problem and the fix, never a bare
 * OpenSSL code; with --debug the TLS session and the proxy are traced (no secret in either).
 */
export async function openDispatcher(
  opts: Pick<ClientOptions, 'baseUrl' | 'trace'> & {network?: NetworkOptions},
): Promise<import('undici').Dispatcher> {
  const env = opts.network?.env ?? currentEnv()
  const origin = new URL(opts.baseUrl).origin
  const route = proxyFor(opts.baseUrl, env)
  const ca = opts.network?.ca
  const tls = origin.startsWith('https:') && ca ? {ca: trustedCas(ca, env)} : {}
  const Agent = await loadAgent()
  // @ts-expect-error deep import (no declarations); typed by cjs
  const buildConnector = cjs<(o: object) => Connector>(await import('undici/lib/core/connect.js'))
  const info = {origin, ca, trace: opts.trace}
  if (route && 'bypass' in route) opts.trace?.(`  proxy: none for ${origin} (${route.variable} has "${route.bypass}")`)
  if (!route || 'bypass' in route)
    return new Agent({...keepAliveAgentOptions(), connect: explained(buildConnector(tls), info)})

  opts.trace?.(`  proxy: ${route.shown} (${route.variable}), CONNECT tunnel to ${new URL(origin).host}`)
  const [proxyAgent, pool] = await Promise.all([
    // @ts-expect-error deep import (no declarations); typed by cjs
    import('undici/lib/dispatcher/proxy-agent.js'),
    // @ts-expect-error deep import (no declarations); typed by cjs
    import('undici/lib/dispatcher/pool.js'),
  ])
  const ProxyAgent = cjs<typeof import('undici').ProxyAgent>(proxyAgent)
  const Pool = cjs<typeof import('undici').Pool>(pool)
  return new ProxyAgent({
    ...keepAliveAgentOptions(),
    uri: route.url.href,
    requestTls: tls,
    // The tunnel to the proxy: its refusals and silences are the proxy's, and said so.
    clientFactory: (url: URL | string, o: object) => proxyClient(new Pool(url, o), route),
    // Each connection to the Service (through the tunnel), explained like a direct one.
    factory: (o: string | URL, p: object & {connect?: unknown}) =>
      new Pool(o, {...p, connect: explained(p.connect as Connector, info)}),
  } as unknown as ConstructorParameters<typeof import('undici').ProxyAgent>[0])
}

/** The system's CAs, NODE_EXTRA_CA_CERTS (which an explicit list would otherwise drop), and the one given. */
function trustedCas(ca: TrustedCa, env: NodeJS.ProcessEnv): string[] {
  const pem = readPem(ca.file, ca.from)
  const extra = env.NODE_EXTRA_CA_CERTS ? readPem(env.NODE_EXTRA_CA_CERTS, 'NODE_EXTRA_CA_CERTS') : undefined
  // node:tls on use (process.getBuiltinModule: the bundle runs in a vm.Script, where import() of a builtin is not wired).
  const {rootCertificates} = process.getBuiltinModule('node:tls')
  return [...rootCertificates, ...(extra ? [extra] : []), pem]
}

function readPem(file: string, from: string): string {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw usageError(
      `The CA file ${file} (${from}) cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      'Point it at a PEM file holding the CA certificate (-----BEGIN CERTIFICATE-----).',
    )
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw usageError(
      `The CA file ${file} (${from}) holds no PEM certificate`,
      'Point it at a PEM file holding the CA certificate (-----BEGIN CERTIFICATE-----).',
    )
  return text
}

/** A connector whose failures are explained (TLS) and whose TLS sessions are traced. */
function explained(
  inner: Connector,
  info: {origin: string; ca?: TrustedCa; trace?: (line: string) => void},
): Connector {
  return (opts, cb) =>
    inner(opts, (...[err, socket]) => {
      if (err) return cb(err instanceof SvcError ? err : (explainTlsError(err, info) ?? err), null)
      const tlsSocket = socket as import('node:tls').TLSSocket
      if (tlsSocket.encrypted && info.trace) info.trace(`  ${describeTlsSession(tlsSocket, info.ca)}`)
      cb(null, socket!)
    })
}

/** The pool that speaks to the proxy: a CONNECT that is refused, or a proxy nobody answers for, is said as such. */
function proxyClient<P extends import('undici').Pool>(pool: P, route: ProxyChoice): P {
  const connect = pool.connect.bind(pool) as (o: object) => Promise<import('undici').Dispatcher.ConnectData>
  const tunnel = async (o: object & {path?: string}) => {
    let data
    try {
      data = await connect(o)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message
      throw proxyError(`Cannot reach the proxy ${route.shown} (${route.variable}): ${code}`, route, {reason: code})
    }
    if (data.statusCode !== 200) {
      data.socket.destroy()
      const auth = data.statusCode === 407
      throw proxyError(
        `The proxy ${route.shown} (${route.variable}) refused to open a tunnel to ${o.path}: HTTP ${data.statusCode}${auth ? ' (proxy authentication required)' : ''}`,
        route,
        {status: data.statusCode, target: o.path},
        auth
          ? `Give the proxy's credentials in ${route.variable} (http://user:password@host:port), or ask its administrator.`
          : `Ask the proxy's administrator to allow ${o.path}, or list the host in NO_PROXY to connect directly.`,
      )
    }
    return data
  }
  ;(pool as {connect: unknown}).connect = tunnel
  return pool
}

function proxyError(message: string, route: ProxyChoice, details: Record<string, unknown>, hint?: string): SvcError {
  return new SvcError({
    code: 'PROXY_ERROR',
    exitCode: ExitCode.NETWORK,
    message,
    details: {proxy: route.shown, variable: route.variable, ...details},
    hint:
      hint ??
      `Check that the proxy runs and ${route.variable} names it, or unset ${route.variable} (or list the host in NO_PROXY) to connect directly.`,
  })
}

/** A CommonJS module's export, however the loader wrapped it. */
function cjs<T>(m: {default?: unknown}): T {
  return (m.default ?? m) as T
}
