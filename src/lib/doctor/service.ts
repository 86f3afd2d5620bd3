import {existsSync} from 'node:fs'
import {proxyFor} from '../api/proxy.js'
import {missingCredentials, type Context} from '../context.js'
import {isSvcError} from '../errors.js'
import {describeProfile} from '../login.js'
import type {Check} from './check.js'

// The checks of the way to the Service: the profile, one GET /config (credentials, clock skew), proxies, TLS trust.

/** Skew beyond this breaks request stamps and OAuth `iat` checks before anything else notices. */
export const MAX_SKEW_MS = 30_000

export function profileCheck(ctx: Context): Check {
  let p
  try {
    p = ctx.profile
  } catch (e) {
    return {
      name: 'profile',
      status: 'problem',
      detail: isSvcError(e) ? e.message : String(e),
      hint: isSvcError(e) ? e.hint : undefined,
    }
  }
  const info = describeProfile(p, ctx.env)
  const source = {
    SVC_CLIENT_SECRET: 'the SVC_CLIENT_SECRET environment variable',
    stored: 'the credentials file (0600)',
    'local sandbox': "the local sandbox's credentials.json",
    'agent token': 'the saved agent access token',
    none: 'nowhere',
  }[info.credentials]
  const detail = `${p.name}${p.implicit ? ' (built-in)' : ''} · ${p.environment} · ${p.baseUrl} · secret from ${source}`
  if (!p.tokenId || !p.secret) {
    const err = missingCredentials(p, ctx.env)
    return {name: 'profile', status: 'problem', detail: `${detail}: ${err.message}`, hint: err.hint}
  }
  return {name: 'profile', status: 'ok', detail}
}

export function unreachable(why: string) {
  return {
    credentials: {name: 'credentials', status: 'skipped', detail: `not checked: ${why}`} as Check,
    clock: {name: 'clock', status: 'skipped', detail: `not checked: ${why}`} as Check,
    reachable: false,
  }
}

/** One GET /config: do the credentials work, and how far is our clock from the server's Date? */
export async function serviceChecks(ctx: Context): Promise<{credentials: Check; clock: Check; reachable: boolean}> {
  const sent = ctx.now()
  let res
  try {
    res = await ctx.client.request({method: 'GET', path: ['config']})
  } catch (e) {
    const err = isSvcError(e) ? e : undefined
    const network = err?.code === 'NETWORK_ERROR' || err?.code === 'TIMEOUT'
    const out = unreachable(network ? 'the Service did not answer' : 'the credentials were refused')
    out.credentials = {
      name: 'credentials',
      status: 'problem',
      detail: `GET /config failed: ${err?.message ?? String(e)}${err?.status ? ` (HTTP ${err.status})` : ''}`,
      hint: err?.hint ?? (err?.status === 401 ? 'Check the token id and secret (`svc login`).' : undefined),
    }
    return {...out, reachable: !network}
  }
  const received = ctx.now()
  const credentials: Check = {
    name: 'credentials',
    status: 'ok',
    detail: `GET /config answered ${res.status} in ${received - sent} ms`,
  }
  const date = Date.parse(String(res.headers.date ?? ''))
  if (!Number.isFinite(date))
    return {
      credentials,
      clock: {name: 'clock', status: 'warn', detail: 'the Service sent no Date header: skew not measured'},
      reachable: true,
    }
  // The Date header has one-second resolution and was stamped somewhere between sent and received.
  const skew = (sent + received) / 2 - (date + 500)
  const ahead = skew > 0 ? 'ahead of' : 'behind'
  const text = `${formatSkew(Math.abs(skew))} ${ahead} the Service`
  if (Math.abs(skew) > MAX_SKEW_MS) {
    const moved = await movedSandboxClock(ctx)
    if (moved)
      return {
        credentials,
        clock: {
          name: 'clock',
          status: 'warn',
          detail: `the local sandbox's clock is ${moved} (${formatSkew(Math.abs(skew))} from this machine's), moved on purpose`,
          hint: 'Relative times follow it; `svc sandbox clock reset --force` puts it back on real time.',
        },
        reachable: true,
      }
    return {
      credentials,
      clock: {
        name: 'clock',
        status: 'problem',
        detail: `this machine's clock is ${text}`,
        hint: 'Synchronise the clock (NTP, e.g. `timedatectl set-ntp true`): wallet stamps and OAuth `iat` are refused beyond a small skew.',
      },
      reachable: true,
    }
  }
  return {
    credentials,
    clock: {name: 'clock', status: 'ok', detail: `within ${formatSkew(Math.max(1000, Math.abs(skew)))} of the Service`},
    reachable: true,
  }
}

