import type {Context} from './context.js'
import type {LoadSandboxStore} from './sandbox-store.js'
import type {Check, DoctorReport} from './doctor/check.js'
import {keyStoreChecks, nodeCheck, quorumCheck} from './doctor/machine.js'
import {cardExceptionsCheck, databaseCheck, partialCopiesCheck, sandboxCheck} from './doctor/sandbox.js'
import {profileCheck, proxyCheck, serviceChecks, tlsCheck, unreachable} from './doctor/service.js'
import {webhookCheck} from './doctor/webhooks.js'

export type {Check, CheckStatus, DoctorReport} from './doctor/check.js'
export {dataDirProblems} from './doctor/sandbox.js'
export {MAX_SKEW_MS} from './doctor/service.js'

/**
 * Every check runs (one failing does not hide the others); the report is a problem when any check
 * is. Nothing here changes state (expired keys are counted, not purged), except that files a killed
 * snapshot save left are removed.
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
    tlsCheck(ctx),
    sandboxCheck(ctx, reachable),
    await webhookCheck(ctx, reachable),
    await databaseCheck(ctx, loadStore),
    ...partialCopiesCheck(ctx),
    await cardExceptionsCheck(ctx, loadStore),
    ...keyStoreChecks(ctx),
    quorumCheck(ctx),
    nodeCheck(nodeVersion),
  )
  return {ok: !checks.some((c) => c.status === 'problem'), checks}
}
