import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {usageError} from './errors.js'
import {API_VERSION, LOCAL_BASE_URL, configDir, sandboxDataDir} from './paths.js'
import {Secret} from './secret.js'
import {recordedSandboxUrl} from './sandbox-process.js'
import {ensurePrivateDir, writePrivateFileAtomic} from './fs-safe.js'

export const ENVIRONMENTS = ['local', 'sandbox', 'production'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

export interface Profile {
  environment: Environment
  baseUrl: string
  tokenId?: string
  /** An agent profile acts as this agent with its access token (agent-tokens.json), on /agents/me only. */
  agentId?: string
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

export function configPath(env = process.env): string {
  return join(configDir(env), 'config.json')
}

function credentialsPath(env = process.env): string {
  return join(configDir(env), 'credentials.json')
}

/** Agent access tokens by profile, 0600 beside credentials.json (never printed). */
function agentTokensPath(env = process.env): string {
  return join(configDir(env), 'agent-tokens.json')
}

export function readAgentTokens(env = process.env): Record<string, string> {
  return readJson<{profiles?: Record<string, string>}>(agentTokensPath(env))?.profiles ?? {}
}

/** Saves an agent profile and its access token (0600); the profile is not made active. */
export async function saveAgentProfile(
  name: string,
  profile: Profile,
  token: Secret,
  env = process.env,
): Promise<void> {
  const store = await confStore(env)
  store.set(`profiles.${name}`, profile)
  const tokens = readAgentTokens(env)
  tokens[name] = token.reveal()
  writePrivateFileAtomic(agentTokensPath(env), JSON.stringify({profiles: tokens}, null, 2))
}

/** Reads the config with plain fs (fast start-up); writes go through conf in saveProfile. */
export function readConfig(env = process.env): ConfigFile {
  return readJson<ConfigFile>(configPath(env)) ?? {}
}

export function readSecrets(env = process.env): Record<string, string> {
  return readJson<{profiles?: Record<string, string>}>(credentialsPath(env))?.profiles ?? {}
}

/** Credentials the local sandbox wrote when it first started (0600 in its data dir). */
export function readLocalSandboxCredentials(env = process.env): {tokenId: string; clientSecret: string} | undefined {
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

/** Precedence: flag > env > profile > built-in local default. */
export function resolveProfile(opts: {profile?: string; baseUrl?: string}, env = process.env): ResolvedProfile {
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
  // A local profile at the default address follows the sandbox that runs (`serve --port 0` picks any port).
  if (!override && environment === 'local' && baseUrl === LOCAL_BASE_URL) {
    const recorded = recordedSandboxUrl(sandboxDataDir(env))
    if (recorded) [baseUrl, baseUrlFrom] = [normaliseBaseUrl(recorded), 'running sandbox']
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
    implicit: !stored,
    baseUrlFrom,
  }
}

async function confStore(env = process.env) {
  const {default: Conf} = await import('conf')
  ensurePrivateDir(configDir(env))
  return new Conf<ConfigFile>({cwd: configDir(env), configName: 'config', configFileMode: 0o600})
}

export async function saveProfile(
  name: string,
  profile: Profile,
  secret: Secret | undefined,
  env = process.env,
  opts: {activate?: boolean} = {},
): Promise<void> {
  const store = await confStore(env)
  store.set(`profiles.${name}`, profile)
  // The first profile becomes the active one, unless the caller says otherwise (a CI job's team sandbox).
  if (opts.activate !== false && !store.get('activeProfile')) store.set('activeProfile', name)
  if (secret) {
    const secrets = readSecrets(env)
    secrets[name] = secret.reveal()
    writePrivateFileAtomic(credentialsPath(env), JSON.stringify({profiles: secrets}, null, 2))
  }
}

export async function useProfile(name: string, env = process.env): Promise<void> {
  const config = readConfig(env)
  if (!config.profiles?.[name] && name !== 'local') throw usageError(`No profile named "${name}"`)
  ;(await confStore(env)).set('activeProfile', name)
}

/** Deletes an agent profile's access token; true when there was one. */
function forgetAgentToken(name: string, env = process.env): boolean {
  const tokens = readAgentTokens(env)
  if (!(name in tokens)) return false
  delete tokens[name]
  writePrivateFileAtomic(agentTokensPath(env), JSON.stringify({profiles: tokens}, null, 2))
  return true
}

export async function removeProfile(name: string, env = process.env): Promise<boolean> {
  const config = readConfig(env)
  if (!config.profiles?.[name]) return false
  const store = await confStore(env)
  store.delete(`profiles.${name}` as keyof ConfigFile)
  if (config.activeProfile === name) store.delete('activeProfile')
  const secrets = readSecrets(env)
  if (name in secrets) {
    delete secrets[name]
    writePrivateFileAtomic(credentialsPath(env), JSON.stringify({profiles: secrets}, null, 2))
  }
  forgetAgentToken(name, env)
  return true
}

/** Deletes the stored client secret of a profile (svc logout); the profile itself stays. */
export function forgetSecret(name: string, env = process.env): boolean {
  const token = forgetAgentToken(name, env)
  const secrets = readSecrets(env)
  if (!(name in secrets)) return token
  delete secrets[name]
  writePrivateFileAtomic(credentialsPath(env), JSON.stringify({profiles: secrets}, null, 2))
  return true
}
