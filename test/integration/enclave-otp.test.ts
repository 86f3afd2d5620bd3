import {describe, expect, it} from 'vitest'
import {walletSeed} from '../../src/emulator/domain/wallet/state.js'
import {
  bytesToHex,
  decryptExportBundle,
  encryptOtpBundle,
  generateP256KeyPair,
  parseSignedEnvelope,
  verifySignedEnvelope,
} from '../../src/lib/wallet/index.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox()

describe('provisioning', () => {
  it('gives each customer an embedded wallet, a seed and an EMAIL_OTP credential tied to the email', async () => {
    const {accountId, customerId} = await fx.api.createCustomer({email: 'ada@example.com'})
    const account = fx.sbx.emu.db.get<Record<string, unknown>>('internalAccounts', accountId)
    expect(account).toMatchObject({
      customerId,
      type: 'EMBEDDED_WALLET',
      status: 'ACTIVE',
      privateEnabled: false,
      balance: {amount: 0, currency: {code: 'USDB'}},
    })
    expect(walletSeed(fx.sbx.emu, accountId)!.split(' ')).toHaveLength(12)
    const creds = await fx.api.call('GET', `/auth/credentials?accountId=${accountId}`)
    expect(creds.status).toBe(200)
    expect(Object.keys(creds.body)).toEqual(['data'])
    expect(creds.body.data).toEqual([
      expect.objectContaining({type: 'EMAIL_OTP', nickname: 'ada@example.com', accountId}),
    ])
    expect(JSON.stringify(creds.body)).not.toMatch(/privateKey|otpTarget/)
  })

  it('creates no credential for a customer without email, and no wallet when embedded wallets are off', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer({email: undefined})
    expect(emailCredentialId).toBeUndefined()
    expect((await fx.api.call('GET', `/auth/credentials?accountId=${accountId}`)).body.data).toEqual([])
    await fx.api.setSandbox({embeddedWallets: false})
    const r = await fx.api.call('POST', '/customers', {
      body: {customerType: 'INDIVIDUAL', fullName: 'No Wallet', email: 'nw@example.com'},
    })
    expect(
      fx.sbx.emu.db
        .all<{customerId: string; type: string}>('internalAccounts')
        .some((a) => a.customerId === r.body.id && a.type === 'EMBEDDED_WALLET'),
    ).toBe(false)
    await fx.api.setSandbox({embeddedWallets: true})
  })

  it('publishes the quorum key that signs target bundles', async () => {
    const {emailCredentialId} = await fx.api.createCustomer()
    const quorum = await fx.api.quorumKey()
    expect(quorum).toMatch(/^04[0-9a-f]{128}$/)
    const ch = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
    expect(ch.status).toBe(200)
    const {signedData, trust} = verifySignedEnvelope(parseSignedEnvelope(ch.body.otpEncryptionTargetBundle), {
      pinnedQuorumKey: quorum,
    })
    expect(trust).toBe('pinned')
    expect(signedData.targetPublic).toMatch(/^04[0-9a-f]{128}$/)
  })
})

