import {conflict} from '../../http-error.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import type {StoredCustomer} from '../customers.js'
import {signedRetry} from './signed-retry.js'
import {customerWallets, putCredential} from './state.js'
import {credentialsByContact, credentialsOfAccount} from '../../store/wallet.js'

/**
 * PATCH /customers/{id} changing an email tied to an EMAIL_OTP credential (or a phone tied to an
 * SMS_OTP) is a signed retry by a session of one of the customer's wallets (spec 4.2, api-gaps
 * 1.7); the customer and the credential change together. `apply` performs the ordinary update and
 * answers 200; without a tied credential it runs directly.
 */
export function walletContactChange(
  req: EmuRequest,
  existing: StoredCustomer,
  patch: {email?: string; phoneNumber?: string},
  apply: () => EmuResponse,
): EmuResponse | Promise<EmuResponse> {
  const ctx = req.ctx
  const channel =
    patch.email !== undefined && patch.email !== existing.email
      ? {type: 'EMAIL_OTP' as const, value: patch.email, prefix: 'EMAIL_OTP', taken: 'EMAIL_OTP_EMAIL_ALREADY_EXISTS'}
      : patch.phoneNumber !== undefined && patch.phoneNumber !== existing.phoneNumber
        ? {
            type: 'SMS_OTP' as const,
            value: patch.phoneNumber,
            prefix: 'SMS_OTP',
            taken: 'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS',
          }
        : undefined
  if (!channel) return apply()
  const walletIds = customerWallets(ctx, existing.id).map((a) => a.id)
  const credentials = () => walletIds.flatMap((id) => credentialsOfAccount(ctx.db, id))
  const tied = () => credentials().filter((c) => c.type === channel.type)
  if (tied().length === 0) return apply()
  // The whole credential set of the customer's wallets, as the challenge saw it.
  const snapshot = () =>
    credentials()
      .map((c) => c.id)
      .sort()
      .join(',')
  const checkTaken = () => {
    const mine = new Set(tied().map((c) => c.id))
    if (credentialsByContact(ctx.db, channel.type, channel.value).some((c) => !mine.has(c.id))) {
      throw conflict(channel.taken, `Another ${channel.type} credential already uses ${channel.value}`)
    }
  }
  return signedRetry(
    req,
    () => {
      checkTaken()
      return {
        operation: 'customer.update',
        resourceType: 'CUSTOMER',
        resourceId: existing.id,
        signer: {kind: 'account', accountIds: walletIds},
        context: {credentialSet: snapshot()},
      }
    },
    (pending) => {
      if (snapshot() !== pending.context.credentialSet) {
        throw conflict(
          `${channel.prefix}_CREDENTIAL_SET_CHANGED`,
          `The credentials of ${existing.id}'s wallet changed after the challenge was issued; start the update again`,
        )
      }
      checkTaken()
      const result = apply()
      if (result.status === 200) {
        for (const c of tied()) putCredential(ctx, {...c, nickname: channel.value, updatedAt: ctx.iso()})
      }
      return result
    },
  )
}
