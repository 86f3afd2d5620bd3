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
