import type {z} from 'zod'
import type {sandboxSettingsPatch} from '../lib/schemas/config.js'
import {NO_FAULTS} from '../lib/schemas/faults.js'
import type {CardTokenization2faPatch} from '../lib/schemas/config-patchable.js'

export type SandboxSettings = Required<z.infer<typeof sandboxSettingsPatch>>

export const DEFAULT_SETTINGS: SandboxSettings = {
  skipVerificationPaperwork: false,
  decisionDelayMs: 2000,
  webhookRetryBaseMs: 1000,
  legacySignatures: false,
  quoteTtlMs: 120_000,
  paymentCompletionDelayMs: 500,
  bulkImportChunkDelayMs: 20,
  incomingApprovalDelayMs: 2_000,
  slowPaymentDelayMs: 360_000,
  paymentReturnDelayMs: 5_000,
  paymentTimeoutFailMs: 30_000,
  livenessDelayMs: 2_000,
  ownershipChallengeTtlMs: 600_000,
  bankValidationMs: 0,
  rateCacheMs: 300_000,
  exchangeRates: {},
  crossCurrencyFeeBps: 30,
  railFeesUsdCents: {ACH: 25, ACH_SAME_DAY: 150, WIRE: 1500, DEFAULT: 50},
  transactionSizeLimits: {USD: 100_000_000, EUR: 100_000_000, USDC: 1_000_000_000_000, USDT: 1_000_000_000_000},
  dailyVolumeLimitUsdCents: 5_000_000_000,
  ownershipVerificationThresholdUsdCents: 100_000,
  embeddedWallets: true,
  signedChallengeTtlSeconds: 300,
  sessionTtlSeconds: 900,
  walletProcessingCount: 0,
  walletProcessingRate: 0,
  walletProcessingDelayMs: 300,
  challengeMinIntervalMs: 2000,
  passkeyOrigins: ['http://localhost', 'https://localhost'],
  cardProcessingDelayMs: 200,
  cardSlowDelayMs: 30_000,
  liveCardsPerCardholder: 1,
  faults: NO_FAULTS,
  invitationsEnabled: true,
  stablecoinSettlementDelayMs: 500,
  scaRequired: false,
  scaChallengeTtlMs: 300_000,
  scaMaxFailedAttempts: 5,
  scaLockMs: 900_000,
  agentDeviceCodeTtlMs: 900_000,
  realDelays: false,
}

/**
 * The Service's own timings (sandbox-behaviour.md §17, spec 4.2): what `realDelays` puts in place of
 * the delay settings, however short a test or flow set them.
 */
export const SPEC_DELAYS = {
  decisionDelayMs: 2_000,
  slowPaymentDelayMs: 360_000,
  paymentTimeoutFailMs: 30_000,
  cardSlowDelayMs: 30_000,
} as const satisfies Partial<SandboxSettings>

/** The settings rules read: the stored ones, with the spec's delays when `realDelays` is on. */
export function effectiveSettings(stored: SandboxSettings): SandboxSettings {
  return stored.realDelays ? {...stored, ...SPEC_DELAYS} : stored
}

export interface PlatformConfig {
  id: string
  umaDomain: string
  webhookEndpoint: string | null
  isRegulatedFinancialInstitution: boolean
  embeddedWalletConfig: Record<string, unknown>
  /** Set with PATCH /config (replaced whole); absent until then. */
  supportedCurrencies?: Array<Record<string, unknown>>
  cardTokenization2faConfig?: CardTokenization2faPatch
  feeConfigs: Array<{
    feeType: string
    sourceCurrency: string
    variableFeeBps: number
    fixedFee: {amount: number; currency: string}
  }>
  sandbox: SandboxSettings
  createdAt: string
  updatedAt: string
}

export function defaultConfig(nowIso: string, overrides: Partial<SandboxSettings> = {}): PlatformConfig {
  return {
    id: 'PlatformConfig:local',
    umaDomain: 'sandbox.uma.local',
    webhookEndpoint: null,
    isRegulatedFinancialInstitution: false,
    embeddedWalletConfig: {
      appName: 'svc local sandbox',
      otpLength: 6,
      alphanumeric: false,
      expirationSeconds: 300,
      sendFromEmailSenderName: 'Notifications',
    },
    feeConfigs: [],
    sandbox: {...DEFAULT_SETTINGS, ...overrides},
    createdAt: nowIso,
    updatedAt: nowIso,
  }
}
