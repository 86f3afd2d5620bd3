import {InputError, type FieldError} from '../errors.js'
import {checkId} from '../flags.js'
import {fieldErrors} from '../schemas/field-errors.js'
import {UMA_ADDRESS, receiverLookupQuery} from '../schemas/uma.js'
import {compact} from '../validate.js'

/**
 * The receiver (an UMA address or ExternalAccount:<id>) and who pays (--customer or --sender),
 * every problem named at once before any request (exit 2).
 */
export function receiverLookupInput(receiverArg: string, f: {customer?: string; sender?: string}) {
  const receiver = receiverArg.trim()
  const errors: FieldError[] = []
  if (receiver.startsWith('ExternalAccount:')) {
    try {
      checkId(receiver, ['ExternalAccount'], 'receiver')
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      errors.push(...e.fieldErrors)
    }
  } else if (!UMA_ADDRESS.test(receiver))
    errors.push({
      field: 'receiver',
      message: `"${receiver}" is neither an UMA address ($name@domain) nor an ExternalAccount id`,
    })
  const sender = receiverLookupQuery.safeParse(compact({customerId: f.customer, senderUmaAddress: f.sender}))
  if (!sender.success) errors.push(...fieldErrors(sender.error))
  if (errors.length || !sender.success) throw new InputError(errors)
  return {receiver, sender: sender.data}
}
