import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {usageError} from './errors.js'
import {API_VERSION, LOCAL_BASE_URL, configDir, sandboxDataDir} from './paths.js'
import {Secret} from './secret.js'
import {recordedSandboxUrl} from './sandbox-process.js'
import type Conf from 'conf'
import {ensurePrivateDir, withDirLock, writePrivateFileAtomic} from './fs-safe.js'
import {currentEnv} from './io.js'

export const ENVIRONMENTS = ['local', 'sandbox', 'production'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

export interface Profile {
  environment: Environment
  baseUrl: string
  tokenId?: string
  /** An agent profile acts as this agent with its access token (agent-tokens.json), on /agents/me only. */
  agentId?: string
  /** A CA trusted for this profile's URL besides the system's (`svc login --ca-file`). */
  caFile?: string
}

interface ConfigFile {
  activeProfile?: string
  profiles?: Record<string, Profile>
}

export interface ResolvedProfile {
  name: string
  environment: Environment
  baseUrl: string
  tokenId?: string
  secret?: Secret
  agentId?: string
  /** The agent's access token (agent profiles only). */
  agentToken?: Secret
  /** The profile's own CA file (`svc login --ca-file`), if any. */
  caFile?: string
  /** True when no profile was configured and the built-in local one is used. */
  implicit: boolean
  /** Where baseUrl came from: --base-url, SVC_BASE_URL, the profile, or the URL the running local sandbox recorded. */
  baseUrlFrom: 'flag' | 'SVC_BASE_URL' | 'profile' | 'running sandbox'
}

const DEFAULT_LOCAL: Profile = {environment: 'local', baseUrl: LOCAL_BASE_URL}

function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    throw usageError(`${path} is not valid JSON`, 'Fix or remove the file; `svc login` recreates it.')
  }
}

export function configPath(env = currentEnv()): string {
  return join(configDir(env), 'config.json')
}

function credentialsPath(env = currentEnv()): string {
  return join(configDir(env), 'credentials.json')
}

/** Agent access tokens by profile, 0600 beside credentials.json (never printed). */
function agentTokensPath(env = currentEnv()): string {
  return join(configDir(env), 'agent-tokens.json')
}

export function readAgentTokens(env = currentEnv()): Record<string, string> {
  return readJson<{profiles?: Record<string, string>}>(agentTokensPath(env))?.profiles ?? {}
}

/** Saves an agent profile and its access token (0600); the profile is not made active. */
export async function saveAgentProfile(
  name: string,
  profile: Profile,
  token: Secret,
  env = currentEnv(),
): Promise<void> {
  const store = await confStore(env)
  locked(env, () => {
    editConfig(store, (c) => void ((c.profiles ??= {})[name] = profile))
    editSecrets(agentTokensPath(env), (t) => void (t[name] = token.reveal()))
  })
}

/** Reads the config with plain fs (fast start-up). A reader needs no lock: every write is a whole-file rename. */
export function readConfig(env = currentEnv()): ConfigFile {
  return readJson<ConfigFile>(configPath(env)) ?? {}
}

export function readSecrets(env = currentEnv()): Record<string, string> {
  return readJson<{profiles?: Record<string, string>}>(credentialsPath(env))?.profiles ?? {}
}

/** Credentials the local sandbox wrote when it first started (0600 in its data dir). */
export function readLocalSandboxCredentials(env = currentEnv()): {tokenId: string; clientSecret: string} | undefined {
  return readJson(join(sandboxDataDir(env), 'credentials.json'))
}

/** Ensures a base URL ends in the API version segment. */
export function normaliseBaseUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw usageError(`Base URL "${url}" is not a URL`, `Use e.g. ${LOCAL_BASE_URL}`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw usageError(`Base URL "${url}" must be http(s)`)
  const path = u.pathname.replace(/\/+$/, '')
  u.pathname = path.endsWith(`/${API_VERSION}`) ? path : `${path}/${API_VERSION}`
  return u.toString().replace(/\/+$/, '')
}

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host.startsWith('127.')
}

/**
 * A local profile at the default address follows the sandbox that runs (`serve --port 0` picks any
 * port): the URL it recorded, else the profile's own. `profiles list` shows the same URL a command uses.
 */
export function liveLocalUrl(baseUrl: string, env = currentEnv()): string {
  if (baseUrl !== LOCAL_BASE_URL) return baseUrl
  const recorded = recordedSandboxUrl(sandboxDataDir(env))
  return recorded ? normaliseBaseUrl(recorded) : baseUrl
}

