import {type AuthzEntry, agent, op} from './build.js'

/** Agent operations (the agent's Bearer token; the permission each operation's text names) */
export const AGENT_OPERATIONS: readonly AuthzEntry[] = [
  op('GET', '/agents/me', 'getAgentMe', agent()),
  op('GET', '/agents/me/transactions', 'agentListTransactions', agent('VIEW_TRANSACTIONS'), {
    note: 'VIEW_TRANSACTIONS: "can list and retrieve transactions".',
  }),
  op('GET', '/agents/me/transactions/{transactionId}', 'agentGetTransaction', agent('VIEW_TRANSACTIONS')),
  op('POST', '/agents/me/quotes', 'agentCreateQuote', agent('CREATE_QUOTES'), {
    delegation: {sameCurrency: 'CREATE_TRANSFERS'},
    idempotency: {scope: 'agent-quotes'},
    note: 'CREATE_QUOTES is "cross-currency quotes"; a same-currency quote is a transfer (CREATE_TRANSFERS).',
  }),
  op('GET', '/agents/me/quotes/{quoteId}', 'agentGetQuote', agent()),
  op('POST', '/agents/me/quotes/{quoteId}/execute', 'agentExecuteQuote', agent('EXECUTE_QUOTES'), {
    walletSignature: 'wallet-source',
    delegation: {spends: true, sameCurrency: 'CREATE_TRANSFERS'},
    idempotency: {scope: 'agent-execute|{quoteId}'},
    note: 'EXECUTE_QUOTES is "cross-currency quotes"; paying a same-currency quote is a transfer (CREATE_TRANSFERS).',
  }),
  op('GET', '/agents/me/actions', 'agentListActions', agent()),
  op('GET', '/agents/me/actions/{actionId}', 'agentGetAction', agent()),
  op('POST', '/agents/me/transfer-in', 'agentCreateTransferIn', agent('CREATE_TRANSFERS'), {
    delegation: {spends: true},
    idempotency: {scope: 'agent-transfer-in'},
    note: "Pulls from the customer's external account.",
  }),
  op('POST', '/agents/me/transfer-out', 'agentCreateTransferOut', agent('CREATE_TRANSFERS'), {
    delegation: {spends: true},
    idempotency: {scope: 'agent-transfer-out'},
  }),
  op('GET', '/agents/me/internal-accounts', 'agentListInternalAccounts', agent('VIEW_TRANSACTIONS'), {
    note: 'The accounts carry their balances, and VIEW_TRANSACTIONS is "list and retrieve transactions and account balances".',
  }),
  op('GET', '/agents/me/external-accounts', 'agentListExternalAccounts', agent('MANAGE_EXTERNAL_ACCOUNTS')),
  op('POST', '/agents/me/external-accounts', 'agentCreateExternalAccount', agent('MANAGE_EXTERNAL_ACCOUNTS'), {
    note: "Its 403 is not in the contract's list for this operation; the permission is in its text (issue 21 R7).",
  }),
  op(
    'GET',
    '/agents/me/external-accounts/{externalAccountId}',
    'agentGetExternalAccount',
    agent('MANAGE_EXTERNAL_ACCOUNTS'),
  ),
  op(
    'DELETE',
    '/agents/me/external-accounts/{externalAccountId}',
    'agentDeleteExternalAccount',
    agent('MANAGE_EXTERNAL_ACCOUNTS'),
    {note: 'As agentCreateExternalAccount (issue 21 R7).'},
  ),
]
