import * as z from 'zod'
import {cardTokenization2faPatch, supportedCurrenciesPatch} from './config-patchable.js'
import {faultSettingsPatch} from './faults.js'

/**
 * Local-sandbox-only settings, patched with `PATCH /config {sandbox: {...}}`. Each feature area adds
 * its knobs here; defaults live in emulator/settings.ts.
 */
export const sandboxSettingsPatch = z.strictObject({
  /** Spec 4.2 rule 8: terminal suffixes resolve with no documents. */
  skipVerificationPaperwork: z.boolean().optional(),
  /** Delay before a KYC/KYB decision lands, in ms. */
  decisionDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Base delay of webhook delivery retries, in ms (doubles each attempt). */
  webhookRetryBaseMs: z.number().int().min(10).max(3_600_000).optional(),
  /** Accept the legacy literal `sandbox-valid-signature` for signed wallet actions (off by default). */
  legacySignatures: z.boolean().optional(),
  // Money movement (quotes, payouts, ledger): see emulator/domain/quotes.ts and transactions.ts.
  /** Quote lifetime in ms (spec 8: typically 1-5 minutes). */
  quoteTtlMs: z.number().int().min(100).max(3_600_000).optional(),
  /** Delay before an executed or funded payment settles, in ms ("instant" in the Service sandbox). */
  paymentCompletionDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Pause between the chunks of a bulk customer import (each chunk is one unit of work). */
  bulkImportChunkDelayMs: z.number().int().min(0).max(60_000).optional(),
  /** How long an incoming UMA payment from a sandbox sender waits for the platform's decision before the sandbox approves it. */
  incomingApprovalDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Suffix 003 (slow payment) completes after this many ms (~6 minutes in the Service sandbox). */
  slowPaymentDelayMs: z.number().int().min(0).max(86_400_000).optional(),
  /** Suffix 005 on banks: completed, then returned after this many ms. */
  paymentReturnDelayMs: z.number().int().min(0).max(86_400_000).optional(),
  /** Suffix 005 on wallets and transfers: pending, then failed after this many ms (~30 s). */
  paymentTimeoutFailMs: z.number().int().min(0).max(86_400_000).optional(),
  /**
   * The Service's own timings win over the delay settings: the 2 s KYC decision, the ~6 min slow
   * payment, the 30 s timeouts (emulator/settings.ts SPEC_DELAYS). Meant with a frozen clock that
   * tests advance (`svc sandbox clock advance 6m`) instead of shortening the delays.
   */
  realDelays: z.boolean().optional(),
  /** LIVENESS checks finish this many ms after the user completes the hosted page. */
  livenessDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** WALLET_SIGNATURE / LIVENESS challenge lifetime in ms. */
  ownershipChallengeTtlMs: z.number().int().min(100).max(86_400_000).optional(),
  /** New US bank accounts stay under validation (409 BANK_ACCOUNT_VALIDATION_PENDING) this long; 0 = instant. */
  bankValidationMs: z.number().int().min(0).max(604_800_000).optional(),
  /** How long a rate snapshot is reused (spec 8: about 5 minutes). */
  rateCacheMs: z.number().int().min(0).max(86_400_000).optional(),
  /** Units of each currency per 1 USD, as decimal strings (merged over the defaults). */
  exchangeRates: z
    .record(
      z.string().regex(/^[A-Z]{3,5}$/),
      z
        .string()
        .regex(/^\d+(\.\d{1,12})?$/)
        .refine((v) => /[1-9]/.test(v), {message: 'must be greater than 0'})
        // Past a billion units per dollar, ordinary amounts convert to more smallest units than a number holds exactly.
        .refine((v) => v.split('.')[0].replace(/^0+/, '').length <= 10 && Number(v) <= 1e9, {
          message: 'must be at most 1000000000 units per USD',
        }),
    )
    .optional(),
  /** Service fee: basis points on cross-currency sends. */
  crossCurrencyFeeBps: z.number().int().min(0).max(10000).optional(),
  /** Service fee: fixed fee per rail in US cents (converted to the sending currency); `DEFAULT` for unnamed rails. */
  railFeesUsdCents: z.record(z.string(), z.number().int().min(0).max(1_000_000)).optional(),
  /** Maximum single transaction in minor units of the sending currency, by `SRC-DST` corridor or `SRC`. */
  transactionSizeLimits: z
    .record(z.string().regex(/^[A-Z]{3,5}(-[A-Z]{3,5})?$/), z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
    .optional(),
  /** Platform-wide executed volume per UTC day, in US cents (429 DAILY_VOLUME_LIMIT_EXCEEDED above it). */
  dailyVolumeLimitUsdCents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Destinations pending ownership verification are usable up to this many US cents. */
  ownershipVerificationThresholdUsdCents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Embedded wallets: provision an EMBEDDED_WALLET account (+ seed, + EMAIL_OTP) with each customer. */
  embeddedWallets: z.boolean().optional(),
  /** Lifetime of signed-retry challenges (202 expiresAt), in seconds. */
  signedChallengeTtlSeconds: z.number().int().min(1).max(86_400).optional(),
  /** Lifetime of embedded-wallet sessions, in seconds. */
  sessionTtlSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .optional(),
  /** The next N signed-retry second legs answer 200 {status: PROCESSING} (counts down as used). */
  walletProcessingCount: z.number().int().min(0).max(1000).optional(),
  /** Probability (0..1) that a signed-retry second leg answers PROCESSING. */
  walletProcessingRate: z.number().min(0).max(1).optional(),
  /** How long a PROCESSING wallet operation takes to settle, in ms. */
  walletProcessingDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Minimum gap between challenge re-issues on one credential (429 RATE_LIMITED below it), in ms. */
  challengeMinIntervalMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Invitations are configured for the platform (false: every /invitations call is 400 INVITATIONS_NOT_CONFIGURED). */
  invitationsEnabled: z.boolean().optional(),
  /** Delay before a stablecoin mint or burn settles (COMPLETED), in ms. */
  stablecoinSettlementDelayMs: z.number().int().min(0).max(86_400_000).optional(),
  /** WebAuthn origins accepted in passkey clientDataJSON. */
  passkeyOrigins: z
    .array(z.url({protocol: /^https?$/}))
    .min(1)
    .max(20)
    .optional(),
  // Cards: see emulator/domain/cards.ts and card-transactions.ts.
  /** A new card leaves PROCESSING (ACTIVE, or CLOSED for issuance suffix 002) after this many ms; also the background delay of an authorization expiry. */
  cardProcessingDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Issuance suffix 005 and descriptor suffix 005 (delayed pull) take this many ms (~30 s in the Service sandbox). */
  cardSlowDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Live (not CLOSED) cards one cardholder may hold (409 CARD_LIMIT_REACHED above it). */
  liveCardsPerCardholder: z.number().int().min(1).max(1000).optional(),
  /** Fault injection: 503s, 429s with Retry-After, connection resets, latency (see emulator/faults.ts). */
  faults: faultSettingsPatch.optional(),
  // Strong customer authentication (emulator/domain/sca.ts).
  /** The platform requires SCA: every customer needs an SCA login session to quote and execute (off: SCA endpoints answer 409). */
  scaRequired: z.boolean().optional(),
  /** Lifetime of a quote's SCA challenge, in ms; past it the transaction fails with SCA_NOT_COMPLETED. */
  scaChallengeTtlMs: z.number().int().min(100).max(3_600_000).optional(),
  /** Failed SCA proofs in a row before the account locks (423 ACCOUNT_LOCKED). */
  scaMaxFailedAttempts: z.number().int().min(1).max(100).optional(),
  /** How long an SCA lock lasts, in ms. */
  scaLockMs: z.number().int().min(1000).max(86_400_000).optional(),
  /** Lifetime of an agent device code, in ms. */
  agentDeviceCodeTtlMs: z.number().int().min(1000).max(86_400_000).optional(),
})
export type SandboxSettingsPatch = z.infer<typeof sandboxSettingsPatch>

const feeConfig = z.strictObject({
  feeType: z.literal('CROSS_CURRENCY_TRANSACTION'),
  // Spec 4.4 / 8: platform fee settings require a USD source currency.
  sourceCurrency: z.literal('USD', {message: 'must be USD: platform fees require a USD source currency'}),
  variableFeeBps: z.number().int().min(0).max(10000),
  fixedFee: z.strictObject({
    amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    currency: z.string().regex(/^[A-Z]{3,5}$/),
  }),
})

export const platformConfigPatch = z.strictObject({
  /** An http(s) URL; "" removes the endpoint (the contract's type is string; null is still accepted). */
  webhookEndpoint: z
    .union([z.url({protocol: /^https?$/}), z.literal('')])
    .nullable()
    .optional(),
  umaDomain: z.string().min(1).max(253).optional(),
  isRegulatedFinancialInstitution: z.boolean().optional(),
  embeddedWalletConfig: z
    .strictObject({
      appName: z.string().max(255).optional(),
      otpLength: z.number().int().min(4).max(12).optional(),
      alphanumeric: z.boolean().optional(),
      expirationSeconds: z.number().int().min(1).max(86400).optional(),
      sendFromEmailAddress: z.email().optional(),
      sendFromEmailSenderName: z.string().max(255).optional(),
      replyToEmailAddress: z.email().optional(),
      logoUrl: z.url().optional(),
    })
    .optional(),
  supportedCurrencies: supportedCurrenciesPatch.optional(),
  cardTokenization2faConfig: cardTokenization2faPatch.optional(),
  feeConfigs: z.array(feeConfig).optional(),
  sandbox: sandboxSettingsPatch.optional(),
})
export type PlatformConfigPatch = z.infer<typeof platformConfigPatch>

export const platformConfigSchema = z.looseObject({
  id: z.string().optional(),
  webhookEndpoint: z.string().nullable().optional(),
  isRegulatedFinancialInstitution: z.boolean().optional(),
  feeConfigs: z.array(z.looseObject({})).optional(),
})
