import {redeemDeviceCode} from '../../api/agents.js'
import {ApiClient, type DescribedRequest} from '../../api/client.js'
import {saveAgentProfile} from '../../config.js'
import type {Context} from '../../context.js'
import {Secret} from '../../secret.js'

/**
 * Redeems a device code (no platform credentials are sent: the code is the credential) and keeps
 * the agent's access token like a client secret: 0600 in the config dir, never printed.
 */
export async function agentLogin(ctx: Context, code: string, profileName: string) {
  const p = ctx.profile
  const client = redeemClient(ctx)
  try {
    const redeemed = await client.call(redeemDeviceCode(code))
    const token = new Secret(redeemed.accessToken)
    await saveAgentProfile(
      profileName,
      {environment: p.environment, baseUrl: p.baseUrl, agentId: redeemed.agentId},
      token,
      ctx.env,
    )
    return {profile: profileName, agentId: redeemed.agentId, agentName: redeemed.agentName, policy: redeemed.policy}
  } finally {
    await client.close()
  }
}

/** --dry-run: the redeem request; the code is the credential, so it is shown redacted in the path. */
export function describeRedeem(ctx: Context): {dryRun: true; request: DescribedRequest} {
  return {dryRun: true, request: redeemClient(ctx).describe(redeemDeviceCode('[REDACTED]'))}
}

function redeemClient(ctx: Context): ApiClient {
  return new ApiClient({
    baseUrl: ctx.profile.baseUrl,
    timeoutMs: Math.min(30_000, Math.max(1000, ctx.remainingMs())),
    userAgent: 'svc-cli',
    network: ctx.network(),
    trace: ctx.debug ? (line) => ctx.out.info(ctx.out.dim(line)) : undefined,
    deadline: ctx.deadline,
  })
}
