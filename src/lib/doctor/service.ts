import {missingCredentials, type Context} from '../context.js'
import {isSvcError} from '../errors.js'
import {describeProfile} from '../login.js'
import type {Check} from './check.js'

// The checks of the way to the Service: the profile, one GET /config (credentials, clock skew), proxies.

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

function formatSkew(ms: number): string {
  const s = Math.round(ms / 1000)
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m ${s % 60}s`
      : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
}

/** The proxy variables a user expects to apply, with any password in them hidden. */
export function proxyCheck(ctx: Context): Check {
  const env = ctx.env
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy']
  const set = names.filter((n) => env[n]).map((n) => `${n}=${redactUrl(env[n]!)}`)
  if (!set.length) return {name: 'proxy', status: 'ok', detail: 'none configured: svc connects directly'}
  return {
    name: 'proxy',
    status: 'warn',
    detail: `${set.join(', ')} is set, but svc connects directly (it does not use proxies)`,
    hint: 'If this network only reaches the Service through the proxy, requests will fail with a network error.',
  }
}

function redactUrl(value: string): string {
  try {
    const u = new URL(value)
    if (u.password) u.password = '***'
    if (u.username) u.username = '***'
    return u.toString()
  } catch {
    return '(not a URL)'
  }
}
