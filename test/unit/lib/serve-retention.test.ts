import {describe, expect, it} from 'vitest'
import {InputError} from '../../../src/lib/errors.js'
import {parseRetentionFlags, parseSize} from '../../../src/lib/serve-retention.js'

describe('svc sandbox serve retention flags', () => {
  it('reads spans and sizes; unset flags leave the sandbox its defaults', () => {
    expect(parseRetentionFlags({})).toEqual({retention: {}})
    expect(
      parseRetentionFlags({
        'idempotency-retention': '1h30m',
        'event-retention': '7d',
        'log-max-size': '500KB',
        'log-keep': 1,
      }),
    ).toEqual({retention: {idempotencyMs: 5_400_000, eventsMs: 604_800_000}, logLimit: {maxBytes: 512_000, keep: 1}})
    expect(parseRetentionFlags({'log-keep': 0})).toEqual({retention: {}, logLimit: {maxBytes: 10_485_760, keep: 0}})
    expect([parseSize('10MB'), parseSize('2kb'), parseSize('4096'), parseSize('1.5MB'), parseSize('MB')]).toEqual([
      10_485_760,
      2048,
      4096,
      undefined,
      undefined,
    ])
  })

  it('refuses every bad one at once, naming each', () => {
    let error: unknown
    try {
      parseRetentionFlags({'idempotency-retention': '24', 'event-retention': '-1d', 'log-max-size': '10'})
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).fieldErrors.map((f) => f.field)).toEqual([
      'idempotency-retention',
      'event-retention',
      'log-max-size',
    ])
    expect((error as InputError).fieldErrors[2]!.message).toContain('at least 1KB')
  })
})