/**
 * A local sandbox answers with its own clock in its Date header (server-clock.ts): when that clock
 * was frozen or advanced, the skew is the sandbox's doing, not this machine's. Its mode, or undefined.
 */
async function movedSandboxClock(ctx: Context): Promise<string | undefined> {
  if (ctx.profile.environment !== 'local') return undefined
  try {
    const {getClock} = await import('../api/clock.js')
    const clock = await ctx.client.call(getClock())
    return clock.mode === 'real'
      ? undefined
      : clock.mode === 'frozen'
        ? `frozen at ${clock.now}`
        : `ahead, at ${clock.now}`
  } catch {
    return undefined
  }
}

function formatSkew(ms: number): string {
  const s = Math.round(ms / 1000)
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m ${s % 60}s`
      : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
}

/** The proxy the profile's URL goes through (curl's reading of the environment), credentials hidden. */
export function proxyCheck(ctx: Context): Check {
  let origin: string
  try {
    origin = new URL(ctx.profile.baseUrl).origin
  } catch {
    return {name: 'proxy', status: 'skipped', detail: 'not checked: no profile'}
  }
  let route
  try {
    route = proxyFor(origin, ctx.env)
  } catch (e) {
    return {name: 'proxy', status: 'problem', detail: (e as Error).message, hint: isSvcError(e) ? e.hint : undefined}
  }
  if (!route) return {name: 'proxy', status: 'ok', detail: `none configured: svc connects directly to ${origin}`}
  if ('bypass' in route)
    return {
      name: 'proxy',
      status: 'ok',
      detail: `${origin} is reached directly: ${route.variable} has "${route.bypass}"`,
    }
  return {
    name: 'proxy',
    status: 'ok',
    detail: `${origin} is reached through ${route.shown} (${route.variable}, a CONNECT tunnel)`,
  }
}

/** Which CAs an https URL is checked against; a CA file that cannot be read is a problem now, not at the first request. */
export function tlsCheck(ctx: Context): Check {
  let p
  try {
    p = ctx.profile
  } catch {
    return {name: 'tls', status: 'skipped', detail: 'not checked: no profile'}
  }
  const ca = ctx.network(p).ca
  if (!p.baseUrl.startsWith('https:'))
    return {name: 'tls', status: 'ok', detail: `plain HTTP to ${new URL(p.baseUrl).origin} (no TLS)`}
  const extra = ctx.env.NODE_EXTRA_CA_CERTS ? ` and NODE_EXTRA_CA_CERTS (${ctx.env.NODE_EXTRA_CA_CERTS})` : ''
  if (!ca) return {name: 'tls', status: 'ok', detail: `certificates checked against the system's CAs${extra}`}
  if (!existsSync(ca.file))
    return {
      name: 'tls',
      status: 'problem',
      detail: `the CA file ${ca.file} (${ca.from}) does not exist`,
      hint: 'Point --ca-file, SVC_CA_FILE or the profile (`svc login --ca-file`) at the CA certificate (PEM).',
    }
  return {
    name: 'tls',
    status: 'ok',
    detail: `certificates checked against the system's CAs${extra} and ${ca.file} (${ca.from})`,
  }
}
