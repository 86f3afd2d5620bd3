import {describe, expect, it} from 'vitest'
import {clockAdvanceInput} from '../../../src/lib/clock-input.js'
import {formatSpan, parseSpan} from '../../../src/lib/duration.js'
import {SvcError} from '../../../src/lib/errors.js'

describe('clock spans', () => {
  it('reads 6m, 30s, 2h, 1d, 1h30m, 1d12h and 1500ms', () => {
    expect(parseSpan('6m')).toBe(360_000)
    expect(parseSpan('30s')).toBe(30_000)
    expect(parseSpan('2h')).toBe(7_200_000)
    expect(parseSpan('1d')).toBe(86_400_000)
    expect(parseSpan('1h30m')).toBe(5_400_000)
    expect(parseSpan('1d12h')).toBe(129_600_000)
    expect(parseSpan('1500ms')).toBe(1500)
    expect(parseSpan(' 2m1s ')).toBe(121_000)
  })

  it('refuses bare numbers, zero, unknown units, units out of order or twice, and negatives', () => {
    for (const bad of ['6', '0s', '6x', '30m1h', '1m1m', '-1m', '1.5h', '', 'm', '6 m', '1h 30m'])
      expect(parseSpan(bad), bad).toBeUndefined()
  })

  it('prints spans the way they are written', () => {
    expect(formatSpan(360_000)).toBe('6m')
    expect(formatSpan(5_400_000)).toBe('1h30m')
    expect(formatSpan(90_061_001)).toBe('1d1h1m1s1ms')
    expect(formatSpan(250)).toBe('250ms')
  })

  it('advance input: a span or --to, each checked and naming its field', () => {
    expect(clockAdvanceInput('1h30m', undefined)).toEqual({by: '1h30m'})
    expect(clockAdvanceInput(undefined, '2026-12-01T00:00:00Z')).toEqual({to: '2026-12-01T00:00:00Z'})
    const fields = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return (e as SvcError & {fieldErrors?: Array<{field: string}>}).fieldErrors?.map((x) => x.field) ?? 'usage'
      }
      return 'accepted'
    }
    expect(fields(() => clockAdvanceInput('6', undefined))).toEqual(['by'])
    expect(fields(() => clockAdvanceInput(undefined, '2026-12-01'))).toEqual(['to'])
    expect(fields(() => clockAdvanceInput(undefined, '2026-13-01T00:00:00Z'))).toEqual(['to'])
    expect(fields(() => clockAdvanceInput('6m', '2026-12-01T00:00:00Z'))).toBe('usage')
    expect(fields(() => clockAdvanceInput(undefined, undefined))).toBe('usage')
  })
})
