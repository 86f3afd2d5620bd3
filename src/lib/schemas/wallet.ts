import * as z from 'zod'
import {idOf} from './common.js'

/**
 * Embedded-wallet auth shapes (spec 2.11, 4.6, 5.2-5.6; api-gaps 5), shared by the client and the
 * local sandbox. Request schemas are strict; response schemas are loose.
 */

export const CREDENTIAL_TYPES = ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'] as const
export const credentialType = z.enum(CREDENTIAL_TYPES)
export type CredentialType = z.infer<typeof credentialType>

/** Compressed SEC1 hex (recommended: the client keeps the key) or uncompressed (legacy: a sealed key comes back). */
export const clientPublicKey = z.string().regex(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, {
  message: 'must be a P-256 public key in SEC1 hex: compressed (02/03 + 64 hex) or uncompressed (04 + 128 hex)',
})

/** Export keys must be uncompressed (api-gaps 5.6). */
export const exportPublicKey = z
  .string()
  .regex(/^04[0-9a-fA-F]{128}$/, {message: 'must be an uncompressed P-256 public key (04 + 128 hex characters)'})

export const base64url = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, {message: 'must be base64url text'})

/** Three base64url parts; the sandbox does not check the signature part, which may be empty. */
export const oidcToken = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, {
    message: 'must be a JWT (three base64url parts separated by dots)',
  })

