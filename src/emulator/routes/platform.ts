import {platformConfigPatch, type PlatformConfigPatch} from '../../lib/schemas/config.js'
import type {CardTokenization2faPatch} from '../../lib/schemas/config-patchable.js'
import {webhookListenerRequest, webhookReplayRequest} from '../../lib/schemas/webhooks.js'
import type {SandboxContext} from '../context.js'
import {HttpError, notFound, validate} from '../http-error.js'
import type {Router} from '../router.js'
import {eventLogPage} from '../domain/event-log.js'
import {registerListener} from '../domain/webhook-listener.js'

/** GET/PATCH /config, the sandbox helpers for webhooks, and the event log. */
export function registerPlatform(router: Router): void {
  router.handle('getPlatformConfig', (_req, ctx) => ({status: 200, body: publicConfig(ctx.config())}))

  router.handle('updatePlatformConfig', (req, ctx) => {
    const patch = validate(platformConfigPatch, req.body ?? {})
    const current = ctx.config()
    const next = {
      ...current,
      ...(patch.webhookEndpoint !== undefined ? {webhookEndpoint: patch.webhookEndpoint || null} : {}),
      ...(patch.umaDomain ? {umaDomain: patch.umaDomain} : {}),
      ...(patch.isRegulatedFinancialInstitution !== undefined
        ? {isRegulatedFinancialInstitution: patch.isRegulatedFinancialInstitution}
        : {}),
      embeddedWalletConfig: {...current.embeddedWalletConfig, ...patch.embeddedWalletConfig},
      ...(patch.supportedCurrencies ? {supportedCurrencies: patch.supportedCurrencies.map(withoutReadOnly)} : {}),
      ...(patch.cardTokenization2faConfig
        ? {
            cardTokenization2faConfig: mergeTokenization(
              current.cardTokenization2faConfig,
              patch.cardTokenization2faConfig,
            ),
          }
        : {}),
      feeConfigs: mergeFees(current.feeConfigs, patch.feeConfigs ?? []),
      sandbox: {...current.sandbox, ...patch.sandbox},
    }
    const saved = ctx.saveConfig(next)
    // The published API sends a TEST event whenever the endpoint is set or changed.
    if (patch.webhookEndpoint && patch.webhookEndpoint !== current.webhookEndpoint) ctx.webhooks.emit('TEST', {})
    return {status: 200, body: publicConfig(saved)}
  })

  // A listener's registration: like PATCH /config webhookEndpoint, plus the listener's process, so the
  // sandbox can end a registration whose listener is gone and never hand a dead URL back.
  router.handle('POST /sandbox/webhooks/listener', (req, ctx) => {
    const {url, pid} = validate(webhookListenerRequest, req.body ?? {})
    const r = registerListener(ctx, url, pid)
    return {status: 200, body: {webhookEndpoint: r.url, previous: r.previous}}
  })

  router.handle('GET /sandbox/webhook-public-key', (_req, ctx) => ({
    status: 200,
    text: ctx.webhookPublicKeyPem,
    headers: {'content-type': 'application/x-pem-file'},
  }))

  router.handle('GET /sandbox/events', (req, ctx) => ({status: 200, body: eventLogPage(ctx.db, req.query, ctx.now())}))

  router.handle('POST /sandbox/events/{eventId}/replay', async (req, ctx) => {
    const url = validate(webhookReplayRequest, req.body ?? {}).url ?? ctx.config().webhookEndpoint
    if (!url)
      throw new HttpError(
        400,
        'WEBHOOK_ENDPOINT_NOT_SET',
        'No webhook endpoint is configured (PATCH /config {webhookEndpoint}); give a url',
      )
    const r = await ctx.webhooks.replay(req.params.eventId, url).catch((e: Error & {notFound?: boolean}) => {
      throw e.notFound ? notFound('EVENT_NOT_FOUND', `Event ${req.params.eventId}`) : e
    })
    const body = {
      eventId: r.event.id,
      type: r.event.type,
      url,
      response_status: r.status ?? null,
      response_body: r.body ?? null,
    }
    if (r.status === undefined || r.status < 200 || r.status >= 300) {
      throw new HttpError(
        400,
        'WEBHOOK_DELIVERY_ERROR',
        `Replay of ${r.event.id} to ${url} failed: ${r.error ?? `answered ${r.status}`}`,
        body,
      )
    }
    return {status: 200, body}
  })

  router.handle('sendTestWebhook', async (req, ctx) => {
    const given = (req.body as {url?: unknown} | undefined)?.url
    const url = typeof given === 'string' ? given : ctx.config().webhookEndpoint
    if (!url)
      throw new HttpError(
        400,
        'WEBHOOK_ENDPOINT_NOT_SET',
        'No webhook endpoint is configured (PATCH /config {webhookEndpoint})',
      )
    const event = {id: `Webhook:test-${ctx.now()}`, type: 'TEST', timestamp: ctx.iso(), data: {}}
    try {
      const r = await ctx.webhooks.deliverNow(event, url)
      if (r.status < 200 || r.status >= 300) throw new Error(`answered ${r.status}`)
      return {status: 200, body: {url, response_status: r.status, response_body: r.body}}
    } catch (e) {
      throw new HttpError(400, 'WEBHOOK_DELIVERY_ERROR', `Delivery to ${url} failed: ${(e as Error).message}`)
    }
  })
}

/** The config as answered: `webhookEndpoint` is left out while none is set (the contract has it as a string). */
function publicConfig(config: ReturnType<SandboxContext['config']>): Record<string, unknown> {
  const {webhookEndpoint, ...rest} = config
  return webhookEndpoint ? {...rest, webhookEndpoint} : rest
}

type CurrencyPatch = NonNullable<PlatformConfigPatch['supportedCurrencies']>[number]

/** The provider-required field lists are the Service's to set (read-only in the contract): what a client echoes back is dropped. */
function withoutReadOnly(c: CurrencyPatch): Record<string, unknown> {
  const {providerRequiredCustomerFields: _a, providerRequiredCounterpartyCustomerFields: _b, ...rest} = c
  return rest
}

/** Fields left out keep their value, in the nested email and sms objects too (the contract's "partial merge"). */
function mergeTokenization(
  current: CardTokenization2faPatch | undefined,
  patch: CardTokenization2faPatch,
): CardTokenization2faPatch {
  const merged = {...current, ...patch}
  if (current?.email || patch.email) merged.email = {...current?.email, ...patch.email}
  if (current?.sms || patch.sms) merged.sms = {...current?.sms, ...patch.sms}
  return merged
}

type Fee = ReturnType<SandboxContext['config']>['feeConfigs'][number]

/** PATCH merges fee configs by (feeType, sourceCurrency); zeroing both fees removes one. */
function mergeFees(current: Fee[], patch: Fee[]): Fee[] {
  const byKey = new Map(current.map((f) => [`${f.feeType}|${f.sourceCurrency}`, f]))
  for (const f of patch) {
    const key = `${f.feeType}|${f.sourceCurrency}`
    if (f.variableFeeBps === 0 && f.fixedFee.amount === 0) byKey.delete(key)
    else byKey.set(key, f)
  }
  return [...byKey.values()]
}
