import {describe, expect, it} from 'vitest'
import {Interrupts, interruptedError} from '../../../src/lib/interrupt.js'

describe('interrupts', () => {
  it('describes the innermost activity, updated as the wait progresses, and forgets it after', async () => {
    const i = new Interrupts()
    expect(i.error().toDocument()).toMatchObject({code: 'INTERRUPTED', reason: 'Interrupted'})
    await i.during(
      {
        doing: 'The payment of Quote:1 goes on at the Service (last seen: quote PENDING)',
        resume: 'svc quote wait Quote:1',
      },
      async (update) => {
        update('The payment of Quote:1 goes on at the Service (last seen: transaction PROCESSING)')
        const doc = i.error().toDocument()
        expect(doc).toEqual({
          status: null,
          code: 'INTERRUPTED',
          reason:
            'Interrupted. The payment of Quote:1 goes on at the Service (last seen: transaction PROCESSING); stopping svc does not stop it',
          details: {resume: 'svc quote wait Quote:1'},
          hint: 'Resume or inspect it with: svc quote wait Quote:1',
        })
        expect(i.error().exitCode).toBe(130)
        await i.during(
          {
            doing: 'The refresh of Session:1 may still complete at the Service',
            hint: 'Check `svc wallet sessions list`.',
          },
          async () => {
            expect(i.error().toDocument()).toMatchObject({details: {}, hint: 'Check `svc wallet sessions list`.'})
          },
        )
        expect(i.current?.resume).toBe('svc quote wait Quote:1')
      },
    )
    expect(i.current).toBeUndefined()
  })

  it('at a prompt: nothing was sent', () => {
    expect(interruptedError(undefined, true).toDocument()).toMatchObject({
      reason: 'Interrupted at the prompt; nothing was sent',
      hint: null,
    })
  })
})