export const passkeyNickname = z
  .string()
  .regex(/^[A-Za-z0-9 ._'()-]{1,100}$/, {message: "must be 1-100 characters: letters, digits, spaces and . _ - ' ( )"})

export const internalAccountId = idOf('InternalAccount')
export const authMethodId = idOf('AuthMethod')
export const sessionId = idOf('Session')
export const requestIdValue = z
  .string()
  .regex(/^Request:[A-Za-z0-9_-]{1,128}$/, {message: 'must be a Request id (Request:<uuid>)'})

// ------------------------------------------------------------------ requests

export const passkeyAttestation = z.strictObject({
  credentialId: base64url,
  clientDataJson: base64url,
  attestationObject: base64url,
  transports: z.array(z.enum(['usb', 'nfc', 'ble', 'internal', 'hybrid'])).optional(),
})

/** POST /auth/credentials, one body per type (api-gaps 5.2). */
export const credentialCreateRequest = z.discriminatedUnion('type', [
  z.strictObject({type: z.literal('EMAIL_OTP'), accountId: internalAccountId}),
  z.strictObject({type: z.literal('SMS_OTP'), accountId: internalAccountId}),
  z.strictObject({type: z.literal('OAUTH'), accountId: internalAccountId, oidcToken}),
  z.strictObject({
    type: z.literal('PASSKEY'),
    accountId: internalAccountId,
    nickname: passkeyNickname,
    challenge: base64url,
    attestation: passkeyAttestation,
  }),
])
export type CredentialCreateRequest = z.infer<typeof credentialCreateRequest>

export const passkeyAssertion = z.strictObject({
  credentialId: base64url,
  clientDataJson: base64url,
  authenticatorData: base64url,
  signature: z.string().min(1),
  userHandle: base64url.optional(),
})

/** POST /auth/credentials/{id}/verify, one body per type (api-gaps 5.3). */
export const credentialVerifyRequest = z.discriminatedUnion('type', [
  z.strictObject({type: z.literal('EMAIL_OTP'), encryptedOtpBundle: z.string().min(1).max(8192)}),
  z.strictObject({type: z.literal('SMS_OTP'), encryptedOtpBundle: z.string().min(1).max(8192)}),
  z.strictObject({type: z.literal('OAUTH'), oidcToken, clientPublicKey}),
  z.strictObject({type: z.literal('PASSKEY'), assertion: passkeyAssertion}),
])
export type CredentialVerifyRequest = z.infer<typeof credentialVerifyRequest>

/** POST /auth/credentials/{id}/challenge: `clientPublicKey` is required for PASSKEY only. */
export const credentialChallengeRequest = z.strictObject({clientPublicKey: clientPublicKey.optional()})

/** POST /auth/sessions/{id}/refresh: the same key on both legs. */
export const sessionRefreshRequest = z.strictObject({clientPublicKey})

/** POST /internal-accounts/{id}/export: the same key on both legs. */
export const walletExportRequest = z.strictObject({clientPublicKey: exportPublicKey})

/** PATCH /internal-accounts/{id} (signed retry for EMBEDDED_WALLET accounts). */
export const internalAccountPatchRequest = z.strictObject({privateEnabled: z.boolean()})

/** GET /auth/credentials and GET /auth/sessions. */
export const accountIdQuery = z.strictObject({accountId: internalAccountId})

// ------------------------------------------------------------------ responses

/** 202 of every signed-retry endpoint: stamp `payloadToSign` byte for byte, then retry with Request-Id. */
export const signedRequestChallenge = z.looseObject({
  payloadToSign: z.string(),
  requestId: z.string(),
  expiresAt: z.string(),
})
export type SignedRequestChallenge = z.infer<typeof signedRequestChallenge>

/** Credential add/delete, session delete and OTP verify add the credential type. */
export const authSignedRequestChallenge = signedRequestChallenge.extend({type: credentialType})

/** 200 of a signed retry that the wallet provider accepted but has not settled (spec 5.4). */
export const walletOperationProcessing = z.looseObject({
  status: z.literal('PROCESSING'),
  message: z.string().optional(),
})

export function isProcessing(body: unknown): boolean {
  return walletOperationProcessing.safeParse(body).success
}

export const authMethod = z.looseObject({
  id: z.string(),
  accountId: z.string(),
  type: credentialType,
  /** PASSKEY only: the WebAuthn credential id (base64url). */
  credentialId: z.string().optional(),
  nickname: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** OTP-issuing answers only: the signed enclave envelope to HPKE-encrypt the OTP to. */
  otpEncryptionTargetBundle: z.string().optional(),
})
export type AuthMethod = z.infer<typeof authMethod>

/** PASSKEY /challenge answer; `challenge` is lowercase hex: UTF-8 encode it for WebAuthn, do not decode it. */
export const passkeyAuthChallenge = authMethod.extend({
  credentialId: z.string(),
  challenge: z.string(),
  requestId: z.string(),
  expiresAt: z.string(),
})

export const authSession = z.looseObject({
  id: z.string(),
  accountId: z.string(),
  type: credentialType,
  /** The AuthMethod that produced the session. */
  credentialId: z.string().optional(),
  nickname: z.string(),
  /** Local sandbox extra: the compressed session public key that stamps must carry. */
  publicKey: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
  /** Legacy (uncompressed clientPublicKey) only: base58check credential bundle holding the session key. */
  encryptedSessionSigningKey: z.string().optional(),
})
export type AuthSession = z.infer<typeof authSession>

export const authMethodList = z.looseObject({data: z.array(authMethod)})
export const authSessionList = z.looseObject({data: z.array(authSession)})

export const walletExportResponse = z.looseObject({id: z.string(), encryptedWalletCredentials: z.string()})

/** GET /sandbox/quorum-public-key (local sandbox): the key that signs target bundles and export envelopes. */
export const quorumPublicKeyResponse = z.looseObject({publicKey: z.string().regex(/^04[0-9a-f]{128}$/)})

/**
 * What the local sandbox puts in `payloadToSign` (a JSON text; stamp it as received, never re-serialise).
 * Exposed so a client can show the operator what is being authorised.
 */
export const signedPayloadContent = z.looseObject({
  operation: z.string(),
  method: z.string(),
  path: z.string(),
  resourceId: z.string(),
  requestId: z.string(),
  bodySha256: z.string(),
  expiresAt: z.string(),
})

/** Data of the `wallet_operation.completed` event (api-gaps 11). */
export const walletOperationEvent = z.looseObject({
  operationId: z.string(),
  requestId: z.string(),
  operationType: z.string(),
  resourceType: z.string(),
  resourceId: z.string(),
  status: z.enum(['completed', 'failed']),
  error: z.looseObject({code: z.string()}).optional(),
})

/** Signed-retry request headers. */
export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature'
export const REQUEST_ID_HEADER = 'Request-Id'
