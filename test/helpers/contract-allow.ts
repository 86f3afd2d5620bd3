import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import type {Exchange} from './contract-check.js'
import {REPO_ROOT} from './contract.js'

/**
 * The deliberate differences between the sandbox (and the CLI) and the published contract: where
 * they disagree, service-api.md wins (api-gaps.md §10 lists the known cases). An allowance either
 * translates the one thing that differs before the check (`adapt`: everything else in the body is
 * still checked) or excuses named finding lines (`excuses`). Keep this list short: fix the sandbox
 * rather than add to it.
 */
export interface Allowance {
  id: string
  /** The section of the spec that decides the difference. */
  decidedBy: string
  why: string
  /** A translated copy of the exchange when the allowance applies, else undefined. */
  adapt?(x: Exchange): Exchange | undefined
  excuses?(f: {kind: 'request' | 'response'; exchange: Exchange; operation?: string; line: string}): boolean
}

type Body = Record<string, unknown>
const obj = (v: unknown): Body | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Body) : undefined
const code = (x: Exchange) => obj(x.responseBody)?.code
const enumLine = (field: string) => (line: string) =>
  line.startsWith(`${field} must be equal to one of the allowed values`)

/** CLABE -> MXN_ACCOUNT inside an external account (request body or answer). */
function clabeToMxn(body: unknown): unknown {
  const b = obj(body)
  const info = obj(b?.accountInfo)
  if (!b || info?.accountType !== 'CLABE') return undefined
  const {bankName: _bankName, ...rest} = info
  return {...b, accountInfo: {...rest, accountType: 'MXN_ACCOUNT'}}
}

