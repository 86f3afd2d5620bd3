import * as z from 'zod'
import {dateTime, minorAmount} from './common.js'

/** UMA invitations (openapi UmaInvitation*). */
export const umaAddress = z
  .string()
  .regex(/^\$[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,}$/i, {message: 'must be an UMA address ($user@domain)'})

export const invitationCreateRequest = z.strictObject({
  inviterUma: umaAddress,
  firstName: z.string().trim().min(1).max(100).optional(),
  amountToSend: minorAmount.positive().optional(),
  expiresAt: dateTime.optional(),
})
export type InvitationCreateRequest = z.infer<typeof invitationCreateRequest>

export const invitationClaimRequest = z.strictObject({inviteeUma: umaAddress})

/** Codes are short and URL-safe; checked before any request. */
export const invitationCode = z
  .string()
  .regex(/^[A-Za-z0-9_-]{4,64}$/, {message: 'must be an invitation code (4-64 letters, digits, _ -)'})

export const INVITATION_STATUSES = ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const

export const invitation = z.looseObject({
  code: z.string(),
  createdAt: z.string(),
  url: z.string(),
  inviterUma: z.string(),
  status: z.string(),
  claimedAt: z.string().optional(),
  inviteeUma: z.string().optional(),
  expiresAt: z.string().optional(),
  firstName: z.string().optional(),
})
export type Invitation = z.infer<typeof invitation>