describe('EMAIL_OTP login', () => {
  it('logs in with the sandbox OTP: 202 payload stamped by the TEK, then a session whose key is the TEK', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const s = await fx.api.otpLogin(emailCredentialId!)
    expect(s.body).toMatchObject({
      accountId,
      type: 'EMAIL_OTP',
      credentialId: emailCredentialId,
      publicKey: bytesToHex(s.key.publicKeyCompressed),
    })
    expect(s.body.encryptedSessionSigningKey).toBeUndefined()
    expect(Date.parse(s.body.expiresAt) - Date.parse(s.body.createdAt)).toBe(900_000)
    const list = await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)
    expect(list.body.data.map((x: {id: string}) => x.id)).toEqual([s.id])
  })

  it('refuses a wrong OTP code with 401 Invalid OTP code, and a credential never challenged with 400', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const key = generateP256KeyPair()
    const never = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, {
      body: {type: 'EMAIL_OTP', encryptedOtpBundle: '{"encappedPublic":"04","ciphertext":"00"}'},
    })
    expect(never.status).toBe(400)
    expect(never.body.details.errors[0].message).toMatch(/challenge first/)
    const ch = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
    const bundle = await encryptOtpBundle({
      targetBundle: ch.body.otpEncryptionTargetBundle,
      otpCode: '123456',
      publicKey: bytesToHex(key.publicKeyCompressed),
    })
    const r = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, {
      body: {type: 'EMAIL_OTP', encryptedOtpBundle: bundle},
    })
    expect(r.status).toBe(401)
    expect(r.body).toMatchObject({code: 'UNAUTHORIZED', reason: 'Invalid OTP code'})
    expect((await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data).toEqual([])
  })

  it('verifies without a fresh challenge using the latest bundle, and refuses a bundle sealed to an older one', async () => {
    const {emailCredentialId} = await fx.api.createCustomer()
    const first = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
    await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
    const key = generateP256KeyPair()
    const stale = await encryptOtpBundle({
      targetBundle: first.body.otpEncryptionTargetBundle,
      otpCode: '000000',
      publicKey: bytesToHex(key.publicKeyCompressed),
    })
    const r = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, {
      body: {type: 'EMAIL_OTP', encryptedOtpBundle: stale},
    })
    expect(r.status).toBe(401)
    expect(r.body.reason).toMatch(/latest challenge/)
    expect(r.body.details).toEqual({replacedByNewerChallenge: true})
  })

  it('requires the stamp of the TEK sealed in the bundle', async () => {
    const {emailCredentialId} = await fx.api.createCustomer()
    const ch = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
    const tek = generateP256KeyPair()
    const body = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtpBundle({
        targetBundle: ch.body.otpEncryptionTargetBundle,
        otpCode: '000000',
        publicKey: bytesToHex(tek.publicKeyCompressed),
      }),
    }
    const {leg1, leg2} = await fx.api.signed(
      'POST',
      `/auth/credentials/${emailCredentialId}/verify`,
      body,
      generateP256KeyPair(),
    )
    expect(leg1.body).toMatchObject({type: 'EMAIL_OTP', requestId: expect.stringMatching(/^Request:/)})
    expect(leg2.status).toBe(401)
    expect(leg2.body.code).toBe('WALLET_SIGNATURE_INVALID')
  })

  it('an OTP past embeddedWalletConfig.expirationSeconds is refused with a reason saying to request a new one', async () => {
    await fx.api.call('PATCH', '/config', {body: {embeddedWalletConfig: {expirationSeconds: 1}}})
    try {
      const {emailCredentialId} = await fx.api.createCustomer()
      const ch = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
      const key = generateP256KeyPair()
      const bundle = await encryptOtpBundle({
        targetBundle: ch.body.otpEncryptionTargetBundle,
        otpCode: '000000',
        publicKey: bytesToHex(key.publicKeyCompressed),
      })
      await new Promise((r) => setTimeout(r, 1100))
      const r = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, {
        body: {type: 'EMAIL_OTP', encryptedOtpBundle: bundle},
      })
      expect(r.status).toBe(401)
      expect(r.body.reason).toMatch(/has expired; request a new one/)
    } finally {
      await fx.api.call('PATCH', '/config', {body: {embeddedWalletConfig: {expirationSeconds: 300}}})
    }
  })

  it('verify leg 2 may answer PROCESSING; the session appears when it settles and the re-send returns it', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const ch = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
    const tek = generateP256KeyPair()
    const body = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtpBundle({
        targetBundle: ch.body.otpEncryptionTargetBundle,
        otpCode: '000000',
        publicKey: bytesToHex(tek.publicKeyCompressed),
      }),
    }
    await fx.api.setSandbox({walletProcessingCount: 1, walletProcessingDelayMs: 100})
    const {leg1, leg2, raw, stampHeader} = await fx.api.signed(
      'POST',
      `/auth/credentials/${emailCredentialId}/verify`,
      body,
      tek,
    )
    expect(leg2.body.status).toBe('PROCESSING')
    await new Promise((r) => setTimeout(r, 300))
    const listed = (await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data
    expect(listed).toEqual([expect.objectContaining({publicKey: bytesToHex(tek.publicKeyCompressed)})])
    const resend = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, {
      raw,
      headers: {'service-wallet-signature': stampHeader, 'request-id': leg1.body.requestId},
    })
    expect(resend.status).toBe(200)
    expect(resend.body.id).toBe(listed[0].id)
  })

  it('rate limits rapid challenge re-issues with 429 and Retry-After', async () => {
    await fx.api.setSandbox({challengeMinIntervalMs: 5000})
    try {
      const {emailCredentialId} = await fx.api.createCustomer()
      expect((await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)).status).toBe(200)
      const again = await fx.api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)
      expect(again.status).toBe(429)
      expect(again.body.code).toBe('RATE_LIMITED')
      expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(5)
    } finally {
      await fx.api.setSandbox({challengeMinIntervalMs: 0})
    }
  })
})

describe('export', () => {
  it('exports the mnemonic sealed to the client key in an envelope signed by the quorum key', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const s = await fx.api.otpLogin(emailCredentialId!)
    const exportKey = generateP256KeyPair()
    const {leg1, leg2} = await fx.api.signed(
      'POST',
      `/internal-accounts/${accountId}/export`,
      {clientPublicKey: bytesToHex(exportKey.publicKeyUncompressed)},
      s.key,
    )
    expect(leg1.body.type).toBeUndefined()
    expect(leg2.status).toBe(200)
    expect(leg2.body.id).toBe(accountId)
    const out = await decryptExportBundle(leg2.body.encryptedWalletCredentials, exportKey.privateKey, {
      pinnedQuorumKey: await fx.api.quorumKey(),
    })
    expect(out.trust).toBe('pinned')
    expect(out.kind === 'mnemonic' && out.mnemonic).toBe(walletSeed(fx.sbx.emu, accountId))
  })

  it('refuses a compressed export key, and a session of another wallet', async () => {
    const a = await fx.api.createCustomer()
    const b = await fx.api.createCustomer()
    const sb = await fx.api.otpLogin(b.emailCredentialId!)
    const key = generateP256KeyPair()
    const bad = await fx.api.call('POST', `/internal-accounts/${a.accountId}/export`, {
      body: {clientPublicKey: bytesToHex(key.publicKeyCompressed)},
    })
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors[0].field).toBe('clientPublicKey')
    const {leg2} = await fx.api.signed(
      'POST',
      `/internal-accounts/${a.accountId}/export`,
      {clientPublicKey: bytesToHex(key.publicKeyUncompressed)},
      sb.key,
    )
    expect(leg2.status).toBe(401)
    expect(leg2.body.code).toBe('WALLET_SIGNATURE_INVALID')
    expect(leg2.body.reason).toMatch(/another wallet/)
  })
})
