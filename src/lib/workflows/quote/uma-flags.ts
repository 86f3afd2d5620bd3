// The UMA flags' checks that need no request; the look-up itself is uma.ts, loaded only for --to-uma.
import type {FieldError} from '../../errors.js'
import {UMA_ADDRESS} from '../../schemas/uma-address.js'

export interface UmaFlags {
  'to-uma'?: string
  'to-currency'?: string
  'payer-info'?: string[]
  'lookup-id'?: string
  from?: string
  customer?: string
}

/** Checks that need no request: the address format and the --payer-info syntax. */
export function umaFlagProblems(f: UmaFlags): FieldError[] {
  const errors: FieldError[] = []
  const address = f['to-uma']
  if (address === undefined) {
    if (f['to-currency'] !== undefined || f['payer-info']?.length || f['lookup-id'] !== undefined)
      errors.push({
        field: 'destination.umaAddress',
        message: '--to-currency, --payer-info and --lookup-id go with --to-uma <$name@domain>',
      })
    return errors
  }
  if (!UMA_ADDRESS.test(address.trim()))
    errors.push({field: 'destination.umaAddress', message: `"${address}" is not an UMA address ($name@domain)`})
  if (f['to-currency'] !== undefined && !/^[A-Z]{3,5}$/.test(f['to-currency']))
    errors.push({
      field: 'destination.currency',
      message: `--to-currency "${f['to-currency']}" must be a currency code (EUR, MXN ...)`,
    })
  for (const pair of f['payer-info'] ?? []) {
    if (!/^[A-Z_]+=.+$/s.test(pair))
      errors.push({
        field: 'senderCustomerInfo',
        message: `--payer-info "${pair}" must be NAME=value (FULL_NAME=Ada Lovelace)`,
      })
  }
  return errors
}
