import {type AuthzEntry, READ, TRANSACT, MANAGE, SESSION, PUBLIC, own} from './build.js'

/** Sandbox: its own routes */
export const SANDBOX_OWN: readonly AuthzEntry[] = [
  own(
    'GET',
    '/sandbox/webhook-public-key',
    PUBLIC,
    'The key that verifies webhooks is public (the Service hands it out at integration).',
  ),
  own('GET', '/sandbox/quorum-public-key', READ, 'The wallet quorum key, for clients that check bundles.'),
  own('GET', '/sandbox/events', READ, 'The webhook event log.'),
  // The sandbox clock moves every expiry and delay of the whole sandbox: platform config, as the settings are.
  own('GET', '/sandbox/clock', MANAGE, 'The sandbox clock: its mode and time.'),
  own('POST', '/sandbox/clock/advance', MANAGE, 'Moves the sandbox clock on, running the jobs due on the way.', {
    // Every job the advance runs is a unit of its own, committed before the next.
    unit: false,
  }),
  own('POST', '/sandbox/clock/freeze', MANAGE, 'Stops the sandbox clock.'),
  own('POST', '/sandbox/clock/unfreeze', MANAGE, 'Lets the sandbox clock tick again from where it stands.'),
  own('POST', '/sandbox/clock/reset', MANAGE, "Puts the sandbox clock back on the machine's time."),
  own(
    'POST',
    '/sandbox/webhooks/listener',
    MANAGE,
    'Points the webhook endpoint at a local listener: platform config.',
  ),
  own('POST', '/sandbox/events/{eventId}/replay', MANAGE, 'Re-sends a webhook: webhook delivery is platform config.', {
    // Waits on the network: outside a unit, so it holds up no other request.
    unit: false,
  }),
  own(
    'POST',
    '/sandbox/webhooks/trigger',
    TRANSACT,
    "Takes an existing object through a transition (a test helper), as the sandbox's simulators do: money moves.",
  ),
  own(
    'POST',
    '/sandbox/quotes/{quoteId}/execute-as-agent',
    TRANSACT,
    'Executes a quote as an agent would (a test helper): a payment.',
  ),
  own(
    'POST',
    '/sandbox/wallet-requests/{requestId}/settle',
    SESSION,
    'Finishes a wallet request left PROCESSING: whoever may start one.',
  ),
  own('POST', '/sandbox/stablecoins/{stablecoinId}/enablement', MANAGE, 'Asks for a stablecoin: platform config.'),
  own(
    'POST',
    '/sandbox/stablecoin-provider-accounts/{id}/status',
    MANAGE,
    "Moves a provider account's status (the provider's side).",
  ),
  own(
    'GET',
    '/sandbox/hosted/kyc/{token}',
    PUBLIC,
    "The hosted KYC page a customer's browser opens; the token is the credential.",
  ),
  own('POST', '/sandbox/hosted/kyc/{token}', PUBLIC, "The hosted KYC page's form."),
  own('GET', '/sandbox/hosted/liveness/{token}', PUBLIC, 'The hosted liveness page.'),
  own(
    'GET',
    '/sandbox/hosted/terms/{version}',
    PUBLIC,
    "The end-user terms page (GET /customers/end-user-terms's url): the end user's browser opens it.",
  ),
  own('POST', '/sandbox/hosted/liveness/{token}/complete', PUBLIC, "The hosted liveness page's form."),
  own(
    'GET',
    '/sandbox/hosted/cards/reveal/{token}',
    PUBLIC,
    'The card reveal page behind the short-lived panEmbedUrl.',
  ),
]
