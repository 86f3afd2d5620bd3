import type {z} from 'zod'
import {beforeAll, describe, expect, it} from 'vitest'
import {authMethodSchema, authSessionSchema, exportResponseSchema} from '../../../src/lib/api/wallet.js'
import {
  externalAccountSchema,
  internalAccountSchema,
  ownershipChallengeSchema,
} from '../../../src/lib/schemas/accounts.js'
import {pagedList} from '../../../src/lib/schemas/common.js'
import {platformConfigSchema} from '../../../src/lib/schemas/config.js'
import {customerSchema, endUserTermsSchema} from '../../../src/lib/schemas/customer.js'
import {beneficialOwnerSchema, documentSchema, kycLinkSchema, verificationSchema} from '../../../src/lib/schemas/kyc.js'
import {quoteSchema} from '../../../src/lib/schemas/quotes.js'
import {transactionSchema} from '../../../src/lib/schemas/transactions.js'
import {authMethodList, authSessionList} from '../../../src/lib/schemas/wallet.js'
import {fieldErrors} from '../../../src/lib/schemas/field-errors.js'
import {Contract} from '../../helpers/contract.js'
import {sample, variantCount} from '../../helpers/contract-samples.js'

/**
 * The CLI's response schemas must accept everything the contract allows, not only what our sandbox
 * sends: for every operation the CLI reads an answer of, instances of the contract's 2xx response
 * schema (every oneOf/discriminator branch, every optional field present and absent) that the
 * contract itself accepts must pass the CLI's zod schema.
 */
const CLI_READS: Array<[operation: string, schema: z.ZodType, statuses?: number[]]> = [
  ['POST /customers', customerSchema],
  ['GET /customers', pagedList(customerSchema)],
  ['GET /customers/{customerId}', customerSchema],
  ['PATCH /customers/{customerId}', customerSchema, [200]],
  ['GET /customers/end-user-terms', endUserTermsSchema],
  ['POST /customers/{customerId}/kyc-link', kycLinkSchema],
  ['POST /beneficial-owners', beneficialOwnerSchema],
  ['GET /beneficial-owners', pagedList(beneficialOwnerSchema)],
  ['POST /documents', documentSchema],
  ['PUT /documents/{documentId}', documentSchema],
  ['GET /documents', pagedList(documentSchema)],
  ['POST /verifications', verificationSchema],
  ['GET /verifications', pagedList(verificationSchema)],
  ['GET /customers/internal-accounts', pagedList(internalAccountSchema)],
  ['POST /customers/external-accounts', externalAccountSchema],
  ['GET /customers/external-accounts', pagedList(externalAccountSchema)],
  ['GET /customers/external-accounts/{externalAccountId}', externalAccountSchema],
  ['POST /customers/external-accounts/{externalAccountId}/challenge', ownershipChallengeSchema],
  ['POST /customers/external-accounts/{externalAccountId}/verify', externalAccountSchema],
  ['POST /sandbox/internal-accounts/{accountId}/fund', internalAccountSchema],
  ['POST /quotes', quoteSchema],
  ['GET /quotes/{quoteId}', quoteSchema],
  ['POST /quotes/{quoteId}/execute', quoteSchema],
  ['POST /sandbox/send', transactionSchema],
  ['POST /transfer-in', transactionSchema],
  ['POST /transfer-out', transactionSchema],
  ['GET /transactions', pagedList(transactionSchema)],
  ['GET /transactions/{transactionId}', transactionSchema],
  ['POST /transactions/{transactionId}/approve', transactionSchema],
  ['POST /transactions/{transactionId}/cancel', transactionSchema],
  ['GET /config', platformConfigSchema],
  ['PATCH /config', platformConfigSchema],
  ['GET /auth/credentials', authMethodList],
  // 202 answers of signed wallet operations are the signed-retry challenge (its own schema)
  ['POST /auth/credentials', authMethodSchema, [201]],
  ['POST /auth/credentials/{id}/challenge', authMethodSchema],
  ['POST /auth/credentials/{id}/verify', authSessionSchema, [200]],
  ['GET /auth/sessions', authSessionList],
  ['POST /auth/sessions/{id}/refresh', authSessionSchema, [201]],
  ['POST /internal-accounts/{id}/export', exportResponseSchema, [200]],
]

let contract: Contract
beforeAll(async () => {
  contract = await Contract.load()
})

describe('the CLI response schemas accept every contract-valid answer', () => {
  it('names only operations that exist in the contract', () => {
    const missing = CLI_READS.map(([key]) => key).filter((key) => !contract.operations.some((o) => o.key === key))
    expect(missing).toEqual([])
  })

  it.each(CLI_READS)('%s', (key, schema, only) => {
    const op = contract.operations.find((o) => o.key === key)!
    const responses = contract.operation(op).responses as Record<string, unknown>
    const statuses = Object.keys(responses)
      .filter((s) => /^2\d\d$/.test(s))
      .map(Number)
      .filter((s) => !only || only.includes(s))
    let checked = 0
    const rejected: string[] = []
    for (const status of statuses) {
      const documented = contract.responseFor(op, status)
      if (!documented?.schema) continue
      const n = variantCount(contract.doc, documented.schema)
      for (let variant = 0; variant < n; variant++) {
        for (const full of [true, false]) {
          const instance = sample(contract.doc, documented.schema, {variant, full})
          if (contract.validate('response', documented.pointer, instance).length) continue // the sampler's guess is not contract-valid
          checked++
          const r = schema.safeParse(instance)
          if (!r.success)
            rejected.push(
              `${status} variant ${variant}${full ? ' (all fields)' : ' (required only)'}: ${fieldErrors(r.error)
                .map((e) => `${e.field} ${e.message}`)
                .join('; ')}`,
            )
        }
      }
    }
    expect(checked, `no contract-valid sample of ${key} could be made`).toBeGreaterThan(0)
    expect(rejected).toEqual([])
  })
})
