import {accessSync, constants, existsSync, readFileSync, readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {readConfig} from './config.js'
import {missingCredentials, type Context} from './context.js'
import {isSvcError} from './errors.js'
import {keystoreDir} from './keystore.js'
import {describeProfile} from './login.js'
import {sandboxDataDir} from './paths.js'
import {runningPid} from './sandbox-process.js'
import {sandboxStoreCall, type LoadSandboxStore} from './sandbox-store.js'

export type CheckStatus = 'ok' | 'warn' | 'problem' | 'skipped'

export interface Check {
  name: string
  status: CheckStatus
  detail: string
  hint?: string
}

export interface DoctorReport {
  ok: boolean
  checks: Check[]
}

/** Skew beyond this breaks request stamps and OAuth `iat` checks before anything else notices. */
export const MAX_SKEW_MS = 30_000
const MIN_NODE = [20, 19]

/**
 * Every check runs (one failing does not hide the others); the report is a problem when any check
 * is. Nothing here changes state: expired keys are counted, not purged.
 */
export async function runDoctor(
  ctx: Context,
  loadStore: LoadSandboxStore,
  nodeVersion = process.versions.node,
): Promise<DoctorReport> {
  const checks: Check[] = []
  const profile = profileCheck(ctx)
  checks.push(profile)
  const {credentials, clock, reachable} =
    profile.status === 'problem' ? unreachable('the profile has no credentials') : await serviceChecks(ctx)
  checks.push(
    credentials,
    clock,
    proxyCheck(ctx),
    sandboxCheck(ctx, reachable),
    await databaseCheck(ctx, loadStore),
    ...keyStoreChecks(ctx),
    quorumCheck(ctx),
    nodeCheck(nodeVersion),
  )
  return {ok: !checks.some((c) => c.status === 'problem'), checks}
}

function profileCheck(ctx: Context): Check {
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

function unreachable(why: string) {
  return {
    credentials: {name: 'credentials', status: 'skipped', detail: `not checked: ${why}`} as Check,
    clock: {name: 'clock', status: 'skipped', detail: `not checked: ${why}`} as Check,
    reachable: false,
  }
}

/** One GET /config: do the credentials work, and how far is our clock from the server's Date? */
async function serviceChecks(ctx: Context): Promise<{credentials: Check; clock: Check; reachable: boolean}> {
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
function proxyCheck(ctx: Context): Check {
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

function sandboxCheck(ctx: Context, reachable: boolean): Check {
  let environment
  try {
    environment = ctx.profile.environment
  } catch {
    return {name: 'local sandbox', status: 'skipped', detail: 'no usable profile'}
  }
  if (environment !== 'local')
    return {name: 'local sandbox', status: 'skipped', detail: `not used: the profile's environment is ${environment}`}
  const dir = sandboxDataDir(ctx.env)
  const pid = runningPid(dir)
  const problems = dataDirProblems(dir)
  const where = `data dir ${dir}`
  if (!reachable) {
    return {
      name: 'local sandbox',
      status: 'problem',
      detail: `not running at ${new URL(ctx.profile.baseUrl).origin} (${where}${problems.length ? `; ${problems.join('; ')}` : ''})`,
      hint: 'Start it with `svc sandbox serve --detach` (or `svc sandbox serve` in another terminal).',
    }
  }
  if (problems.length)
    return {
      name: 'local sandbox',
      status: 'problem',
      detail: `running, but ${problems.join('; ')} (${where})`,
      hint: 'Check the permissions of the data dir; `svc sandbox reset` starts a fresh one (the data is lost).',
    }
  return {
    name: 'local sandbox',
    status: 'ok',
    detail: `running at ${new URL(ctx.profile.baseUrl).origin}${pid ? ` (pid ${pid})` : ''}; ${where} readable`,
  }
}

/** The local sandbox's database passes SQLite's integrity check (read-only, safe while it serves). */
async function databaseCheck(ctx: Context, loadStore: LoadSandboxStore): Promise<Check> {
  const name = 'sandbox database'
  let environment
  try {
    environment = ctx.profile.environment
  } catch {
    return {name, status: 'skipped', detail: 'no usable profile'}
  }
  if (environment !== 'local')
    return {name, status: 'skipped', detail: `not used: the profile's environment is ${environment}`}
  const file = join(sandboxDataDir(ctx.env), 'sandbox.db')
  if (!existsSync(file))
    return {name, status: 'skipped', detail: `${file} does not exist yet (made at the first start)`}
  try {
    const {tables} = await sandboxStoreCall(loadStore, (store) => store.checkDatabase(file))
    return {name, status: 'ok', detail: `${file}: integrity check passed (${tables} tables)`}
  } catch (e) {
    return {
      name,
      status: 'problem',
      detail: (e as Error).message,
      hint: 'Restore a backup with `svc sandbox restore <file>`, or move the file aside and run `svc sandbox reset`.',
    }
  }
}

/**
 * The data dir and every file in it exist and are readable. A deeper integrity check of the store
 * belongs here once the storage format settles.
 */
export function dataDirProblems(dir: string): string[] {
  let names: string[]
  try {
    if (!statSync(dir).isDirectory()) return [`${dir} is not a directory`]
    names = readdirSync(dir)
  } catch (e) {
    return [(e as NodeJS.ErrnoException).code === 'ENOENT' ? `${dir} does not exist` : `${dir} cannot be read`]
  }
  if (!names.includes('credentials.json')) return ['credentials.json is missing']
  const unreadable = names.filter((n) => {
    try {
      accessSync(join(dir, n), constants.R_OK)
      return false
    } catch {
      return true
    }
  })
  return unreadable.length ? [`unreadable: ${unreadable.join(', ')}`] : []
}

function keyStoreChecks(ctx: Context): Check[] {
  const dir = keystoreDir(ctx.env)
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'))
  } catch {
    return [
      {name: 'key store', status: 'ok', detail: `empty (${dir} not created yet)`},
      {name: 'expired keys', status: 'ok', detail: 'none'},
    ]
  }
  const loose = (statSync(dir).mode & 0o077) !== 0 ? [dir] : []
  let expired = 0
  for (const n of names) {
    const path = join(dir, n)
    if ((statSync(path).mode & 0o077) !== 0) loose.push(n)
    try {
      const record = JSON.parse(readFileSync(path, 'utf8')) as {expiresAt?: string}
      if (record.expiresAt && Date.parse(record.expiresAt) <= ctx.now()) expired++
    } catch {}
  }
  const perms: Check = loose.length
    ? {
        name: 'key store',
        status: 'problem',
        detail: `readable by others: ${loose.join(', ')}`,
        hint: `chmod 700 ${dir} && chmod 600 ${dir}/*.json (or \`svc wallet keys purge\`).`,
      }
    : {name: 'key store', status: 'ok', detail: `${names.length} key file(s) in ${dir}, owner-only`}
  const stale: Check = expired
    ? {
        name: 'expired keys',
        status: 'warn',
        detail: `${expired} expired session key(s) still on disk`,
        hint: 'They are deleted on the next wallet command; `svc wallet keys purge` deletes them now.',
      }
    : {name: 'expired keys', status: 'ok', detail: 'none'}
  return [perms, stale]
}

function quorumCheck(ctx: Context): Check {
  let p
  try {
    p = ctx.profile
  } catch {
    return {name: 'quorum key', status: 'skipped', detail: 'no usable profile'}
  }
  const fromEnv = ctx.env.SVC_QUORUM_PUBLIC_KEY
  const configured =
    fromEnv ?? (readConfig(ctx.env).profiles?.[p.name] as {quorumPublicKey?: string} | undefined)?.quorumPublicKey
  const source = fromEnv ? 'SVC_QUORUM_PUBLIC_KEY' : `profile ${p.name}`
  if (configured) {
    if (!/^04[0-9a-fA-F]{128}$/.test(configured))
      return {
        name: 'quorum key',
        status: 'problem',
        detail: `${source} is not an uncompressed P-256 key`,
        hint: 'It is 130 hex characters starting 04, as the Service publishes it.',
      }
    return {
      name: 'quorum key',
      status: 'ok',
      detail: `pinned from ${source}: ${configured.slice(0, 10)}…${configured.slice(-6)}`,
    }
  }
  if (p.environment === 'local')
    return {name: 'quorum key', status: 'ok', detail: 'not pinned: the local sandbox publishes its own key'}
  if (p.environment === 'production')
    return {
      name: 'quorum key',
      status: 'problem',
      detail: 'not pinned: enclave bundles cannot be authenticated',
      hint: 'Set SVC_QUORUM_PUBLIC_KEY (or quorumPublicKey in the profile) to the key the Service publishes.',
    }
  return {
    name: 'quorum key',
    status: 'warn',
    detail: 'not pinned: bundles are checked for integrity, not authenticity',
    hint: 'Set SVC_QUORUM_PUBLIC_KEY to the key the Service publishes.',
  }
}

function nodeCheck(version: string): Check {
  const [major, minor] = version.split('.').map(Number)
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])
  return ok
    ? {name: 'node', status: 'ok', detail: `v${version}`}
    : {
        name: 'node',
        status: 'problem',
        detail: `v${version} is older than ${MIN_NODE.join('.')}`,
        hint: 'Install Node.js 20.19 or newer.',
      }
}
