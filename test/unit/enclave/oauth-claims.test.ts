import {describe, expect, it} from 'vitest'
import {decodeOidcToken, oidcClaimProblem, oidcClaims} from '../../../src/emulator/domain/wallet/oauth.js'

const NOW = 1_800_000_000_000
const s = NOW / 1000
const good = {iss: 'https://accounts.google.com', aud: 'client', sub: 'u1', iat: s - 10, exp: s + 600}

describe('OIDC claims (sandbox rules)', () => {
  it('accepts fresh tokens from the supported issuers, with aud as a one-element array too', () => {
    expect(oidcClaimProblem(good, NOW)).toBeUndefined()
    expect(oidcClaimProblem({...good, iss: 'accounts.google.com'}, NOW)).toBeUndefined()
    expect(oidcClaimProblem({...good, iss: 'https://appleid.apple.com', aud: ['app']}, NOW)).toBeUndefined()
    expect(oidcClaims({...good, aud: ['app'], email: 'a@b.c'})).toEqual({
      iss: good.iss,
      aud: 'app',
      sub: 'u1',
      email: 'a@b.c',
    })
  })

  it('names the failing claim', () => {
    expect(oidcClaimProblem({...good, iss: 'https://evil.example'}, NOW)).toMatch(/^iss/)
    expect(oidcClaimProblem({...good, aud: ['a', 'b']}, NOW)).toMatch(/^aud/)
    expect(oidcClaimProblem({...good, aud: ''}, NOW)).toMatch(/^aud/)
    expect(oidcClaimProblem({...good, sub: ''}, NOW)).toMatch(/^sub/)
    expect(oidcClaimProblem({...good, iat: '1'}, NOW)).toMatch(/^iat must be a number/)
    expect(oidcClaimProblem({...good, exp: s}, NOW)).toMatch(/^exp/)
  })

  it('allows 60 s of age plus 5 s of clock skew, no more', () => {
    expect(oidcClaimProblem({...good, iat: s - 65}, NOW)).toBeUndefined()
    expect(oidcClaimProblem({...good, iat: s - 66}, NOW)).toMatch(/66 s old/)
    expect(oidcClaimProblem({...good, iat: s + 5}, NOW)).toBeUndefined()
    expect(oidcClaimProblem({...good, iat: s + 6}, NOW)).toMatch(/future/)
  })

  it('refuses tokens that are not JWT-shaped JSON as 400 INVALID_INPUT on the field', () => {
    const b = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
    expect(decodeOidcToken(`${b({alg: 'none'})}.${b(good)}.`, 'oidcToken')).toEqual(good)
    for (const token of ['sandbox-valid-oidc-token', `${b({})}.bm90LWpzb24.x`, `${b({})}.${b([1])}.x`]) {
      try {
        decodeOidcToken(token, 'oidcToken')
        expect.unreachable()
      } catch (e) {
        expect((e as {status: number; details: {errors: Array<{field: string}>}}).status).toBe(400)
        expect((e as {details: {errors: Array<{field: string}>}}).details.errors[0].field).toBe('oidcToken')
      }
    }
  })
})
