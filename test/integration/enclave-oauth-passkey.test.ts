import {describe, expect, it} from 'vitest'
import {
  bytesToHex,
  decryptCredentialBundle,
  generateP256KeyPair,
  publicKeyFromPrivate,
  stamp,
} from '../../src/lib/wallet/index.js'
import {SoftAuthenticator, mintOidcToken, nonceFor, unixNow} from '../helpers/authenticator.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox()

describe('OAUTH', () => {
  async function withOauth(claims: Record<string, unknown> = {}) {
    const w = await fx.httpWallet()
    const {leg1, leg2} = await fx.api.signed(
      'POST',
      '/auth/credentials',
      {type: 'OAUTH', accountId: w.accountId, oidcToken: mintOidcToken(claims)},
      w.s.key,
    )
    expect(leg1.body.type).toBe('OAUTH')
    expect(leg2.status).toBe(201)
    return {...w, cred: leg2.body}
  }
  const verify = (id: string, body: Record<string, unknown>) =>
    fx.api.call('POST', `/auth/credentials/${id}/verify`, {body: {type: 'OAUTH', ...body}})

  it('adds a credential named after the email claim and logs in with a fresh token whose nonce hashes the key', async () => {
    const {accountId, cred} = await withOauth({email: 'ada@gmail.com'})
    expect(cred).toMatchObject({type: 'OAUTH', nickname: 'ada@gmail.com', accountId})
    const key = generateP256KeyPair()
    const clientPublicKey = bytesToHex(key.publicKeyCompressed)
    const r = await verify(cred.id, {oidcToken: mintOidcToken({nonce: nonceFor(clientPublicKey)}), clientPublicKey})
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      type: 'OAUTH',
      credentialId: cred.id,
      nickname: 'ada@gmail.com',
      publicKey: clientPublicKey,
    })
    expect(r.body.encryptedSessionSigningKey).toBeUndefined()
    // The new session signs.
    const {leg2} = await fx.api.signed('PATCH', `/internal-accounts/${accountId}`, {privateEnabled: true}, key)
    expect(leg2.status).toBe(200)
  })

  it('legacy uncompressed clientPublicKey: the session key comes back sealed to it', async () => {
    const {cred} = await withOauth()
    const client = generateP256KeyPair()
    const clientPublicKey = bytesToHex(client.publicKeyUncompressed)
    const r = await verify(cred.id, {oidcToken: mintOidcToken({nonce: nonceFor(clientPublicKey)}), clientPublicKey})
    expect(r.status).toBe(200)
    const sessionKey = await decryptCredentialBundle(r.body.encryptedSessionSigningKey, client.privateKey)
    expect(bytesToHex(publicKeyFromPrivate(sessionKey, true))).toBe(r.body.publicKey)
  })

  it('refuses each bad claim with a reason naming it, and changes nothing', async () => {
    const {accountId, cred} = await withOauth()
    const clientPublicKey = bytesToHex(generateP256KeyPair().publicKeyCompressed)
    const nonce = nonceFor(clientPublicKey)
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['stale iat', {nonce, iat: unixNow() - 120}, /iat is \d+ s old/],
      ['expired', {nonce, exp: unixNow() - 1}, /exp is in the past/],
      ['wrong nonce', {nonce: nonceFor(clientPublicKey.toUpperCase())}, /nonce must be/],
      ['other subject', {nonce, sub: 'someone-else'}, /does not match credential/],
      ['other issuer', {nonce, iss: 'https://login.example.com'}, /not a supported issuer/],
    ]
    for (const [, claims, reason] of cases) {
      const r = await verify(cred.id, {oidcToken: mintOidcToken(claims), clientPublicKey})
      expect([r.status, r.body.code]).toEqual([401, 'UNAUTHORIZED'])
      expect(r.body.reason).toMatch(reason)
    }
    const malformed = await verify(cred.id, {oidcToken: 'abc.def.ghi', clientPublicKey})
    expect(malformed.status).toBe(400)
    expect(malformed.body.details.errors[0].field).toBe('oidcToken')
    const notJwt = await verify(cred.id, {oidcToken: 'sandbox-valid-oidc-token', clientPublicKey})
    expect(notJwt.status).toBe(400)
    expect((await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data).toHaveLength(1)
  })

  it('refuses a replayed token, and accepts Google issuer spelled without the scheme', async () => {
    const {cred} = await withOauth({iss: 'accounts.google.com'})
    const clientPublicKey = bytesToHex(generateP256KeyPair().publicKeyCompressed)
    const token = mintOidcToken({nonce: nonceFor(clientPublicKey)})
    expect((await verify(cred.id, {oidcToken: token, clientPublicKey})).status).toBe(200)
    const replay = await verify(cred.id, {oidcToken: token, clientPublicKey})
    expect(replay.status).toBe(401)
    expect(replay.body.reason).toMatch(/already used/)
  })

  it('add: bad claims are 400 INVALID_INPUT on oidcToken; one credential per provider identity', async () => {
    const {accountId, s} = await withOauth({sub: 'same-sub'})
    const stale = await fx.api.call('POST', '/auth/credentials', {
      body: {type: 'OAUTH', accountId, oidcToken: mintOidcToken({iat: unixNow() - 300})},
    })
    expect(stale.status).toBe(400)
    expect(stale.body.details.errors[0]).toMatchObject({field: 'oidcToken', message: expect.stringMatching(/iat/)})
    const dup = await fx.api.call('POST', '/auth/credentials', {
      body: {type: 'OAUTH', accountId, oidcToken: mintOidcToken({sub: 'same-sub', iss: 'accounts.google.com'})},
    })
    expect([dup.status, dup.body.code]).toEqual([409, 'CONFLICT'])
    const apple = await fx.api.signed(
      'POST',
      '/auth/credentials',
      {
        type: 'OAUTH',
        accountId,
        oidcToken: mintOidcToken({sub: 'same-sub', iss: 'https://appleid.apple.com', aud: ['com.example.app']}),
      },
      s.key,
    )
    expect(apple.leg2.status).toBe(201)
  })
})