export const ALLOWANCES: Allowance[] = [
  {
    id: 'body-size-cap',
    decidedBy: 'service-api.md §2.12 (the error document), issue 9 (bounded memory)',
    why: 'The local sandbox refuses a request body over 12 MiB with 413 PAYLOAD_TOO_LARGE before a route sees it: a transport limit, answered on any operation, so no operation documents it.',
    excuses: (f) => f.kind === 'response' && f.exchange.status === 413 && code(f.exchange) === 'PAYLOAD_TOO_LARGE',
  },
  {
    id: 'internal-account-path',
    decidedBy: 'service-api.md §4.3 (api-gaps §10.1 #1)',
    why: 'Internal accounts are listed at GET /internal-account; the contract has GET /customers/internal-accounts with the same query and list shape.',
    adapt: (x) =>
      x.method === 'GET' && x.path === '/internal-account' ? {...x, path: '/customers/internal-accounts'} : undefined,
  },
  {
    id: 'clabe-account-kind',
    decidedBy: 'service-api.md §2.6 (api-gaps §10.2 #14)',
    why: 'The spec names the MXN kind CLABE {clabeNumber, bankName, beneficiary}; the contract calls it MXN_ACCOUNT without bankName. Checked as MXN_ACCOUNT.',
    adapt: (x) => {
      if (!x.path.startsWith('/customers/external-accounts') && !x.path.startsWith('/agents/me/external-accounts'))
        return undefined
      const req = clabeToMxn(x.requestBody)
      const list = obj(x.responseBody)?.data
      const res = Array.isArray(list)
        ? list.some((a) => obj(obj(a)?.accountInfo)?.accountType === 'CLABE')
          ? {...obj(x.responseBody), data: list.map((a) => clabeToMxn(a) ?? a)}
          : undefined
        : clabeToMxn(x.responseBody)
      return req || res ? {...x, requestBody: req ?? x.requestBody, responseBody: res ?? x.responseBody} : undefined
    },
  },
  {
    id: 'quote-transaction-id',
    decidedBy: 'service-api.md §2.8 (api-gaps §10.2 #21)',
    why: 'A quote carries transactionId only when it is account-sourced; the contract requires it on every quote.',
    excuses: ({kind, operation, line}) =>
      kind === 'response' &&
      /\/quotes/.test(operation ?? '') &&
      line === "(body) must have required property 'transactionId'",
  },
  {
    id: 'spec-error-codes',
    decidedBy: 'service-api.md §7 (api-gaps §10.3 #31, #32, #34-#37)',
    why: 'The spec names error codes (and statuses) the contract does not list for that status or operation, e.g. 404 ACCOUNT_NOT_FOUND, 409 DUPLICATE_PAY_REQUEST, 409 DOCUMENT_ALREADY_EXISTS, 400 QUOTE_EXPIRED / INSUFFICIENT_FUNDS, 429 on challenge re-issue. Excused only when §7 lists that code under that status.',
    excuses: ({kind, exchange, line}) =>
      kind === 'response' &&
      specCodes(exchange.status).has(String(code(exchange))) &&
      (enumLine('/code')(line) || line.startsWith(`status ${exchange.status} is not a documented answer`)),
  },
  {
    id: 'ach-same-day-rail',
    decidedBy: 'service-api.md §4.4 (api-gaps §10.2 #22)',
    why: "The spec has paymentRail ACH_SAME_DAY (used only when named); the contract's PaymentRail has no such value.",
    excuses: ({exchange, line}) =>
      /paymentRail must be equal to one of the allowed values/.test(line) &&
      JSON.stringify([exchange.requestBody, exchange.responseBody]).includes('"ACH_SAME_DAY"'),
  },
  {
    id: 'wallet-still-processing',
    decidedBy: 'service-api.md §5.4 (api-gaps §11, WalletOperationProcessing)',
    why: 'A signed wallet operation may answer 200 {status: PROCESSING, message?} and be re-sent; the contract revision predates that answer. Only that exact shape is excused.',
    excuses: ({kind, exchange}) => {
      const b = obj(exchange.responseBody)
      return (
        kind === 'response' &&
        exchange.status === 200 &&
        b?.status === 'PROCESSING' &&
        Object.keys(b).every((k) => k === 'status' || k === 'message')
      )
    },
  },
  {
    id: 'agent-payment-approval',
    decidedBy: 'service-api.md §3 Transaction (approve) and §7 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    why: 'Approve (or reject) decides an agent-initiated outgoing payment too; the contract answers both with an INCOMING transaction.',
    excuses: ({kind, operation, line}) =>
      kind === 'response' &&
      (operation === 'POST /transactions/{transactionId}/approve' ||
        operation === 'POST /transactions/{transactionId}/reject') &&
      line.startsWith('/type must be equal to one of the allowed values'),
  },
  {
    id: 'local-sandbox-helpers',
    decidedBy: 'design/product.md (local sandbox) and service-api.md §4.5',
    why: 'The local sandbox has helpers the Service does not publish: its webhook signing key, quorum key, event log and replay, webhook listener registration, hosted KYC/liveness pages, agent execute, wallet-request settle, and `webhooks trigger --url`. Unknown routes answer 404/405.',
    excuses: ({exchange, line}) =>
      (line.startsWith('no operation ') &&
        (LOCAL_HELPERS.some((r) => r.test(exchange.path)) || [404, 405].includes(exchange.status))) ||
      (exchange.path === '/sandbox/webhooks/test' &&
        line.includes('takes no body') &&
        Object.keys(obj(exchange.requestBody) ?? {}).join() === 'url'),
  },
  {
    id: 'stablecoin-enablement-request',
    decidedBy: 'service-api.md §3 (stablecoin enablement: the request is named, its path is not shown)',
    why: 'The sandbox takes the enablement request at POST /stablecoins/{id}/enablement; the contract has no operation for it.',
    excuses: ({exchange, line}) =>
      line.startsWith('no operation ') && /^\/stablecoins\/[^/]+\/enablement$/.test(exchange.path),
  },
  {
    id: 'sandbox-clock',
    decidedBy: "issue 22 (the sandbox's own clock: a local-sandbox control, like the event log)",
    why: 'GET /sandbox/clock and POST /sandbox/clock/{advance,freeze,unfreeze,reset} move time in the local sandbox; the Service has no such operation.',
    excuses: ({exchange, line}) =>
      line.startsWith('no operation ') && /^\/sandbox\/clock(\/(advance|freeze|unfreeze|reset))?$/.test(exchange.path),
  },
  {
    id: 'card-authorization-expiry',
    decidedBy: 'service-api.md §4.5 (api-gaps §10.1 #3; sandbox-behaviour.md §16d, §18.9)',
    why: 'The spec has POST /sandbox/cards/{id}/simulate/authorization_expiry (a fully open authorization becomes VOIDED); the contract has only clearing with amount 0, which the sandbox also accepts.',
    excuses: ({exchange, line}) =>
      line.startsWith('no operation ') &&
      /^\/sandbox\/cards\/[^/]+\/simulate\/authorization_expiry$/.test(exchange.path),
  },
  {
    id: 'card-exception-resolution',
    decidedBy: 'issue 29 F17 (an EXCEPTION must not hold funds forever; the Service resolves it by its operations)',
    why: 'POST /sandbox/cards/{id}/simulate/exception_resolution settles or returns an EXCEPTION card transaction, as the Service would; the contract has no simulator for it.',
    excuses: ({exchange, line}) =>
      line.startsWith('no operation ') &&
      /^\/sandbox\/cards\/[^/]+\/simulate\/exception_resolution$/.test(exchange.path),
  },
  {
    id: 'card-transaction-voided',
    decidedBy: 'service-api.md §3 Card transaction, §6 CARD_TRANSACTION.* (api-gaps §10.2 #25)',
    why: "An expired authorization is VOIDED; the contract's CardTransactionStatus has no VOIDED (and still has REFUNDED, which the spec removed). Excused only where the value is VOIDED.",
    excuses: ({kind, exchange, line}) => {
      const m = /^((?:\/[^ ]+)?)\/status must be equal to one of the allowed values \["AUTHORIZED"/.exec(line)
      return kind === 'response' && Boolean(m) && at(exchange.responseBody, `${m![1]}/status`) === 'VOIDED'
    },
  },
  {
    id: 'card-funding-source-code',
    decidedBy: "sandbox-behaviour.md §16b; the contract's own POST /cards and PATCH /cards/{id} 400 descriptions",
    why: "A funding source that is not the cardholder's (or not in the card currency) is 400 FUNDING_SOURCE_INELIGIBLE, as both name it; the contract's Error400 code enum omits it.",
    excuses: ({kind, exchange, line}) =>
      kind === 'response' &&
      exchange.status === 400 &&
      code(exchange) === 'FUNDING_SOURCE_INELIGIBLE' &&
      /^\/cards(\/|$)/.test(exchange.path) &&
      enumLine('/code')(line),
  },
  {
    id: 'permission-403',
    decidedBy:
      'api-gaps.md "Auth" row (quote create/execute need TRANSACT, else 403) and the contract\'s Error403 (FORBIDDEN: "Insufficient permissions"); issue 18 (authorization table) and issue 21 R7',
    why: "A caller with valid credentials but without the permission the authorization table (src/emulator/authz/table.ts) names gets 403 FORBIDDEN on every operation, with the Error403 body; the contract lists 403 on only some operations (createQuote, executeQuote, the agent's quote and transfer routes, ...). The same holds for an agent whose policy lacks the permission the operation's text names, or that is paused: e.g. POST/DELETE /agents/me/external-accounts need MANAGE_EXTERNAL_ACCOUNTS by their own text, and their 403 is not listed.",
    excuses: ({kind, exchange, line}) =>
      kind === 'response' &&
      exchange.status === 403 &&
      code(exchange) === 'FORBIDDEN' &&
      line.startsWith('status 403 is not a documented answer'),
  },
  {
    id: 'transfer-customer-not-ready',
    decidedBy:
      "service-api.md §4.4 (the quoting errors USER_NOT_READY, END_USER_TERMS_NOT_ACCEPTED) and issue 29 (every debit of a customer runs the quote path's checks)",
    why: "The deprecated /transfer-out and /transfer-in are a quote executed at once, so a customer who is not verified or has not accepted the terms gets the quote's 403; the contract lists no 403 on them.",
    excuses: ({kind, exchange, line}) =>
      kind === 'response' &&
      exchange.status === 403 &&
      /^\/transfer-(out|in)$/.test(exchange.path) &&
      ['USER_NOT_READY', 'END_USER_TERMS_NOT_ACCEPTED'].includes(String(code(exchange))) &&
      line.startsWith('status 403 is not a documented answer'),
  },
  // Open differences the sandbox or CLI should lose (not decided by the spec); each names what to change.
  {
    id: 'open-sandbox-only-codes',
    decidedBy:
      'not decided: the spec names the states (EXPIRED invitations, revoked delegated keys) but no error code for them',
    why: 'TO DECIDE: 400 INVITATION_EXPIRED (claim of an expired invitation) and 400 DELEGATED_KEY_NOT_ACTIVE (revoking a key that is not active) are sandbox codes outside the contract enums.',
    excuses: ({kind, exchange, line}) =>
      kind === 'response' &&
      exchange.status === 400 &&
      ['INVITATION_EXPIRED', 'DELEGATED_KEY_NOT_ACTIVE'].includes(String(code(exchange))) &&
      enumLine('/code')(line),
  },
  {
    id: 'open-sandbox-error-codes',
    decidedBy:
      'service-api.md §4.1 (verify shape "not shown") and §7 409 ("return 409 when not applicable", code not named)',
    why: "TO FIX: the sandbox names 400 INVALID_SIGNATURE (ownership verify) and 409 CONTACT_VERIFICATION_REQUIRED (kyc-link before every channel is VERIFIED); the contract's enums have INVALID_INPUT and CONFLICT there. The CLI's hints key on these codes, so renaming them is a change of its own.",
    excuses: ({kind, exchange, line}) =>
      kind === 'response' &&
      ((exchange.status === 400 && code(exchange) === 'INVALID_SIGNATURE' && /\/verify$/.test(exchange.path)) ||
        (exchange.status === 409 && code(exchange) === 'CONTACT_VERIFICATION_REQUIRED')) &&
      enumLine('/code')(line),
  },
]

/** The value at a JSON pointer ("/data/0/status") in a body. */
function at(body: unknown, pointer: string): unknown {
  let v: unknown = body
  for (const part of pointer.split('/').slice(1)) v = Array.isArray(v) ? v[Number(part)] : obj(v)?.[part]
  return v
}

const LOCAL_HELPERS = [
  /^\/sandbox\/webhook-public-key$/,
  /^\/sandbox\/quorum-public-key$/,
  /^\/sandbox\/events$/,
  /^\/sandbox\/webhooks\/listener$/,
  /^\/sandbox\/webhooks\/trigger$/,
  /^\/sandbox\/events\/[^/]+\/replay$/,
  /^\/sandbox\/stablecoins\/[^/]+\/enablement$/,
  /^\/sandbox\/stablecoin-provider-accounts\/[^/]+\/status$/,
  /^\/sandbox\/hosted\//,
  /^\/sandbox\/quotes\/[^/]+\/execute-as-agent$/,
  /^\/sandbox\/wallet-requests\/[^/]+\/settle$/,
]

let codesByStatus: Map<number, Set<string>> | undefined

/** Error codes service-api.md §7 names per status ("### 404 codes" ..., and "Other statuses"). */
export function specCodes(status: number): Set<string> {
  codesByStatus ??= readSpecCodes()
  return codesByStatus.get(status) ?? new Set()
}

function readSpecCodes(): Map<number, Set<string>> {
  const text = readFileSync(resolve(REPO_ROOT, '../shared/spec/service-api.md'), 'utf8')
  const section = text.slice(text.indexOf('## 7. Errors'), text.indexOf('## 8.'))
  const out = new Map<number, Set<string>>()
  const add = (status: number, codes: Iterable<string>) =>
    out.set(status, new Set([...(out.get(status) ?? []), ...codes]))
  const names = (s: string) => [...s.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])
  for (const part of section.split(/^### /m).slice(1)) {
    const m = /^(\d{3}) codes/.exec(part)
    if (m) add(Number(m[1]), names(part))
    else for (const [, status, rest] of part.matchAll(/(\d{3}) ([^,.(]*)/g)) add(Number(status), names(rest))
  }
  // §7 names the challenge re-issue limit without a code; api-gaps §10.3 #39 gives RATE_LIMITED.
  add(429, ['RATE_LIMITED'])
  return out
}

/**
 * Webhook bodies (test/helpers/contract-webhooks.ts): where the contract's `webhooks:` section has no
 * schema for an event type the sandbox emits, or differs from the spec, the spec section decides.
 * `noSchema` types are checked against nothing but the envelope; `excuses` lets named lines pass.
 */
export interface WebhookAllowance {
  id: string
  decidedBy: string
  why: string
  /** Event types with no webhook operation in the contract (`X.*`: every type of resource X). */
  noSchema?: string[]
  excuses?(type: string, line: string, body: unknown): boolean
}

export const WEBHOOK_ALLOWANCES: WebhookAllowance[] = [
  {
    id: 'wallet-operation-completed',
    decidedBy:
      'service-api.md §6 (`wallet_operation.completed`; "payloads of all events except payment events: not shown"), §3 Wallet operation',
    why: "The spec names the event; the contract has no webhook operation and no WebhookType value for it. Its data is the sandbox's {operationId, requestId, operationType, resourceType, resourceId, status}.",
    noSchema: ['wallet_operation.completed'],
  },
  {
    id: 'card-transaction-declined',
    decidedBy:
      'service-api.md §6 ("exact names of the card event types other than those above: not shown"); sandbox-behaviour.md §16c (declines)',
    why: 'A declined authorization creates no card transaction, so the sandbox reports it as CARD_TRANSACTION.DECLINED with the decline reason; the contract has no such type.',
    noSchema: ['CARD_TRANSACTION.DECLINED'],
  },
  {
    id: 'card-transaction-voided-event',
    decidedBy:
      'service-api.md §3 Card transaction, §6 (`CARD_TRANSACTION.VOIDED` after an authorization expiry); api-gaps §10.2 #25',
    why: "The spec adds CARD_TRANSACTION.VOIDED (status VOIDED); the contract's card-transaction webhook and WebhookType enums lack both. The rest of the body is checked against the card-transaction webhook.",
    excuses: (type, line, body) =>
      type === 'CARD_TRANSACTION.VOIDED' &&
      (/^\/type must be equal to one of the allowed values/.test(line) ||
        (/^\/data\/status must be equal to one of the allowed values/.test(line) &&
          at(body, '/data/status') === 'VOIDED')),
  },
]

/** The card-transaction webhook is the schema a VOIDED event is checked against. */
export const WEBHOOK_SCHEMA_OVERRIDES: Record<string, string> = {'CARD_TRANSACTION.VOIDED': 'card-transaction'}
