import {describe, expect, it} from 'vitest'
import {closeMatches, knownType, TRIGGERABLE, TRIGGERABLE_TYPES} from '../../../src/lib/webhook-trigger/catalogue.js'

describe('webhooks trigger catalogue', () => {
  it('lists each type once, every one with a description', () => {
    expect(new Set(TRIGGERABLE_TYPES).size).toBe(TRIGGERABLE_TYPES.length)
    for (const t of TRIGGERABLE) expect(t.how.length, t.type).toBeGreaterThan(20)
  })

  it('knows a type whatever its case, in its own spelling', () => {
    expect(knownType('outgoing_payment.completed')).toBe('OUTGOING_PAYMENT.COMPLETED')
    expect(knownType('WALLET_OPERATION.COMPLETED')).toBe('wallet_operation.completed')
    expect(knownType('CARD_TRANSACTION.REFUNDED')).toBeUndefined() // removed by the spec (§6)
  })

  it('suggests close types: a typo first, then others of the same resource; nothing for a stranger', () => {
    expect(closeMatches('CUSTOMER.KYC_APROVED')[0]).toBe('CUSTOMER.KYC_APPROVED')
    expect(closeMatches('CARD_TRANSACTION.REFUNDED')).toEqual(expect.arrayContaining(['CARD_TRANSACTION.SETTLED']))
    expect(closeMatches('CARD_TRANSACTION.REFUNDED').every((t) => t.startsWith('CARD_TRANSACTION.'))).toBe(true)
    expect(closeMatches('FROBNICATE')).toEqual([])
    expect(closeMatches('x'.repeat(40))).toEqual([])
  })
})