describe('PASSKEY', () => {
  async function withPasskey(auth = new SoftAuthenticator()) {
    const w = await fx.httpWallet()
    const challenge = Buffer.from(`reg-${Math.random()}`).toString('base64url')
    const {leg2} = await fx.api.signed(
      'POST',
      '/auth/credentials',
      {type: 'PASSKEY', accountId: w.accountId, nickname: 'YubiKey', challenge, attestation: auth.register(challenge)},
      w.s.key,
    )
    expect(leg2.status).toBe(201)
    expect(leg2.body).toMatchObject({type: 'PASSKEY', nickname: 'YubiKey', credentialId: auth.credentialId})
    return {...w, auth, cred: leg2.body}
  }
  const challenge = async (id: string, clientPublicKey: string) =>
    fx.api.call('POST', `/auth/credentials/${id}/challenge`, {body: {clientPublicKey}})
  const verify = (id: string, requestId: string | undefined, assertion: unknown) =>
    fx.api.call('POST', `/auth/credentials/${id}/verify`, {
      body: {type: 'PASSKEY', assertion},
      headers: requestId ? {'request-id': requestId} : {},
    })

  it('logs in with a real ES256 assertion over the UTF-8 hex challenge', async () => {
    const {accountId, auth, cred} = await withPasskey()
    const key = generateP256KeyPair()
    const clientPublicKey = bytesToHex(key.publicKeyCompressed)
    const ch = await challenge(cred.id, clientPublicKey)
    expect(ch.status).toBe(200)
    expect(ch.body).toMatchObject({
      id: cred.id,
      credentialId: auth.credentialId,
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      requestId: expect.stringMatching(/^Request:/),
    })
    const r = await verify(cred.id, ch.body.requestId, auth.assert(ch.body.challenge))
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({type: 'PASSKEY', accountId, credentialId: cred.id, publicKey: clientPublicKey})
    const again = await verify(cred.id, ch.body.requestId, auth.assert(ch.body.challenge))
    expect(again.status).toBe(401)
  })

  it('refuses bad assertions: wrong key, another challenge, bad origin, no user presence, stale counter', async () => {
    const {accountId, auth, cred} = await withPasskey()
    const clientPublicKey = bytesToHex(generateP256KeyPair().publicKeyCompressed)
    const other = await challenge(cred.id, clientPublicKey)
    const ch = await challenge(cred.id, clientPublicKey)
    const cases: Array<[unknown, RegExp]> = [
      [auth.assert(ch.body.challenge, {key: generateP256KeyPair()}), /signature does not verify/],
      [auth.assert(other.body.challenge), /another challenge/],
      [auth.assert(ch.body.challenge, {origin: 'https://evil.example'}), /origin/],
      [auth.assert(ch.body.challenge, {flags: 0x04}), /user-presence/],
      [{...auth.assert(ch.body.challenge), credentialId: 'AAAA'}, /is for credential AAAA/],
    ]
    for (const [assertion, reason] of cases) {
      const r = await verify(cred.id, ch.body.requestId, assertion)
      expect([r.status, r.body.code]).toEqual([401, 'UNAUTHORIZED'])
      expect(r.body.reason).toMatch(reason)
    }
    expect((await verify(cred.id, ch.body.requestId, auth.assert(ch.body.challenge, {counter: 10}))).status).toBe(200)
    const next = await challenge(cred.id, clientPublicKey)
    const replayed = await verify(cred.id, next.body.requestId, auth.assert(next.body.challenge, {counter: 10}))
    expect(replayed.body.reason).toMatch(/counter 10 did not increase past 10/)
    expect((await verify(cred.id, next.body.requestId, auth.assert(next.body.challenge, {counter: 11}))).status).toBe(
      200,
    )
    expect((await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data).toHaveLength(3)
  })

  it('needs clientPublicKey on the challenge and Request-Id on verify', async () => {
    const {auth, cred} = await withPasskey()
    const noKey = await fx.api.call('POST', `/auth/credentials/${cred.id}/challenge`, {body: {}})
    expect(noKey.status).toBe(400)
    expect(noKey.body.details.errors[0].field).toBe('clientPublicKey')
    const ch = await challenge(cred.id, bytesToHex(generateP256KeyPair().publicKeyCompressed))
    const r = await verify(cred.id, undefined, auth.assert(ch.body.challenge))
    expect([r.status, r.body.code]).toEqual([401, 'REQUEST_ID_MISSING'])
    const unknown = await verify(cred.id, 'Request:nope', auth.assert(ch.body.challenge))
    expect([unknown.status, unknown.body.code]).toEqual([404, 'REQUEST_NOT_FOUND'])
  })

  it('refuses registrations with a mismatched challenge or a foreign origin, listing the fields', async () => {
    const {accountId} = await fx.httpWallet()
    const auth = new SoftAuthenticator()
    const r = await fx.api.call('POST', '/auth/credentials', {
      body: {
        type: 'PASSKEY',
        accountId,
        nickname: 'Key',
        challenge: 'Y2hhbGxlbmdl',
        attestation: auth.register('b3RoZXI', {origin: 'https://evil.example'}),
      },
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'attestation.clientDataJson',
      'challenge',
    ])
  })

  it('revoking the passkey with an OTP session revokes its sessions too', async () => {
    const {accountId, auth, cred, s} = await withPasskey()
    const key = generateP256KeyPair()
    const ch = await challenge(cred.id, bytesToHex(key.publicKeyCompressed))
    const pk = await verify(cred.id, ch.body.requestId, auth.assert(ch.body.challenge))
    const {leg1, leg2} = await fx.api.signed('DELETE', `/auth/credentials/${cred.id}`, undefined, s.key)
    expect(leg1.body.type).toBe('PASSKEY')
    expect(leg2.status).toBe(204)
    const ids = (await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data.map(
      (x: {id: string}) => x.id,
    )
    expect(ids).not.toContain(pk.body.id)
    const leg = await fx.api.call('PATCH', `/internal-accounts/${accountId}`, {raw: '{"privateEnabled":true}'})
    const refused = await fx.api.call('PATCH', `/internal-accounts/${accountId}`, {
      raw: '{"privateEnabled":true}',
      headers: {
        'service-wallet-signature': stamp(leg.body.payloadToSign, key.privateKey),
        'request-id': leg.body.requestId,
      },
    })
    expect(refused.body.reason).toMatch(/revoked/)
  })
})
