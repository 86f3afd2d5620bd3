import {ApiClient, type ClientOptions} from './api/client.js'
import {
  ENVIRONMENTS,
  isLoopback,
  liveLocalUrl,
  normaliseBaseUrl,
  readConfig,
  readSecrets,
  readLocalSandboxCredentials,
  type Environment,
  type ResolvedProfile,
} from './config.js'
import {SvcError, usageError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {LOCAL_BASE_URL} from './paths.js'
import {canPrompt, promptSecret} from './prompts.js'
import {Secret} from './secret.js'
import {currentEnv, readStdinText} from './io.js'

/** Flags that would put a secret on argv (shell history, ps): refused with a pointer to the safe ways. */
const SECRET_ON_ARGV = /^--(client-?secret|secret)(=|$)/

export function refuseSecretOnArgv(argv: string[]): void {
  if (argv.some((a) => SECRET_ON_ARGV.test(a))) {
    throw usageError(
      'The client secret is never accepted as a flag value (it would land in shell history and ps)',
      'Use SVC_CLIENT_SECRET, --secret-stdin, or answer the hidden prompt.',
    )
  }
}

/** The client secret for `svc login`: --secret-stdin, then SVC_CLIENT_SECRET, then a hidden prompt on a TTY. */
export async function readClientSecret(opts: {stdin: boolean; env: NodeJS.ProcessEnv}): Promise<Secret> {
  let value: string | undefined
  if (opts.stdin) value = readStdinText().trim()
  else if (opts.env.SVC_CLIENT_SECRET) value = opts.env.SVC_CLIENT_SECRET
  else if (canPrompt(opts.env)) value = (await promptSecret('Client secret')).trim()
  else
    throw usageError(
      'No client secret given',
      'Set SVC_CLIENT_SECRET, pipe it with --secret-stdin, or run on a terminal to be prompted.',
    )
  if (!value) throw usageError('The client secret is empty')
  return new Secret(value)
}

/** Environment of a new profile: the flag, else local for a loopback URL; a remote URL must say which. */
export function loginEnvironment(flag: string | undefined, baseUrl: string | undefined): Environment {
  if (flag) return flag as Environment
  if (!baseUrl || isLoopback(normaliseBaseUrl(baseUrl))) return 'local'
  throw usageError(
    'Missing flag: --environment (sandbox or production) for a remote --base-url',
    `Profiles are bound to one environment: ${ENVIRONMENTS.join(', ')}.`,
  )
}

export function loginBaseUrl(environment: Environment, baseUrl: string | undefined): string {
  if (baseUrl) return normaliseBaseUrl(baseUrl)
  if (environment === 'local') return LOCAL_BASE_URL
  throw usageError(`Missing flag: --base-url (the ${environment} API URL)`)
}

/**
 * Proves the credentials with the cheapest authenticated call there is (GET /config). A 401 becomes
 * exit 4; nothing answering becomes exit 9 with the local-sandbox hint where that applies.
 */
export async function verifyCredentials(
  p: {baseUrl: string; tokenId: string; secret: Secret; environment: Environment},
  version: string,
  timeoutMs: number,
  via: Pick<ClientOptions, 'network' | 'trace'> = {},
): Promise<void> {
  const client = new ApiClient({
    baseUrl: p.baseUrl,
    tokenId: p.tokenId,
    secret: p.secret,
    timeoutMs,
    maxRetries: 1,
    ...via,
    userAgent: `svc-cli/${version} node/${process.version}`,
    onConnectionRefused: () =>
      p.environment === 'local'
        ? new SvcError({
            code: 'NETWORK_ERROR',
            exitCode: ExitCode.NETWORK,
            message: `The local sandbox is not running at ${new URL(p.baseUrl).origin}`,
            hint: 'Start it with `svc sandbox serve --detach`.',
          })
        : undefined,
  })
  try {
    await client.request({method: 'GET', path: ['config']})
  } finally {
    await client.close()
  }
}

export interface ProfileRow {
  name: string
  environment: Environment
  baseUrl: string
  tokenId?: string
  /** Where the secret comes from; never the secret itself. */
  secret: 'stored' | 'local sandbox' | 'none'
  active: boolean
}

/** Every configured profile, plus the built-in `local` one when none is configured under that name. */
export function listProfiles(env = currentEnv()): ProfileRow[] {
  const config = readConfig(env)
  const secrets = readSecrets(env)
  const active = config.activeProfile ?? 'local'
  const rows: ProfileRow[] = Object.entries(config.profiles ?? {}).map(([name, p]) => ({
    name,
    environment: p.environment,
    baseUrl: p.environment === 'local' ? liveLocalUrl(p.baseUrl, env) : p.baseUrl,
    tokenId: p.tokenId,
    secret:
      name in secrets
        ? 'stored'
        : p.environment === 'local' && readLocalSandboxCredentials(env)
          ? 'local sandbox'
          : 'none',
    active: name === active,
  }))
  if (!rows.some((r) => r.name === 'local')) {
    const local = readLocalSandboxCredentials(env)
    rows.unshift({
      name: 'local',
      environment: 'local',
      baseUrl: liveLocalUrl(LOCAL_BASE_URL, env),
      tokenId: local?.tokenId,
      secret: local ? 'local sandbox' : 'none',
      active: active === 'local',
    })
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name))
}

export type SecretSource = 'SVC_CLIENT_SECRET' | 'stored' | 'local sandbox' | 'agent token' | 'none'

/** Where the profile's secret comes from (never the secret): the order resolveProfile reads them in. */
export function secretSource(p: ResolvedProfile, env = currentEnv()): SecretSource {
  if (p.agentId) return p.agentToken ? 'agent token' : 'none'
  return env.SVC_CLIENT_SECRET
    ? 'SVC_CLIENT_SECRET'
    : readSecrets(env)[p.name]
      ? 'stored'
      : p.secret
        ? 'local sandbox'
        : 'none'
}

/** The same, as a sentence a hint can use. */
export function describeSecretSource(p: ResolvedProfile, env = currentEnv()): string {
  return {
    SVC_CLIENT_SECRET: `the SVC_CLIENT_SECRET environment variable (it overrides profile ${p.name}'s stored secret)`,
    stored: `profile ${p.name}'s stored credentials (0600 file in the config dir)`,
    'local sandbox': "the local sandbox's credentials.json in its data dir",
    'agent token': `the agent access token saved for profile ${p.name}`,
    none: 'nowhere',
  }[secretSource(p, env)]
}

/** What `svc whoami` reports: which profile is live and where each value came from. */
export function describeProfile(p: ResolvedProfile, env = currentEnv()) {
  return {
    profile: p.name,
    environment: p.environment,
    baseUrl: p.baseUrl,
    baseUrlFrom: p.baseUrlFrom,
    tokenId: p.tokenId ?? null,
    credentials: secretSource(p, env),
    implicit: p.implicit,
  }
}
