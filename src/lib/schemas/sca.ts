import * as z from 'zod'

/**
 * Strong customer authentication (api-gaps 4.3, sandbox-behaviour 15): factor enrolment, login
 * sessions of 180 days, quote authorization. Shared by the client and the local sandbox.
 */
export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const
export const scaFactor = z.enum(SCA_FACTORS)

/** One-time SCA codes are six digits (the sandbox code is 123456). */
export const scaCode = z.string().regex(/^\d{6}$/, {message: 'must be the 6-digit code'})

export const scaEnrolRequest = z.discriminatedUnion('type', [
  z.strictObject({type: z.literal('TOTP')}),
  z.strictObject({type: z.literal('PASSKEY')}),
])

export const scaConfirmRequest = z.discriminatedUnion('type', [
  z.strictObject({type: z.literal('TOTP'), secret: z.string().min(16).max(128), code: scaCode}),
  z.strictObject({
    type: z.literal('PASSKEY'),
    origin: z.url({protocol: /^https?$/}),
    credential: z.looseObject({id: z.string().min(1).max(1024)}),
  }),
])

export const scaLoginStartRequest = z.strictObject({factor: scaFactor})

export const scaLoginCompleteRequest = z.strictObject({
  factor: scaFactor,
  endUserIpAddress: z.union([z.ipv4(), z.ipv6()], {message: 'must be an IPv4 or IPv6 address'}),
  challengeId: z.string().min(1).max(200).nullable().optional(),
  code: scaCode.nullable().optional(),
  passkeyAssertion: z.looseObject({}).nullable().optional(),
  origin: z.string().max(200).nullable().optional(),
})

export const SECURITY_EVENTS = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const
export const recordEventRequest = z.strictObject({eventType: z.enum(SECURITY_EVENTS)})

export const resetStartRequest = z.strictObject({factor: scaFactor})
export const resetCompleteRequest = z.strictObject({
  mobile: z
    .strictObject({countryCode: z.string().regex(/^\+?\d{1,4}$/), number: z.string().regex(/^\d{4,15}$/)})
    .optional(),
})

export const scaAuthorization = z.strictObject({
  code: scaCode.nullable().optional(),
  passkeyAssertion: z.looseObject({}).nullable().optional(),
  origin: z.string().max(200).nullable().optional(),
  endUserIpAddress: z.union([z.ipv4(), z.ipv6()], {message: 'must be an IPv4 or IPv6 address'}).nullable().optional(),
})

/** POST /customers/external-accounts/{id}/trust/confirm (and untrust): the SCA proof, with the start's challenge. */
export const trustConfirmRequest = scaAuthorization.extend({
  challengeId: z.string().min(1).max(200).nullable().optional(),
})

// Answers (loose: the client tolerates fields it does not know).
export const scaFactorView = z.looseObject({
  factor: scaFactor,
  credentialId: z.string().optional(),
  name: z.string().optional(),
})
export const scaFactorList = z.looseObject({factors: z.array(scaFactorView)})
export const scaLoginStart = z.looseObject({
  factor: scaFactor,
  challengeId: z.string().nullable().optional(),
  expiresAt: z.string().nullable().optional(),
})
export const scaLoginComplete = z.looseObject({status: z.string(), sessionExpiresAt: z.string().nullable().optional()})
export const securityState = z.looseObject({
  eventType: z.string(),
  suspended: z.boolean(),
  lockedUntil: z.string().nullable().optional(),
  failedAttempts: z.number().int(),
})
export const resetStart = z.looseObject({
  resetId: z.string(),
  verificationLink: z.string().nullable().optional(),
  expiresAt: z.string().nullable().optional(),
})
export const resetStatus = z.looseObject({status: z.string(), factor: scaFactor, expiresAt: z.string()})
