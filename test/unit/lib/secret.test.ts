import {inspect} from 'node:util'
import {describe, expect, it} from 'vitest'
import {Secret, redact} from '../../../src/lib/secret.js'

describe('secrets never print', () => {
  it('Secret redacts in every string form but reveals on request', () => {
    const s = new Secret('sk_live_abc')
    expect(`${s}`).toBe('[REDACTED]')
    expect(JSON.stringify({s})).toBe('{"s":"[REDACTED]"}')
    expect(inspect(s)).toBe('[REDACTED]')
    expect(s.reveal()).toBe('sk_live_abc')
  })

  it('redact hides secret-named fields deeply, keeps error codes and privateEnabled', () => {
    const out = redact({
      clientSecret: 'x',
      code: '123456',
      nested: [{encryptedOtpBundle: '{}', oidcToken: 'a.b.c', privateKey: 'ff'}],
      privateEnabled: true,
      error: {code: 'INVALID_INPUT'},
    })
    expect(out).toEqual({
      clientSecret: '[REDACTED]',
      code: '[REDACTED]',
      nested: [{encryptedOtpBundle: '[REDACTED]', oidcToken: '[REDACTED]', privateKey: '[REDACTED]'}],
      privateEnabled: true,
      error: {code: 'INVALID_INPUT'},
    })
  })
})
