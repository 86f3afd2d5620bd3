import {type AuthzEntry, TRANSACT, MANAGE, op} from './build.js'

/** Sandbox: the contract's simulators */
export const SANDBOX_SIMULATORS: readonly AuthzEntry[] = [
  op('POST', '/sandbox/webhooks/test', 'sendTestWebhook', MANAGE, {
    note: 'Webhooks are platform config.',
    // Writes nothing and waits on the network: outside a unit, so it holds up no other request.
    unit: false,
  }),
  op('POST', '/sandbox/send', 'sandboxSend', TRANSACT),
  op('POST', '/sandbox/uma/receive', 'sandboxReceive', TRANSACT),
  op('POST', '/sandbox/internal-accounts/{accountId}/fund', 'sandboxFundInternalAccount', TRANSACT),
]
