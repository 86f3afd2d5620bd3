import {z} from 'zod'

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
  /** Embedded wallets: provision an EMBEDDED_WALLET account (+ seed, + EMAIL_OTP) with each customer. */
  embeddedWallets: z.boolean().optional(),
  /** Lifetime of signed-retry challenges (202 expiresAt), in seconds. */
  signedChallengeTtlSeconds: z.number().int().min(1).max(86_400).optional(),
  /** Lifetime of embedded-wallet sessions, in seconds. */
  sessionTtlSeconds: z.number().int().min(1).max(30 * 86_400).optional(),
  /** The next N signed-retry second legs answer 200 {status: PROCESSING} (counts down as used). */
  walletProcessingCount: z.number().int().min(0).max(1000).optional(),
  /** Probability (0..1) that a signed-retry second leg answers PROCESSING. */
  walletProcessingRate: z.number().min(0).max(1).optional(),
  /** How long a PROCESSING wallet operation takes to settle, in ms. */
  walletProcessingDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Minimum gap between challenge re-issues on one credential (429 RATE_LIMITED below it), in ms. */
  challengeMinIntervalMs: z.number().int().min(0).max(3_600_000).optional(),
  /** WebAuthn origins accepted in passkey clientDataJSON. */
  passkeyOrigins: z.array(z.url({protocol: /^https?$/})).min(1).max(20).optional(),
})

const feeConfig = z.strictObject({
  feeType: z.literal('CROSS_CURRENCY_TRANSACTION'),
  sourceCurrency: z.string().regex(/^[A-Z]{3,5}$/),
  variableFeeBps: z.number().int().min(0).max(10000),
  fixedFee: z.strictObject({amount: z.number().int().min(0), currency: z.string().regex(/^[A-Z]{3,5}$/)}),
})

export const platformConfigPatch = z.strictObject({
  webhookEndpoint: z.url({protocol: /^https?$/}).nullable().optional(),
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
  feeConfigs: z.array(feeConfig).optional(),
  sandbox: sandboxSettingsPatch.optional(),
})
export type PlatformConfigPatch = z.infer<typeof platformConfigPatch>

export const platformConfigSchema = z.looseObject({
  id: z.string(),
  webhookEndpoint: z.string().nullable().optional(),
  isRegulatedFinancialInstitution: z.boolean().optional(),
  feeConfigs: z.array(z.looseObject({})).optional(),
})
