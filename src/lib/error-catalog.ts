/**
 * One line of advice per error code of spec section 7 (plus the published extras in api-gaps 9):
 * what the operator should do next. Kept as data so the catalog test can check coverage.
 */
export const ERROR_HINTS: Readonly<Record<string, string>> = {
  // 400
  INVALID_INPUT: 'Fix every field listed and send again.',
  END_USER_TERMS_VERSION_NOT_FOUND: 'Use the current version from `svc customers terms`.',
  MISSING_MANDATORY_USER_INFO: 'Add the customer fields the provider requires (`svc customers update`), then retry.',
  INVITATION_ALREADY_CLAIMED: 'This invitation was used already; create a new one.',
  INVITATIONS_NOT_CONFIGURED: 'Invitations are not enabled for this platform; ask the Service to configure them.',
  INVALID_UMA_ADDRESS: 'Check the UMA address format: $user@domain.',
  INVITATION_CANCELLED: 'This invitation was cancelled; create a new one.',
  QUOTE_REQUEST_FAILED: 'The counterparty could not quote right now; retry in a moment.',
  INVALID_PAYREQ_RESPONSE: 'The counterparty sent an invalid pay request; retry or contact the counterparty.',
  INVALID_RECEIVER: 'The receiver cannot accept this payment; check the destination.',
  PARSE_PAYREQ_RESPONSE_ERROR: 'The counterparty response could not be parsed; retry later.',
  CERT_CHAIN_INVALID: 'The counterparty certificate chain is invalid; contact the counterparty.',
  CERT_CHAIN_EXPIRED: 'The counterparty certificate chain expired; contact the counterparty.',
  INVALID_PUBKEY_FORMAT: 'The public key is not in the expected format (SEC1 hex).',
  MISSING_REQUIRED_UMA_PARAMETERS: 'Add the UMA parameters the receiver requires.',
  SENDER_NOT_ACCEPTED: 'The receiver does not accept payments from this sender.',
  AMOUNT_OUT_OF_RANGE: 'Choose an amount within the corridor minimum and maximum.',
  INVALID_CURRENCY: 'Use a currency the platform and the account support.',
  INVALID_TIMESTAMP: 'Check the machine clock; the request timestamp was rejected.',
  INVALID_NONCE: 'Use a fresh nonce (for OAuth: SHA-256 of the client public key).',
  INVALID_REQUEST_FORMAT: 'The request body is malformed; check the command input.',
  INVALID_BANK_ACCOUNT: 'The bank account failed validation permanently; register a corrected account.',
  SELF_PAYMENT: 'Source and destination are the same; choose another destination.',
  LOOKUP_REQUEST_FAILED: 'The receiver lookup failed; retry later.',
  PARSE_LNURLP_RESPONSE_ERROR: 'The counterparty LNURLP answer could not be parsed; retry later.',
  INVALID_AMOUNT: "Check the amount: a positive value in the currency's units.",
  WEBHOOK_ENDPOINT_NOT_SET: 'Set one with `svc webhooks endpoint <url>` first.',
  WEBHOOK_DELIVERY_ERROR: 'The webhook endpoint did not answer 2xx; check that it is reachable.',
  LOW_QUALITY: 'Upload a sharper photo: all four corners, in focus, in colour.',
  DATA_MISMATCH: 'The document does not match the customer data; check names and numbers.',
  EXPIRED: 'The document has expired; upload a valid one.',
  SUSPECTED_FRAUD: 'The document was flagged; contact compliance before retrying.',
  UNSUITABLE_DOCUMENT: 'This document type is not accepted here; see the accepted types.',
  INCOMPLETE: 'Upload every page or side of the document.',
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: 'An account holds one EMAIL_OTP credential; revoke the existing one first.',
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: 'An account holds one SMS_OTP credential; revoke the existing one first.',
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: 'This passkey (credentialId) is registered already; use another authenticator.',
  CARDHOLDER_KYC_NOT_APPROVED: 'Cards need an APPROVED cardholder; finish KYC (`svc kyc status`).',
  TRANSACTION_SIZE_LIMIT_EXCEEDED:
    'Split the transfer: the amount is above the single-transaction maximum for this corridor.',
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED:
    'Verify the destination first: `svc accounts external verify-ownership <id>`.',
  INSUFFICIENT_FUNDS: 'Fund the source account (`svc sandbox fund` in sandbox) or lower the amount.',
  QUOTE_EXPIRED: 'The quote expired; create a new quote with `svc quote create`.',
  QUOTE_RATE_UNAVAILABLE: 'No rate is available for this corridor right now; retry later.',
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: 'The stablecoin provider account is invalid; relink it.',
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: 'The stablecoin provider account was revoked; relink it.',
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED:
    'Several provider accounts are linked; choose one with --provider-account (stablecoinProviderAccountId).',
  STABLECOIN_AMOUNT_NOT_REPRESENTABLE:
    'Use a whole number of fiat cents: with 6 decimals, a multiple of 10000 smallest units (e.g. --amount 12.34).',
  STABLECOIN_BURN_SOURCE_NOT_SUPPORTED: 'Burn from a supported source account.',
  STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED: 'Linking the external account failed; retry the link.',
  STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED: 'Name a link method for the external account.',
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED: 'Link the external account to the stablecoin first.',
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED: 'This external account cannot be used for the stablecoin.',
  STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED: 'The provider link failed; retry later.',
  STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED: 'Link the external account with the provider first.',
  STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED:
    'Internal accounts hold the coin only once ENABLED: `svc stablecoins request-enablement <id>`, then wait for the operator.',
  STABLECOIN_NOT_PROVISIONED: 'The stablecoin is not provisioned yet; wait for provisioning.',
  STABLECOIN_OPERATION_NOT_SUPPORTED: 'This stablecoin operation is not supported.',
  STABLECOIN_PROVIDER_ERROR: 'The stablecoin provider failed; retry later.',
  STABLECOIN_PROVIDER_SOURCE_NOT_LINKED: 'Link a provider source first.',
  STABLECOIN_VERIFICATION_FAILED: 'Stablecoin verification failed; check the submitted data.',
  // 401
  UNAUTHORIZED: 'Check the token id and client secret of this profile (`svc login`).',
  INVALID_SIGNATURE: 'The request signature was rejected; re-run the command to sign again.',
  WALLET_SIGNATURE_MISSING: 'This action needs a wallet session: run `svc wallet login <InternalAccount>`.',
  WALLET_SIGNATURE_MALFORMED: 'The Service-Wallet-Signature header is not a valid stamp; re-run to stamp again.',
  WALLET_SIGNATURE_BODY_MISMATCH:
    'The body changed after signing; re-run the command so it is signed over the exact body.',
  WALLET_SIGNATURE_INVALID: 'The stamp did not verify with an active session key; run `svc wallet login` and retry.',
  REQUEST_ID_MISSING: 'A signed retry must carry Request-Id; re-run the command (svc sends it for you).',
  // 403
  FORBIDDEN: 'This API token lacks the permission (quotes need TRANSACT).',
  END_USER_TERMS_NOT_ACCEPTED: 'Record consent first: `svc customers terms <customerId> --accept`.',
  // 404
  TRANSACTION_NOT_FOUND: 'Check the Transaction id (`svc transactions list`).',
  INVITATION_NOT_FOUND: 'Check the invitation code.',
  USER_NOT_FOUND: 'Check the Customer id (`svc customers list`).',
  QUOTE_NOT_FOUND: 'Check the Quote id; quotes are looked up by id only.',
  LOOKUP_REQUEST_NOT_FOUND: 'The receiver lookup expired or never existed; look up again.',
  TOKEN_NOT_FOUND: 'Check the API token id.',
  BULK_UPLOAD_JOB_NOT_FOUND: 'Check the Job id.',
  REFERENCE_NOT_FOUND: 'No payment matches that reference.',
  UMA_NOT_FOUND: 'The UMA address is well formed but nobody receives there; check it with the receiver.',
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: 'Check the stablecoin provider account id.',
  ACCOUNT_NOT_FOUND: 'Check the account id (`svc accounts internal list` / `svc accounts external list`).',
  AUTH_METHOD_NOT_FOUND: 'Check the credential id (`svc wallet credentials list <InternalAccount>`).',
  CUSTOMER_NOT_FOUND: 'Check the Customer id (`svc customers list`).',
  DOCUMENT_HOLDER_NOT_FOUND: 'The document holder must be an existing Customer: or BeneficialOwner: id.',
  NOT_FOUND: 'Check the id or path.',
  PAYMENT_URL_NOT_FOUND: 'The payment URL expired or never existed.',
  PLATFORM_NOT_FOUND: 'Check the platform credentials of this profile.',
  REQUEST_NOT_FOUND: 'The signed-retry request expired or was never issued; re-run the command.',
  SESSION_NOT_FOUND: 'The session is not active (expired or revoked); run `svc wallet login`.',
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND: 'Check the stablecoin external account id.',
  STABLECOIN_NOT_FOUND: 'Check the stablecoin id.',
  STABLECOIN_OPERATION_NOT_FOUND: 'Check the stablecoin operation id.',
  VERIFICATION_NOT_FOUND: 'Check the Verification id (`svc kyc status <customerId>`).',
  // 409
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL:
    'Only a PENDING incoming payment or an agent-initiated transaction waiting for platform approval can be approved or rejected.',
  TRANSACTION_NOT_CANCELLABLE: 'The transaction already settled or is past its cancellation window.',
  UMA_ADDRESS_EXISTS: 'Choose another UMA address; this one is taken.',
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: 'Another EMAIL_OTP credential uses this email; choose another address.',
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: 'The credentials changed after the challenge was issued; re-run the command.',
  PASSKEY_ALREADY_ENROLLED: 'One passkey per customer for SCA: delete the enrolled passkey first.',
  SCA_SESSION_REQUIRED:
    'Re-authenticate the customer (`svc sca login start <customerId>`, then `svc sca login complete … --code -`), then retry.',
  BENEFICIARY_TRUSTED: 'Untrust it first: `svc accounts external untrust <id>`, then delete.',
  BANK_ACCOUNT_VALIDATION_PENDING:
    'The bank account is being validated (micro-entries, a few banking days); retry after the window.',
  INVALID_STATE_TRANSITION: 'That status change is not allowed from the current state.',
  CARD_ALREADY_CLOSED: 'The card is closed already.',
  CARD_NOT_MUTABLE: 'A closed card cannot be changed.',
  CARD_LIMIT_REACHED: 'Close a card to free a slot, or raise the platform limit.',
  STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE:
    'This enablement state is driven by the operator; it cannot be requested.',
  CONFLICT:
    'It clashes with one that exists already (a customer with this platformCustomerId, a linked provider account, an ACTIVE delegated key for the card): fetch, reuse or revoke that one; the error details name it.',
  DOCUMENT_ALREADY_EXISTS: 'A document of this type exists for the holder; use `svc kyc documents upload --replace`.',
  DUPLICATE_EXTERNAL_ACCOUNT: 'This account is registered already; the existing account is shown in details.',
  DUPLICATE_PAY_REQUEST: 'This Idempotency-Key was used with a different body; use a new key for a new payment.',
  SMS_OTP_CREDENTIAL_SET_CHANGED: 'The credentials changed after the challenge was issued; re-run the command.',
  SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS: 'Another SMS_OTP credential uses this phone number.',
  STABLECOIN_SYMBOL_ALREADY_EXISTS: 'Choose another stablecoin symbol.',
  STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS: 'Choose another token identifier.',
  WALLET_NOT_PROVISIONED: 'The embedded wallet is still provisioning; retry shortly.',
  // 410, 422, 423, 424, 429, 500
  CUSTOMER_DELETED: 'This customer was deleted; list with --include-deleted to see it.',
  DOCUMENT_REJECTED: 'Upload a clearer image: all four corners visible, in focus, in colour.',
  ACCOUNT_LOCKED:
    'Too many failed SCA attempts; wait until the lock expires (details.lockedUntil), or recover the factor with `svc sca reset start`.',
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: 'The credential email could not be synced; nothing changed. Retry later.',
  DAILY_VOLUME_LIMIT_EXCEEDED:
    'The daily volume limit is reached; retry tomorrow or ask for a higher limit. Not retried automatically.',
  RATE_LIMITED: 'Too many requests; wait for Retry-After and try again.',
  SERVICE_SWITCH_ERROR: 'The Service failed upstream; retry later.',
  INTERNAL_ERROR: 'The Service failed; retry later, and report it with the request id if it persists.',
  // onboarding (local sandbox codes and svc's own)
  CONTACT_VERIFICATION_REQUIRED:
    'Verify every contact channel first: `svc kyc verify-email|verify-phone <id>`, then `confirm-email|confirm-phone --code`.',
  LINK_USED: 'Verification links are single use; issue a new one with `svc kyc link <customerId>`.',
  LINK_EXPIRED: 'Issue a new link with `svc kyc link <customerId>`.',
  KYC_REJECTED: 'The decision is final for this customer; see `svc kyc status` and contact compliance.',
  KYB_REJECTED: 'The decision is final for this business; see `svc kyc status` and contact compliance.',
  VERIFICATION_INCOMPLETE: 'Work down the checklist of `svc kyc status <customerId>`, then `svc kyc submit` again.',
  CLOCK_JOBS_PENDING:
    'Run `svc sandbox clock advance <duration>` past them first, or `svc sandbox clock reset --force` to reset anyway (they then wait out real time).',
  // client-side codes
  WALLET_SESSION_REQUIRED: 'Log in to the wallet first: `svc wallet login <InternalAccount>`.',
  WALLET_OPERATION_PROCESSING: 'Run the same command again: the service keeps settling the operation.',
  SIGNED_CHALLENGE_EXPIRED:
    'Run the command again for a fresh challenge; list credentials or sessions to see what settled.',
  LAST_CREDENTIAL: 'Add another credential first (`svc wallet credentials add`), then revoke this one.',
  KEYSTORE_LOCKED: 'Set SVC_KEYSTORE_PASSPHRASE, or run on a terminal to be prompted.',
  KEYSTORE_PASSPHRASE_WRONG: 'Check SVC_KEYSTORE_PASSPHRASE, or purge the key and log in again.',
  PASSKEY_CHALLENGE_REQUIRED: 'Run `svc wallet login` without --assertion first to get a challenge.',
  USAGE: 'See `svc <command> --help`.', // the base command names the real command
  NETWORK_ERROR: 'Check the base URL and your network; for the local sandbox run `svc sandbox serve --detach`.',
  TIMEOUT: 'Run the same command again to keep waiting.',
  OUTCOME_UNKNOWN:
    'The write may have been carried out: send it again with the same Idempotency-Key (`svc history finish <n>`), never without it.',
  HISTORY_NOT_FINISHABLE: 'Only a write whose outcome is unknown is finished: `svc history --unknown` lists them.',
  HISTORY_RECORD_NOT_FOUND: 'List the records with `svc history`.',
  RESPONSE_INVALID: 'The API answered with an unexpected shape; report it with --debug output.',
  // money movement (issue 4)
  USER_NOT_READY: 'The customer must be APPROVED before money moves: check `svc kyc status <customerId>`.',
  FUNDING_AMOUNT_MISMATCH: "Send exactly the quote's totalSendingAmount (or omit the amount to use it).",
  PAYMENT_FAILED: 'See failureReason in details; funds are returned to the source unless the refund failed too.',
  OWNERSHIP_NOT_VERIFIED: 'Start a new ownership challenge: `svc accounts external verify-ownership <id>`.',
  INVITATION_EXPIRED: 'This invitation expired; create a new one.',
  DELEGATED_KEY_NOT_ACTIVE: 'Only an ACTIVE delegated key can be revoked; see `svc wallet delegated-keys list`.',
  SCA_CODE_REQUIRED: 'Ask the customer for the SCA code and pass it with --code.',
}