/** Precedence: flag > env > profile > built-in local default. */
export function resolveProfile(opts: {profile?: string; baseUrl?: string}, env = currentEnv()): ResolvedProfile {
  const config = readConfig(env)
  const name = opts.profile ?? env.SVC_PROFILE ?? config.activeProfile ?? 'local'
  const stored = config.profiles?.[name]
  if (!stored && name !== 'local') {
    const known = Object.keys(config.profiles ?? {})
    throw usageError(
      `No profile named "${name}"`,
      known.length ? `Known profiles: ${known.join(', ')}` : 'Create one with `svc login`.',
    )
  }
  const profile = stored ?? DEFAULT_LOCAL
  const override = opts.baseUrl ?? env.SVC_BASE_URL
  let baseUrl = normaliseBaseUrl(override ?? profile.baseUrl)
  let baseUrlFrom: ResolvedProfile['baseUrlFrom'] = opts.baseUrl ? 'flag' : override ? 'SVC_BASE_URL' : 'profile'
  let environment = (env.SVC_ENVIRONMENT as Environment | undefined) ?? profile.environment
  if (!override && environment === 'local') {
    const live = liveLocalUrl(baseUrl, env)
    if (live !== baseUrl) [baseUrl, baseUrlFrom] = [live, 'running sandbox']
  }
  // A remote URL on the implicit local profile is treated as production: the safe assumption.
  if (!env.SVC_ENVIRONMENT && !stored && override && !isLoopback(baseUrl)) environment = 'production'
  if (!ENVIRONMENTS.includes(environment)) throw usageError(`SVC_ENVIRONMENT must be one of ${ENVIRONMENTS.join(', ')}`)

  let tokenId: string | undefined = env.SVC_TOKEN_ID ?? profile.tokenId
  let secretValue: string | undefined = env.SVC_CLIENT_SECRET ?? readSecrets(env)[name]
  if (environment === 'local' && (!tokenId || !secretValue)) {
    const local = readLocalSandboxCredentials(env)
    tokenId ??= local?.tokenId
    secretValue ??= local?.clientSecret
  }
  const agentToken = profile.agentId ? readAgentTokens(env)[name] : undefined
  return {
    name,
    environment,
    baseUrl,
    tokenId,
    secret: secretValue ? new Secret(secretValue) : undefined,
    ...(profile.agentId ? {agentId: profile.agentId, agentToken: agentToken ? new Secret(agentToken) : undefined} : {}),
    ...(profile.caFile ? {caFile: profile.caFile} : {}),
    implicit: !stored,
    baseUrlFrom,
  }
}

/**
 * Every change to config.json, credentials.json and agent-tokens.json is a read-modify-write under one
 * lock on the config dir, so parallel svc processes sharing it (CI jobs on one runner) never drop each
 * other's profiles. A lock left by a killed process is taken over once stale (see withDirLock).
 */
function locked<T>(env: NodeJS.ProcessEnv, fn: () => T): T {
  return withDirLock(configDir(env), fn)
}

/** config.json through conf (atomic 0600 writes); conf loads on use, only the commands that write pay for it. */
async function confStore(env: NodeJS.ProcessEnv): Promise<Conf<ConfigFile>> {
  const {default: Conf} = await import('conf')
  ensurePrivateDir(configDir(env)) // before conf, which would create it with the umask's mode
  return new Conf<ConfigFile>({cwd: configDir(env), configName: 'config', configFileMode: 0o600})
}

/**
 * Call only under `locked`: conf reads config.json afresh on every access, so `edit` sees what the last
 * writer left, and its rewrite is whole (temp + rename). conf alone has no lock across processes.
 */
function editConfig(store: Conf<ConfigFile>, edit: (config: ConfigFile) => void): void {
  const config = store.store
  edit(config)
  store.store = config
}

/** Call only under `locked`: rewrites a {profiles: name -> secret} file when `edit` returns anything but false. */
function editSecrets(path: string, edit: (profiles: Record<string, string>) => boolean | void): boolean {
  const profiles = readJson<{profiles?: Record<string, string>}>(path)?.profiles ?? {}
  if (edit(profiles) === false) return false
  writePrivateFileAtomic(path, JSON.stringify({profiles}, null, 2))
  return true
}

/** Deletes NAME from a secrets file; false when it held none. */
const dropSecret = (path: string, name: string) =>
  editSecrets(path, (profiles) => name in profiles && delete profiles[name])

export async function saveProfile(
  name: string,
  profile: Profile,
  secret: Secret | undefined,
  env = currentEnv(),
  opts: {activate?: boolean} = {},
): Promise<void> {
  const store = await confStore(env)
  locked(env, () => {
    editConfig(store, (c) => {
      ;(c.profiles ??= {})[name] = profile
      // The first profile becomes the active one, unless the caller says otherwise (a CI job's team sandbox).
      if (opts.activate !== false && !c.activeProfile) c.activeProfile = name
    })
    if (secret) editSecrets(credentialsPath(env), (p) => void (p[name] = secret.reveal()))
  })
}

export async function useProfile(name: string, env = currentEnv()): Promise<void> {
  const store = await confStore(env)
  locked(env, () => {
    if (!readConfig(env).profiles?.[name] && name !== 'local') throw usageError(`No profile named "${name}"`)
    editConfig(store, (c) => void (c.activeProfile = name))
  })
}

export async function removeProfile(name: string, env = currentEnv()): Promise<boolean> {
  const store = await confStore(env)
  return locked(env, () => {
    if (!readConfig(env).profiles?.[name]) return false
    editConfig(store, (c) => {
      delete c.profiles![name]
      if (c.activeProfile === name) delete c.activeProfile
    })
    dropSecret(credentialsPath(env), name)
    dropSecret(agentTokensPath(env), name)
    return true
  })
}

/** Deletes the stored client secret of a profile (svc logout); the profile itself stays. */
export function forgetSecret(name: string, env = currentEnv()): boolean {
  return locked(env, () => {
    const token = dropSecret(agentTokensPath(env), name)
    return dropSecret(credentialsPath(env), name) || token
  })
}
