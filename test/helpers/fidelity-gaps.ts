/**
 * Why a documented answer (operation + status) is not produced by the sandbox, for docs/fidelity.md.
 * The first rule whose status (and operation, when given) matches decides. Keep the reasons specific:
 * "not yet" means a test could produce it and none does.
 */
export type GapCategory = 'unreachable in a sandbox' | 'spec says otherwise' | 'not yet' | '5xx (not counted)'

export interface GapRule {
  status: RegExp
  operation?: RegExp
  category: GapCategory
  why: string
}

export const GAP_RULES: GapRule[] = [
  {
    status: /^500$/,
    category: '5xx (not counted)',
    why: 'A 500 is a sandbox bug (or a damaged store: 500 SANDBOX_DATA_DAMAGED, tested in the chaos tests, which run a separate process).',
  },
  {
    status: /^501$/,
    category: '5xx (not counted)',
    why: '501 NOT_IMPLEMENTED: the sandbox implements what the spec describes, or refuses it as 400 where the spec names the rule (fee configs in another currency).',
  },
  {
    status: /^503$/,
    category: '5xx (not counted)',
    why: '503 SERVICE_UNAVAILABLE: only by fault injection (`sandbox.faults`), which the contract check does not record (a faulted request is no API answer).',
  },
  {
    status: /^412$/,
    category: 'unreachable in a sandbox',
    why: '412 UNSUPPORTED_UMA_VERSION needs a remote UMA counterparty speaking another protocol version; the sandbox has no remote counterparties.',
  },
  {
    status: /^424$/,
    category: 'unreachable in a sandbox',
    why: '424 (PAYREQ_REQUEST_FAILED, LNURLP_REQUEST_FAILED, COUNTERPARTY_PUBKEY_FETCH_ERROR, EMAIL_OTP_CREDENTIAL_SYNC_FAILED) needs a remote counterparty or the e-mail provider failing; the sandbox has neither.',
  },
  {
    status: /^409$/,
    operation: /^POST \/agents\/\{agentId\}\/device-codes$/,
    category: 'not yet',
    why: "The contract refuses a new device code for a connected agent (409); the sandbox issues one, which hands the agent to whoever redeems it (issue 29's grants; the delegation matrix relies on it). Not decided: the spec is silent.",
  },
  {
    status: /^409$/,
    operation: /^POST \/stablecoins\/\{stablecoinId\}\/burns$/,
    category: 'not yet',
    why: 'The contract names no conflict for a burn ("Conflict"), and the sandbox has none: a reused Idempotency-Key with another body is the only candidate, and burns replay by key.',
  },
  {
    status: /^429$/,
    operation: /\/authorize(\/resend)?$|^POST \/auth\/credentials\/\{id\}\/verify$/,
    category: 'not yet',
    why: 'The contract documents a limit without numbers; the sandbox models none on this operation (its limits: SCA lock 423, factor resets, challenge re-issue, daily volume).',
  },
  {
    status: /^400$/,
    operation:
      /^(DELETE \/tokens\/\{tokenId\}|POST \/agents\/\{agentId\}\/device-codes|POST \/agents\/\{agentId\}\/actions\/\{actionId\}\/approve|POST \/agents\/me\/quotes\/\{quoteId\}\/execute|POST \/customers\/external-accounts\/\{externalAccountId\}\/(un)?trust)$/,
    category: 'not yet',
    why: 'The operation takes no body or query (its id is in the path: an unknown one is 404, a wrong state 409), and the contract names no condition for its 400 ("Bad request"); the sandbox has nothing to refuse here.',
  },
  {
    status: /^400$/,
    operation: /^(DELETE \/auth\/sessions\/\{id\}|POST \/auth\/sessions\/\{id\}\/refresh)$/,
    category: 'not yet',
    why: "A wallet session's signed retry (a stamped request from a live session): no test sends one with a broken body yet.",
  },
  {
    status: /^403$/,
    category: 'not yet',
    why: 'Reachable with a token or agent lacking the permission (authz/table.ts); no test calls this operation that way yet.',
  },
  {
    status: /^409$/,
    category: 'not yet',
    why: 'A state conflict the sandbox models; no test drives this operation into it yet.',
  },
  {
    status: /^(423|429)$/,
    category: 'not yet',
    why: 'A lock or rate limit the sandbox models (SCA lock, challenge re-issue, daily volume); no test reaches it on this operation yet.',
  },
  {
    status: /^4\d\d$/,
    category: 'not yet',
    why: 'No test produces this refusal on this operation yet.',
  },
  {
    status: /^2\d\d$/,
    category: 'not yet',
    why: 'No test produces this success on this operation yet.',
  },
]
