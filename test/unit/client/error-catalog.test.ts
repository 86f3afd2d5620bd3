import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {hintFor} from '../../../src/lib/error-catalog.js'

const SPEC = new URL('../../../../shared/spec/service-api.md', import.meta.url)

/**
 * Every error code of spec section 7, read from the spec itself so a code added there fails here
 * until the catalog has a hint for it. Parenthesised remarks (`APPROVED`, `PUT`) and the list of
 * document rejection reasons (not error codes) are skipped.
 */
function specErrorCodes(): string[] {
  const text = readFileSync(SPEC, 'utf8')
  const start = text.indexOf('\n## 7. Errors')
  const end = text.indexOf('\n## 8.', start)
  expect(start, 'spec section 7 not found').toBeGreaterThan(0)
  const section = text
    .slice(start, end)
    .split('\n')
    .filter((line) => !line.startsWith('Document rejection reasons'))
    .join('\n')
    .replace(/\([^)]*\)/g, '')
  return [...new Set([...section.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]))]
}

describe('error catalog', () => {
  const codes = specErrorCodes()

  it('reads the codes from the spec', () => {
    expect(codes.length).toBeGreaterThan(100)
    expect(codes).toEqual(
      expect.arrayContaining([
        'INVALID_INPUT',
        'UNAUTHORIZED',
        'QUOTE_EXPIRED',
        'DAILY_VOLUME_LIMIT_EXCEEDED',
        'ACCOUNT_LOCKED',
        'INTERNAL_ERROR',
        'WALLET_SIGNATURE_BODY_MISMATCH',
      ]),
    )
    expect(codes).not.toContain('APPROVED')
    expect(codes).not.toContain('LOW_QUALITY')
  })

  it('has a one-line hint for every code in spec section 7', () => {
    const missing = codes.filter((c) => !hintFor(c))
    expect(missing).toEqual([])
    for (const c of codes) {
      const hint = hintFor(c)!
      expect(hint.trim().length, c).toBeGreaterThan(10)
      expect(hint, c).not.toContain('\n')
    }
  })

  it('says what to do next for the codes product.md names', () => {
    expect(hintFor('QUOTE_EXPIRED')).toMatch(/new quote/i)
    expect(hintFor('SCA_SESSION_REQUIRED')).toMatch(/authenticat/i)
    expect(hintFor('WALLET_SIGNATURE_BODY_MISMATCH')).toMatch(/body/i)
  })

  it('a 401 names the OTP or assertion only when the answer is about one (issue 21 item 8)', () => {
    expect(hintFor('UNAUTHORIZED', 'Missing or invalid API credentials (HTTP Basic <token id>:<client secret>)')).toBe(
      'Check the token id and client secret of this profile (`svc login`).',
    )
    expect(hintFor('UNAUTHORIZED')).not.toMatch(/OTP|assertion/)
    for (const reason of [
      'Invalid OTP code',
      'Passkey assertion refused: bad signature',
      'OIDC token refused: expired',
      'Request Request:1 was already used (single use); request a new challenge',
    ]) {
      expect(hintFor('UNAUTHORIZED', reason), reason).toMatch(/OTP, passkey assertion or OIDC token/)
    }
  })
})
