import {describe, expect, it} from 'vitest'
import {walletSeed} from '../../src/emulator/domain/wallet/state.js'
import {bytesToHex, decryptExportBundle, generateP256KeyPair, stamp} from '../../src/lib/wallet/index.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({walletProcessingDelayMs: 150})

const privacy = (accountId: string) => `/internal-accounts/${accountId}`

describe('signed-retry binding', () => {
  it('binds payloadToSign to the operation, path, request id, body digest and expiry', async () => {
    const {accountId} = await fx.httpWallet()
    const r = await fx.api.call('PATCH', privacy(accountId), {raw: '{"privateEnabled":true}'})
    expect(r.status).toBe(202)
    expect(Object.keys(r.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId'])
    const payload = JSON.parse(r.body.payloadToSign)
    expect(payload).toMatchObject({
      operation: 'internal_account.update',
      method: 'PATCH',
      path: privacy(accountId),
      resourceId: accountId,
      requestId: r.body.requestId,
      expiresAt: r.body.expiresAt,
    })
    expect(payload.bodySha256).toMatch(/^[0-9a-f]{64}$/)
    expect(Date.parse(r.body.expiresAt) - Date.now()).toBeGreaterThan(290_000)
  })

  it('refuses a stamp carried over another body with WALLET_SIGNATURE_BODY_MISMATCH and changes nothing', async () => {
    const {accountId, s} = await fx.httpWallet()
    const leg1 = await fx.api.call('PATCH', privacy(accountId), {raw: '{"privateEnabled":true}'})
    const headers = {
      'service-wallet-signature': stamp(leg1.body.payloadToSign, s.key.privateKey),
      'request-id': leg1.body.requestId,
    }
    const other = await fx.api.call('PATCH', privacy(accountId), {raw: '{"privateEnabled": true}', headers})
    expect(other.status).toBe(401)
    expect(other.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH')
    expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', accountId)!.privateEnabled).toBe(false)
    // The untouched request still goes through with the same challenge.
    const ok = await fx.api.call('PATCH', privacy(accountId), {raw: '{"privateEnabled":true}', headers})
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({id: accountId, privateEnabled: true})
    expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', accountId)!.privateEnabled).toBe(true)
  })

  it('answers each header problem with its own 401 code', async () => {
    const {accountId, s} = await fx.httpWallet()
    const raw = '{"privateEnabled":true}'
    const leg1 = await fx.api.call('PATCH', privacy(accountId), {raw})
    const good = stamp(leg1.body.payloadToSign, s.key.privateKey)
    const cases: Array<[Record<string, string>, number, string]> = [
      [{'request-id': leg1.body.requestId}, 401, 'WALLET_SIGNATURE_MISSING'],
      [{'service-wallet-signature': good}, 401, 'REQUEST_ID_MISSING'],
      [
        {'service-wallet-signature': 'not-a-stamp!', 'request-id': leg1.body.requestId},
        401,
        'WALLET_SIGNATURE_MALFORMED',
      ],
      [
        {
          'service-wallet-signature': stamp(leg1.body.payloadToSign + ' ', s.key.privateKey),
          'request-id': leg1.body.requestId,
        },
        401,
        'WALLET_SIGNATURE_INVALID',
      ],
      [
        {'service-wallet-signature': 'sandbox-valid-signature', 'request-id': leg1.body.requestId},
        401,
        'WALLET_SIGNATURE_MALFORMED',
      ],
      [
        {'service-wallet-signature': good, 'request-id': 'Request:00000000-0000-0000-0000-000000000000'},
        404,
        'REQUEST_NOT_FOUND',
      ],
    ]
    for (const [headers, status, code] of cases) {
      const r = await fx.api.call('PATCH', privacy(accountId), {raw, headers})
      expect([r.status, r.body.code]).toEqual([status, code])
    }
    expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', accountId)!.privateEnabled).toBe(false)
  })

  it('refuses a reused Request-Id', async () => {
    const {accountId, s} = await fx.httpWallet()
    const {leg1, leg2, raw, stampHeader} = await fx.api.signed(
      'PATCH',
      privacy(accountId),
      {privateEnabled: true},
      s.key,
    )
    expect(leg2.status).toBe(200)
    const again = await fx.api.call('PATCH', privacy(accountId), {
      raw,
      headers: {'service-wallet-signature': stampHeader, 'request-id': leg1.body.requestId},
    })
    expect(again.status).toBe(401)
    expect(again.body.reason).toMatch(/already used/)
  })

  it('lets only one of two concurrent retries with the same Request-Id through', async () => {
    const {accountId, s} = await fx.httpWallet()
    const raw = JSON.stringify({clientPublicKey: bytesToHex(generateP256KeyPair().publicKeyUncompressed)})
    const leg1 = await fx.api.call('POST', `/internal-accounts/${accountId}/export`, {raw})
    const headers = {
      'service-wallet-signature': stamp(leg1.body.payloadToSign, s.key.privateKey),
      'request-id': leg1.body.requestId,
    }
    const answers = await Promise.all(
      [1, 2, 3].map(() => fx.api.call('POST', `/internal-accounts/${accountId}/export`, {raw, headers})),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401])
  })

  it('refuses a lapsed challenge with a reason saying it expired', async () => {
    const {accountId, s} = await fx.httpWallet()
    await fx.api.setSandbox({signedChallengeTtlSeconds: 1})
    try {
      const raw = '{"privateEnabled":true}'
      const leg1 = await fx.api.call('PATCH', privacy(accountId), {raw})
      await new Promise((r) => setTimeout(r, 1100))
      const r = await fx.api.call('PATCH', privacy(accountId), {
        raw,
        headers: {
          'service-wallet-signature': stamp(leg1.body.payloadToSign, s.key.privateKey),
          'request-id': leg1.body.requestId,
        },
      })
      expect(r.status).toBe(401)
      expect(r.body.reason).toMatch(/expired/)
    } finally {
      await fx.api.setSandbox({signedChallengeTtlSeconds: 300})
    }
  })

  it('refuses a Request-Id issued for another request', async () => {
    const a = await fx.httpWallet()
    const b = await fx.api.createCustomer()
    const leg1 = await fx.api.call('PATCH', privacy(a.accountId), {raw: '{"privateEnabled":true}'})
    const r = await fx.api.call('PATCH', privacy(b.accountId), {
      raw: '{"privateEnabled":true}',
      headers: {
        'service-wallet-signature': stamp(leg1.body.payloadToSign, a.s.key.privateKey),
        'request-id': leg1.body.requestId,
      },
    })
    expect(r.status).toBe(401)
    expect(r.body.reason).toMatch(/issued for/)
  })
})

describe('still processing', () => {
  it('export: PROCESSING until settled, then the re-send returns the credentials and consumes the Request-Id', async () => {
    const {accountId, s} = await fx.httpWallet()
    await fx.api.setSandbox({walletProcessingCount: 1})
    const exportKey = generateP256KeyPair()
    const {leg1, leg2, raw, stampHeader} = await fx.api.signed(
      'POST',
      `/internal-accounts/${accountId}/export`,
      {clientPublicKey: bytesToHex(exportKey.publicKeyUncompressed)},
      s.key,
    )
    expect([leg2.status, leg2.body.status]).toEqual([200, 'PROCESSING'])
    expect(fx.sbx.emu.settings().walletProcessingCount).toBe(0)
    const headers = {'service-wallet-signature': stampHeader, 'request-id': leg1.body.requestId}
    const early = await fx.api.call('POST', `/internal-accounts/${accountId}/export`, {raw, headers})
    expect(early.body).toMatchObject({status: 'PROCESSING'})
    const restamped = await fx.api.call('POST', `/internal-accounts/${accountId}/export`, {
      raw,
      headers: {
        ...headers,
        'service-wallet-signature': stamp(leg1.body.payloadToSign, generateP256KeyPair().privateKey),
      },
    })
    expect([restamped.status, restamped.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID'])
    await new Promise((r) => setTimeout(r, 400))
    const events = await fx.api.call('GET', '/sandbox/events?type=wallet_operation.completed')
    expect(events.body.data.map((e: {data: {requestId: string}}) => e.data.requestId)).toContain(leg1.body.requestId)
    const done = await fx.api.call('POST', `/internal-accounts/${accountId}/export`, {raw, headers})
    expect(done.status).toBe(200)
    const out = await decryptExportBundle(done.body.encryptedWalletCredentials, exportKey.privateKey, {
      pinnedQuorumKey: await fx.api.quorumKey(),
    })
    expect(out.kind === 'mnemonic' && out.mnemonic).toBe(walletSeed(fx.sbx.emu, accountId))
    const reuse = await fx.api.call('POST', `/internal-accounts/${accountId}/export`, {raw, headers})
    expect(reuse.status).toBe(401)
  })

  it('session revoke: settles by itself (visible in GET /auth/sessions); the re-send gets 204', async () => {
    const {accountId, s} = await fx.httpWallet()
    const other = await fx.api.otpLogin(
      (await fx.api.call('GET', `/auth/credentials?accountId=${accountId}`)).body.data[0].id,
    )
    await fx.api.setSandbox({walletProcessingCount: 1})
    const {leg1, leg2, stampHeader} = await fx.api.signed('DELETE', `/auth/sessions/${other.id}`, undefined, s.key)
    expect(leg1.body.type).toBe('EMAIL_OTP')
    expect(leg2.body).toEqual({status: 'PROCESSING', message: expect.any(String)})
    await new Promise((r) => setTimeout(r, 400))
    const list = await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)
    expect(list.body.data.map((x: {id: string}) => x.id)).toEqual([s.id])
    const event = (await fx.api.call('GET', '/sandbox/events?type=wallet_operation.completed')).body.data.find(
      (e: {data: {requestId: string}}) => e.data.requestId === leg1.body.requestId,
    )
    expect(event.data).toMatchObject({
      operationType: 'session.revoke',
      resourceType: 'SESSION',
      resourceId: other.id,
      status: 'completed',
      operationId: expect.stringMatching(/^Operation:/),
    })
    const resend = await fx.api.call('DELETE', `/auth/sessions/${other.id}`, {
      headers: {'service-wallet-signature': stampHeader, 'request-id': leg1.body.requestId},
    })
    expect(resend.status).toBe(204)
  })

  it('a restart between accept and settle fails the operation honestly: nothing ran, nothing says completed', async () => {
    const {accountId, s} = await fx.httpWallet()
    await fx.api.setSandbox({walletProcessingCount: 1, walletProcessingDelayMs: 3_600_000})
    try {
      const {leg1, leg2, raw, stampHeader} = await fx.api.signed(
        'PATCH',
        privacy(accountId),
        {privateEnabled: true},
        s.key,
      )
      expect(leg2.body.status).toBe('PROCESSING')
      await fx.restart()
      const settled = await fx.api.call('POST', `/sandbox/wallet-requests/${leg1.body.requestId}/settle`)
      expect(settled.status).toBe(200)
      const headers = {'service-wallet-signature': stampHeader, 'request-id': leg1.body.requestId}
      const resend = await fx.api.call('PATCH', privacy(accountId), {raw, headers})
      expect([resend.status, resend.body.code]).toEqual([500, 'INTERNAL_ERROR'])
      expect(resend.body.reason).toMatch(/restarted while internal_account.update .* was settling, so it did not run/)
      expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', accountId)!.privateEnabled).toBe(false)
      const event = (await fx.api.call('GET', '/sandbox/events?type=wallet_operation.completed')).body.data.find(
        (e: {data: {requestId: string}}) => e.data.requestId === leg1.body.requestId,
      )
      expect(event.data).toMatchObject({status: 'failed', error: {code: 'INTERNAL_ERROR'}})
      // A new challenge runs it for real.
      await fx.api.setSandbox({walletProcessingDelayMs: 150})
      const again = await fx.api.signed('PATCH', privacy(accountId), {privateEnabled: true}, s.key)
      expect(again.leg2.status).toBe(200)
      expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', accountId)!.privateEnabled).toBe(true)
    } finally {
      await fx.api.setSandbox({walletProcessingDelayMs: 150})
    }
  })
})

describe('sessions', () => {
  it('refresh: signed by the session itself, same key on both legs, 201 with a new session', async () => {
    const {accountId, s} = await fx.httpWallet()
    const next = generateP256KeyPair()
    const body = {clientPublicKey: bytesToHex(next.publicKeyCompressed)}
    const {leg1, leg2} = await fx.api.signed('POST', `/auth/sessions/${s.id}/refresh`, body, s.key)
    expect(leg1.body.type).toBeUndefined()
    expect(leg2.status).toBe(201)
    expect(leg2.body).toMatchObject({accountId, type: 'EMAIL_OTP', publicKey: bytesToHex(next.publicKeyCompressed)})
    expect(leg2.body.id).not.toBe(s.id)
    // Another session may not sign a refresh.
    const {leg2: refused} = await fx.api.signed('POST', `/auth/sessions/${s.id}/refresh`, body, next)
    expect(refused.status).toBe(401)
    expect(refused.body.reason).toMatch(/Only session/)
  })

  it('refresh with an uncompressed key returns the legacy sealed session key', async () => {
    const {s} = await fx.httpWallet()
    const client = generateP256KeyPair()
    const {leg2} = await fx.api.signed(
      'POST',
      `/auth/sessions/${s.id}/refresh`,
      {clientPublicKey: bytesToHex(client.publicKeyUncompressed)},
      s.key,
    )
    expect(leg2.status).toBe(201)
    const {decryptCredentialBundle, publicKeyFromPrivate} = await import('../../src/lib/wallet/index.js')
    const sessionKey = await decryptCredentialBundle(leg2.body.encryptedSessionSigningKey, client.privateKey)
    expect(bytesToHex(publicKeyFromPrivate(sessionKey, true))).toBe(leg2.body.publicKey)
  })

  it('revoke: 204, the session stops signing, and a revoked or unknown session is 404', async () => {
    const {accountId, s} = await fx.httpWallet()
    const {leg2} = await fx.api.signed('DELETE', `/auth/sessions/${s.id}`, undefined, s.key)
    expect(leg2.status).toBe(204)
    expect((await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data).toEqual([])
    const again = await fx.api.call('DELETE', `/auth/sessions/${s.id}`)
    expect([again.status, again.body.code]).toEqual([404, 'SESSION_NOT_FOUND'])
    const {leg2: refused} = await fx.api.signed('PATCH', privacy(accountId), {privateEnabled: true}, s.key)
    expect(refused.status).toBe(401)
    expect(refused.body.reason).toMatch(/revoked/)
  })

  it('an expired session cannot sign', async () => {
    await fx.api.setSandbox({sessionTtlSeconds: 1})
    try {
      const {accountId, s} = await fx.httpWallet()
      await new Promise((r) => setTimeout(r, 1100))
      expect((await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data).toEqual([])
      const {leg2} = await fx.api.signed('PATCH', privacy(accountId), {privateEnabled: true}, s.key)
      expect(leg2.status).toBe(401)
      expect(leg2.body.reason).toMatch(/expired/)
    } finally {
      await fx.api.setSandbox({sessionTtlSeconds: 900})
    }
  })

  it('privacy is for embedded wallets only, and lists need a valid accountId', async () => {
    const bad = await fx.api.call('GET', '/auth/sessions?accountId=Customer:x')
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors[0].field).toBe('accountId')
    const missing = await fx.api.call('GET', '/auth/credentials?accountId=InternalAccount:nope')
    expect([missing.status, missing.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND'])
  })
})
