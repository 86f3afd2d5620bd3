import {randomBytes} from 'node:crypto'
import {existsSync, statSync, writeFileSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {ApiClient} from '../../api/client.js'
import {resolveProfile, type ResolvedProfile} from '../../config.js'
import type {Context} from '../../context.js'
import {InputError, SvcError, type FieldError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {customerId as customerIdSchema} from '../../schemas/customer.js'
import {buildCapture} from './build.js'
import {readSituation} from './read.js'

export interface CaptureOptions {
  customerId: string
  fromProfile: string
  out?: string
  force?: boolean
  yes?: boolean
  /** Seed of the fakes (default: random per capture). */
  seed?: string
}

export interface CaptureResult {
  customerId: string
  source: {profile: string; environment: string; baseUrl: string}
  capturedAt: string
  file?: string
  steps: number
  replaced: string[]
  notReproduced: string[]
  /** The flow itself when it went to stdout under --json. */
  flow?: string
}

/**
 * `svc flow capture`: check the input, resolve the remote profile (its own stored settings: the
 * SVC_BASE_URL/SVC_TOKEN_ID/SVC_CLIENT_SECRET overrides describe the target, not the remote), refuse
 * production without --yes, read with GETs only, build, write.
 */
export async function captureFlow(
  ctx: Context,
  opts: CaptureOptions,
  json: boolean,
): Promise<{result: CaptureResult; yaml: string}> {
  const errors: FieldError[] = []
  if (!customerIdSchema.safeParse(opts.customerId).success)
    errors.push({field: 'customer', message: `must be a Customer id (Customer:<id>), got "${opts.customerId}"`})
  const outPath = opts.out ? resolve(opts.out) : undefined
  if (outPath && !existsSync(dirname(outPath)))
    errors.push({field: '--out', message: `the folder ${dirname(outPath)} does not exist`})
  else if (outPath && existsSync(outPath) && statSync(outPath).isDirectory())
    errors.push({field: '--out', message: `${opts.out} is a folder`})
  else if (outPath && existsSync(outPath) && !opts.force)
    errors.push({field: '--out', message: `${opts.out} exists (pass --force to overwrite it)`})
  if (errors.length) throw new InputError(errors, undefined, 'Fix the fields listed above; nothing was sent.')

  const remote = remoteProfile(ctx, opts.fromProfile)
  if (remote.environment === 'production') {
    if (!opts.yes) {
      // Confirmation refused (exit 3), as every production refusal: the input itself is fine.
      throw new SvcError({
        code: 'CANCELLED',
        message: `Refusing to capture from production (profile ${remote.name}) without --yes`,
        exitCode: ExitCode.CANCELLED,
        hint: 'Capture reads real customers; pass --yes to confirm. Personal data is replaced by fakes in the flow; nothing was sent.',
      })
    }
    ctx.out.warn(
      `${ctx.out.red(ctx.out.bold('PRODUCTION'))} · profile ${remote.name} · capturing ${opts.customerId} (GETs only; personal data replaced by fakes)`,
    )
  }
  if (!remote.tokenId || !remote.secret) {
    throw new SvcError({
      code: 'UNAUTHORIZED',
      exitCode: ExitCode.AUTH,
      message: `Profile "${remote.name}" has no API credentials`,
      hint: `Run \`svc login --profile ${remote.name}\`.`,
    })
  }
  const client = new ApiClient({
    baseUrl: remote.baseUrl,
    tokenId: remote.tokenId,
    secret: remote.secret,
    timeoutMs: Math.min(30_000, Math.max(1000, ctx.remainingMs())),
    userAgent: `svc-cli flow-capture node/${process.version}`,
    trace: ctx.debug ? (line) => ctx.out.info(ctx.out.dim(line)) : undefined,
    sleep: ctx.sleep,
    now: ctx.now,
    deadline: ctx.deadline,
  })
  const capturedAt = new Date(ctx.now()).toISOString()
  let situation
  try {
    situation = await readSituation(client, opts.customerId)
  } finally {
    await client.close()
  }
  const source = {profile: remote.name, environment: remote.environment, baseUrl: remote.baseUrl}
  const built = buildCapture(
    situation,
    {...source, customerId: opts.customerId, capturedAt},
    opts.seed ?? randomBytes(16).toString('hex'),
  )
  if (outPath) writeFileSync(outPath, built.yaml, {mode: 0o600})
  const result: CaptureResult = {
    customerId: opts.customerId,
    source,
    capturedAt,
    ...(outPath ? {file: outPath} : {}),
    steps: built.steps,
    replaced: built.replaced,
    notReproduced: built.notReproduced,
  }
  if (!outPath && json) result.flow = built.yaml
  return {result, yaml: built.yaml}
}

/** The named profile as saved, without the environment overrides meant for the active profile. */
function remoteProfile(ctx: Context, name: string): ResolvedProfile {
  const {
    SVC_BASE_URL: _u,
    SVC_TOKEN_ID: _t,
    SVC_CLIENT_SECRET: _s,
    SVC_ENVIRONMENT: _e,
    SVC_PROFILE: _p,
    ...env
  } = ctx.env
  return resolveProfile({profile: name}, env)
}
