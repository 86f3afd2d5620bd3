import {describe, expect, it} from 'vitest'
import {PlanStore} from '../../../src/lib/mcp/plans.js'

/** A store on a clock the test moves, with deterministic randomness. */
function store(ttlMs = 60_000) {
  let now = 1_000_000
  let n = 0
  const random = (bytes: number) => Buffer.alloc(bytes, ++n)
  return {plans: new PlanStore(() => now, random, ttlMs), advance: (ms: number) => (now += ms)}
}

const refusal = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    return (e as {code: string}).code
  }
  throw new Error('not refused')
}

describe('PlanStore', () => {
  it('hands back a plan once, for the same tool and arguments in any key order', () => {
    const {plans} = store()
    const p = plans.add('sandbox_fund', {accountId: 'A', 'amount-minor': '5'}, ['d1'], 'mcp-k')
    expect(p.expiresAt).toBe(1_000_000 + 60_000)
    expect(plans.take('sandbox_fund', {'amount-minor': '5', accountId: 'A'}, p.token)).toMatchObject({
      requests: ['d1'],
      idempotencyKey: 'mcp-k',
    })
    expect(refusal(() => plans.take('sandbox_fund', {accountId: 'A', 'amount-minor': '5'}, p.token))).toBe('PLAN_USED')
  })

  it('expires exactly after its time to live', () => {
    const {plans, advance} = store(1000)
    const a = plans.add('t', {}, [], 'k1')
    const b = plans.add('t', {}, [], 'k2')
    advance(1000)
    expect(plans.take('t', {}, a.token).idempotencyKey).toBe('k1')
    advance(1)
    expect(refusal(() => plans.take('t', {}, b.token))).toBe('PLAN_EXPIRED')
  })

  it('refuses unknown tokens, other tools and changed arguments, using the plan up', () => {
    const {plans} = store()
    expect(refusal(() => plans.take('t', {}, 'plan_x'))).toBe('PLAN_UNKNOWN')
    const p = plans.add('t', {amount: '1'}, [], 'k')
    expect(refusal(() => plans.take('u', {amount: '1'}, p.token))).toBe('PLAN_OTHER_TOOL')
    expect(refusal(() => plans.take('t', {amount: '1'}, p.token))).toBe('PLAN_USED')
    const q = plans.add('t', {amount: '1'}, [], 'k')
    expect(refusal(() => plans.take('t', {amount: '2'}, q.token))).toBe('PLAN_ARGS_CHANGED')
    expect(refusal(() => plans.take('t', {amount: 1}, plans.add('t', {amount: '1'}, [], 'k').token))).toBe(
      'PLAN_ARGS_CHANGED',
    )
  })

  it('draws tokens and keys from its randomness', () => {
    const {plans} = store()
    expect(plans.newKey()).toBe(`mcp-${'01'.repeat(16)}`)
    expect(plans.add('t', {}, [], 'k').token).toBe(`plan_${Buffer.alloc(24, 2).toString('base64url')}`)
  })
})