/** Codes whose exit code differs from what their HTTP status alone gives. */
const EXIT_OVERRIDES: Readonly<Record<string, number>> = {
  // 400 by status, but a conflict with existing state for the operator (exit 6).
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: 6,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: 6,
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: 6,
  QUOTE_EXPIRED: 6,
  USER_NOT_READY: 6,
  // a bad wallet signature over an ownership challenge (400 in the published API) is an authentication failure
  INVALID_SIGNATURE: 4,
  INSUFFICIENT_FUNDS: 1,
  // 400 by status, but the invitation's state refuses it (exit 6)
  INVITATION_ALREADY_CLAIMED: 6,
  INVITATION_CANCELLED: 6,
  INVITATION_EXPIRED: 6,
  STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED: 6,
  STABLECOIN_NOT_PROVISIONED: 6,
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: 6,
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: 6,
  // 400 by status: input the operator must change (exit 2, like INVALID_INPUT)
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED: 2,
  STABLECOIN_AMOUNT_NOT_REPRESENTABLE: 2,
  DELEGATED_KEY_NOT_ACTIVE: 6,
}

/** A 401 about what a wallet login sent (OTP, passkey assertion, OIDC token, a signed-retry challenge), not the API credentials. */
const WALLET_PROOF = /\b(OTP|passkey|assertion|OIDC|challenge|Request \S+ was)\b/i
const WALLET_PROOF_HINT =
  'Check the OTP, passkey assertion or OIDC token you sent, or start the login again for a fresh challenge.'

/** `reason` (the API's own message) tells a 401 about the login proof from one about the API credentials. */
export function hintFor(code: string, reason?: string): string | undefined {
  if (code === 'UNAUTHORIZED' && reason && WALLET_PROOF.test(reason)) return WALLET_PROOF_HINT
  return ERROR_HINTS[code]
}

export function exitOverrideFor(code: string): number | undefined {
  return EXIT_OVERRIDES[code]
}
