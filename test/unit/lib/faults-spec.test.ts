import {describe, expect, it} from 'vitest'
import {faultSettingsPatch, NO_FAULTS} from '../../../src/lib/schemas/faults.js'

const issues = (v: unknown) => {
  const r = faultSettingsPatch.safeParse(v)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('fault spec', () => {
  it('parses the serve flag string into the settings object', () => {
    expect(faultSettingsPatch.parse('rate5xx=0.1,rate429=0.05,latency=200ms,reset=0.01')).toEqual({
      rate5xx: 0.1,
      rate429: 0.05,
      latencyMs: 200,
      reset: 0.01,
      lostReply: 0,
      slowReplyMs: 0,
      slowReplyRate: 1,
      retryAfterSeconds: 1,
    })
    expect(faultSettingsPatch.parse('lostReply=0.3,slowReply=40s,slowReplyRate=0.5,seed=7')).toMatchObject({
      lostReply: 0.3,
      slowReplyMs: 40_000,
      slowReplyRate: 0.5,
      seed: 7,
    })
    expect(faultSettingsPatch.parse('slowReply=1500ms')).toMatchObject({slowReplyMs: 1500})
    expect(faultSettingsPatch.parse('latency=2s,retryAfter=0,seed=42')).toMatchObject({
      latencyMs: 2000,
      retryAfterSeconds: 0,
      seed: 42,
    })
  })

  it('takes the object form, and null for off', () => {
    expect(faultSettingsPatch.parse({rate429: 0.5})).toEqual({...NO_FAULTS, rate429: 0.5})
    expect(faultSettingsPatch.parse(null)).toEqual(NO_FAULTS)
  })

  it('names every bad part: out of range, unknown key, not a number', () => {
    const bad = issues('rate5xx=2,foo=1,latency=fast,rate429=50ms')
    expect(bad).toHaveLength(4)
    expect(bad.join('\n')).toMatch(/^rate5xx: /m)
    expect(bad.join('\n')).toMatch(/foo/)
    expect(bad.join('\n')).toMatch(/^latencyMs: /m)
    expect(bad.join('\n')).toMatch(/^rate429: /m)
  })
})
