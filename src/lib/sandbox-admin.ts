import {Flags} from '@oclif/core'
import type {z} from 'zod'
import {existsSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {ApiClient} from './api/client.js'
import type {NetworkOptions} from './api/dispatcher.js'
import {createSandbox, createSandboxFromSnapshot} from './api/sandboxes.js'
import {isLoopback, normaliseBaseUrl, readConfig, removeProfile, saveProfile} from './config.js'
import {InputError, SvcError, networkError, usageError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {LOCAL_BASE_URL, sandboxDataDir} from './paths.js'
import {recordedSandboxUrl} from './sandbox-process.js'
import {sandboxCreated, sandboxName} from './schemas/sandboxes.js'
import {Secret} from './secret.js'
import {readStdinText} from './io.js'
import {trustedCa} from './trust.js'

/** The environment variable a CI job gives the team server's admin secret in (never a flag value). */
export const ADMIN_SECRET_ENV = 'SVC_SANDBOX_ADMIN_SECRET'

export interface AdminTarget {
  /** The server's base URL (its default sandbox's, e.g. http://host:4010/2025-10-13). */
  baseUrl: string
  secret: Secret
  /** Where the secret came from, for the hint of a 401: never the secret. */
  secretFrom: string
}

/**
 * The team sandbox server to manage and its admin secret. The URL: --base-url, else SVC_BASE_URL,
 * else the sandbox running from the local data dir, else the default local address. The secret:
 * --admin-secret-stdin, else SVC_SANDBOX_ADMIN_SECRET, else the admin.json the local server keeps
 * (0600) in its data dir; it is never taken from argv.
 */
export function adminTarget(opts: {
  baseUrl?: string
  dataDir?: string
  secretStdin: boolean
  env: NodeJS.ProcessEnv
}): AdminTarget {
  const dataDir = opts.dataDir ?? sandboxDataDir(opts.env)
  const baseUrl = adminBaseUrl(opts)
  if (opts.secretStdin) {
    const value = readStdinText().trim()
    if (!value) throw usageError('The admin secret read from stdin is empty')
    return {baseUrl, secret: new Secret(value), secretFrom: 'stdin'}
  }
  const fromEnv = opts.env[ADMIN_SECRET_ENV]
  if (fromEnv) return {baseUrl, secret: new Secret(fromEnv), secretFrom: ADMIN_SECRET_ENV}
  const file = join(dataDir, 'admin.json')
  if (existsSync(file)) {
    const secret = (JSON.parse(readFileSync(file, 'utf8')) as {clientSecret?: string}).clientSecret
    if (secret) return {baseUrl, secret: new Secret(secret), secretFrom: file}
  }
  throw usageError(
    'No admin secret for the team sandbox server',
    `Set ${ADMIN_SECRET_ENV} (the "adminSecret" of \`svc sandbox serve --multi --json\`), or pipe it with --admin-secret-stdin.`,
  )
}

/** The team server's base URL, found as adminTarget says. */
function adminBaseUrl(opts: {baseUrl?: string; dataDir?: string; env: NodeJS.ProcessEnv}): string {
  const dataDir = opts.dataDir ?? sandboxDataDir(opts.env)
  const given = opts.baseUrl ?? (opts.env.SVC_BASE_URL || undefined)
  return normaliseBaseUrl(given ?? recordedSandboxUrl(dataDir) ?? LOCAL_BASE_URL)
}

/** The client of a team server; without a secret (a dry run, which sends nothing) it only describes requests. */
export function adminClient(
  t: Pick<AdminTarget, 'baseUrl'> & {secret?: Secret},
  opts: {version: string; timeoutMs: number; network?: NetworkOptions; planned?: string[]},
): ApiClient {
  return new ApiClient({
    planned: opts.planned,
    network: opts.network,
    baseUrl: t.baseUrl,
    tokenId: 'admin',
    secret: t.secret,
    timeoutMs: opts.timeoutMs,
    maxRetries: 1,
    userAgent: `svc-cli/${opts.version} node/${process.version}`,
    onConnectionRefused: () =>
      networkError(
        `No sandbox server is listening at ${new URL(t.baseUrl).origin}`,
        'Start one with `svc sandbox serve --multi --detach`, or point --base-url at the team server.',
      ),
  })
}

/** The admin client a team-sandbox command's flags point at (server and secret found as adminTarget says). */
export function adminClientFrom(
  flags: {'base-url'?: string; 'data-dir'?: string; 'admin-secret-stdin': boolean; 'ca-file'?: string},
  ctx: {env: NodeJS.ProcessEnv; remainingMs(): number},
  version: string,
  opts: {dryRun?: boolean} = {},
): ApiClient {
  const baseUrl = adminBaseUrl({baseUrl: flags['base-url'], dataDir: flags['data-dir'], env: ctx.env})
  // A team server served with --tls on this machine is trusted by its own CA, as the local profile trusts its sandbox's.
  const server = {baseUrl, environment: 'local' as const, name: 'team server'}
  const network = {env: ctx.env, ca: trustedCa(flags['ca-file'], server, ctx.env, flags['data-dir'])}
  // `svc mcp` confirming a plan: admin writes are held to it as the profile's client's are (context.ts).
  const planned = ctx.env.SVC_PLANNED_REQUESTS?.split(',').filter(Boolean)
  // A dry run needs no admin secret (and reads none from stdin): it shows the request with its
  // credential redacted, as the real one carries it (a plan of `svc mcp` is bound to that description).
  if (opts.dryRun)
    return adminClient(
      {baseUrl, secret: new Secret('not-sent')},
      {version, timeoutMs: ctx.remainingMs(), network, planned},
    )
  const target = adminTarget({
    baseUrl: flags['base-url'],
    dataDir: flags['data-dir'],
    secretStdin: flags['admin-secret-stdin'],
    env: ctx.env,
  })
  return adminClient(target, {version, timeoutMs: ctx.remainingMs(), network, planned})
}

/** A sandbox name checked before anything is sent, naming the argument. */
export function checkSandboxName(name: string, field = 'NAME'): string {
  const r = sandboxName.safeParse(name)
  if (!r.success) throw new InputError([{field, message: r.error.issues[0]!.message}])
  return name
}

/** A snapshot file to branch from: it must exist and be a file (checked before any request). */
export function snapshotFile(path: string): {bytes: Uint8Array; size: number} {
  let size: number
  try {
    const st = statSync(path)
    if (!st.isFile()) throw new Error('not a file')
    size = st.size
  } catch {
    throw new InputError([{field: '--from-snapshot', message: `${path} is not a readable file`}])
  }
  return {bytes: readFileSync(path), size}
}

export interface CreatedSandbox {
  name: string
  profile: string
  url: string
  tokenId: string
  webhookPublicKey: string
  /** Only with --show-secret; otherwise it is in the profile's 0600 credentials file. */
  clientSecret?: string
  /** A branch: the source's settings that differ from an empty sandbox's (and its webhook endpoint). */
  inheritedSettings?: Record<string, unknown>
  /** A branch: how many of the source's API tokens, agent tokens and device codes were left behind. */
  droppedCredentials?: Record<string, number>
  /** A branch: agents kept without their token, to be connected again with a new device code. */
  agentsDisconnected?: number
}

/**
 * Creates the sandbox on the server and writes profile NAME for it (the secret into the 0600
 * credentials file, never argv or output), without making it the active profile.
 */
/** `create` writes profile NAME: an existing one is refused before anything is sent. */
export function checkNoProfile(name: string, env: NodeJS.ProcessEnv): void {
  if (readConfig(env).profiles?.[name])
    throw new SvcError({
      code: 'PROFILE_EXISTS',
      exitCode: ExitCode.CONFLICT,
      message: `A profile named "${name}" already exists; nothing was created`,
      hint: `Pick another name, or remove the profile first: \`svc profiles remove ${name}\`.`,
    })
}

/** The admin request that creates sandbox NAME: empty, branched from another, or from a snapshot file (sent as the body). */
export function createTeamSandboxRequest(input: {name: string; from?: string; snapshot?: {size: number}}) {
  return input.snapshot
    ? createSandboxFromSnapshot(input.name, input.snapshot.size)
    : createSandbox({name: input.name, ...(input.from ? {from: {sandbox: input.from}} : {})})
}

export async function createTeamSandbox(
  client: ApiClient,
  input: {name: string; from?: string; snapshot?: {bytes: Uint8Array; size: number}},
  env: NodeJS.ProcessEnv,
): Promise<CreatedSandbox & {secret: Secret}> {
  checkNoProfile(input.name, env)
  const req = createTeamSandboxRequest(input)
  const res = await client.request({...req, rawBody: input.snapshot?.bytes})
  const created: z.infer<typeof sandboxCreated> = client.parse(sandboxCreated, res.body, req.response!.what)
  const secret = new Secret(created.clientSecret)
  const baseUrl = normaliseBaseUrl(created.url)
  await saveProfile(
    input.name,
    {environment: isLoopback(baseUrl) ? 'local' : 'sandbox', baseUrl, tokenId: created.tokenId},
    secret,
    env,
    {activate: false},
  )
  return {
    name: created.name,
    profile: input.name,
    url: baseUrl,
    tokenId: created.tokenId,
    webhookPublicKey: created.webhookPublicKey,
    ...(created.inheritedSettings
      ? {
          inheritedSettings: created.inheritedSettings,
          droppedCredentials: created.droppedCredentials,
          agentsDisconnected: created.agentsDisconnected,
        }
      : {}),
    secret,
  }
}

/** Removes profile NAME if it is the one `createTeamSandbox` wrote for this sandbox (its URL names it). */
export async function forgetTeamSandboxProfile(name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const p = readConfig(env).profiles?.[name]
  if (!p || !new URL(p.baseUrl).pathname.startsWith(`/sandboxes/${name}/`)) return false
  return removeProfile(name, env)
}

/** The flags every team-sandbox command shares: where the local server keeps its admin secret, and the stdin way to give one. */
export const adminFlags = {
  'data-dir': Flags.string({description: "the local team server's data dir, whose admin.json holds the admin secret"}),
  'admin-secret-stdin': Flags.boolean({
    description: `read the server's admin secret from stdin (else ${ADMIN_SECRET_ENV}, else the local server's)`,
  }),
}
