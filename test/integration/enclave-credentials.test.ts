import {describe, expect, it} from 'vitest'
import {generateP256KeyPair} from '../../src/lib/wallet/index.js'
import {SoftAuthenticator} from '../helpers/authenticator.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox()

const creds = async (accountId: string) =>
  (await fx.api.call('GET', `/auth/credentials?accountId=${accountId}`)).body.data as Array<{
    id: string
    type: string
    nickname: string
  }>
const sessions = async (accountId: string) =>
  (await fx.api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data as Array<{id: string}>

const withPhone = () => fx.httpWallet({phoneNumber: `+1555${Math.floor(1_000_000 + Math.random() * 8_999_999)}`})

async function addSms(accountId: string, signer: ReturnType<typeof generateP256KeyPair>) {
  const {leg1, leg2} = await fx.api.signed('POST', '/auth/credentials', {type: 'SMS_OTP', accountId}, signer)
  expect(leg1.body.type).toBe('SMS_OTP')
  expect(leg2.status).toBe(201)
  return leg2.body
}

describe('adding credentials', () => {
  it('adds SMS_OTP through the signed retry; it comes with a target bundle and logs in over the phone channel', async () => {
    const {accountId, customerId, s} = await withPhone()
    const sms = await addSms(accountId, s.key)
    const phone = fx.sbx.emu.db.get<{phoneNumber: string}>('customers', customerId)!.phoneNumber
    expect(sms).toMatchObject({
      type: 'SMS_OTP',
      accountId,
      nickname: phone,
      otpEncryptionTargetBundle: expect.any(String),
    })
    const smsSession = await fx.api.otpLogin(sms.id)
    expect(smsSession.body).toMatchObject({type: 'SMS_OTP', credentialId: sms.id, nickname: phone})
    expect((await creds(accountId)).map((c) => c.type)).toEqual(['EMAIL_OTP', 'SMS_OTP'])
  })

  it('enforces one EMAIL_OTP and one SMS_OTP per wallet, and needs a phone for SMS_OTP; nothing changes', async () => {
    const {accountId, s} = await withPhone()
    await addSms(accountId, s.key)
    const email = await fx.api.call('POST', '/auth/credentials', {body: {type: 'EMAIL_OTP', accountId}})
    expect([email.status, email.body.code]).toEqual([400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS'])
    const sms = await fx.api.call('POST', '/auth/credentials', {body: {type: 'SMS_OTP', accountId}})
    expect([sms.status, sms.body.code]).toEqual([400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS'])
    const noPhone = await fx.api.createCustomer()
    const r = await fx.api.call('POST', '/auth/credentials', {body: {type: 'SMS_OTP', accountId: noPhone.accountId}})
    expect(r.status).toBe(400)
    expect(r.body.details.errors[0]).toMatchObject({field: 'accountId', message: expect.stringMatching(/phoneNumber/)})
    expect(await creds(accountId)).toHaveLength(2)
  })

  it('needs an active session of the same wallet to add', async () => {
    const {accountId} = await withPhone()
    const other = await withPhone()
    const {leg2} = await fx.api.signed('POST', '/auth/credentials', {type: 'SMS_OTP', accountId}, other.s.key)
    expect([leg2.status, leg2.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID'])
    const {leg2: stranger} = await fx.api.signed(
      'POST',
      '/auth/credentials',
      {type: 'SMS_OTP', accountId},
      generateP256KeyPair(),
    )
    expect(stranger.body.reason).toMatch(/not the key of any session/)
    expect(await creds(accountId)).toHaveLength(1)
  })

  it('lists every invalid field of an add request at once', async () => {
    const r = await fx.api.call('POST', '/auth/credentials', {
      body: {
        type: 'PASSKEY',
        accountId: 'Customer:1',
        nickname: '',
        challenge: 'ok',
        attestation: {credentialId: '***'},
      },
    })
    expect(r.status).toBe(400)
    const fields = r.body.details.errors.map((e: {field: string}) => e.field).sort()
    expect(fields).toEqual(
      expect.arrayContaining([
        'accountId',
        'attestation.attestationObject',
        'attestation.clientDataJson',
        'attestation.credentialId',
        'nickname',
      ]),
    )
  })
})

describe('revoking credentials', () => {
  it('refuses the last credential with 400 at the first leg', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const r = await fx.api.call('DELETE', `/auth/credentials/${emailCredentialId}`)
    expect(r.status).toBe(400)
    expect(r.body.reason).toMatch(/only credential/)
    expect(await creds(accountId)).toHaveLength(1)
    expect((await fx.api.call('DELETE', '/auth/credentials/AuthMethod:nope')).body.code).toBe('AUTH_METHOD_NOT_FOUND')
  })

  it('needs a session from a different credential; then 204 and the credential sessions go with it', async () => {
    const {accountId, emailCredentialId, s} = await withPhone()
    const sms = await addSms(accountId, s.key)
    const smsSession = await fx.api.otpLogin(sms.id)
    const {leg1, leg2: own} = await fx.api.signed('DELETE', `/auth/credentials/${sms.id}`, undefined, smsSession.key)
    expect(leg1.body.type).toBe('SMS_OTP')
    expect([own.status, own.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID'])
    expect(own.body.reason).toMatch(/different credential/)
    const {leg2} = await fx.api.signed('DELETE', `/auth/credentials/${sms.id}`, undefined, s.key)
    expect(leg2.status).toBe(204)
    expect((await creds(accountId)).map((c) => c.id)).toEqual([emailCredentialId])
    expect((await sessions(accountId)).map((x) => x.id)).toEqual([s.id])
  })
})

describe('tied email and phone changes', () => {
  it('PATCH customer email with a tied EMAIL_OTP: 202, then the signed retry changes customer and credential together', async () => {
    const {accountId, customerId, s} = await withPhone()
    const body = {customerType: 'INDIVIDUAL', email: 'new-address@example.com'}
    const {leg1, leg2} = await fx.api.signed('PATCH', `/customers/${customerId}`, body, s.key)
    expect(Object.keys(leg1.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId'])
    expect(leg2.status).toBe(200)
    expect(leg2.body).toMatchObject({id: customerId, email: 'new-address@example.com'})
    expect((await creds(accountId))[0].nickname).toBe('new-address@example.com')
    // A non-contact field needs no signature.
    const plain = await fx.api.call('PATCH', `/customers/${customerId}`, {
      body: {customerType: 'INDIVIDUAL', fullName: 'Renamed'},
    })
    expect(plain.status).toBe(200)
  })

  it('409 EMAIL_OTP_CREDENTIAL_SET_CHANGED when credentials change between the legs; nothing changes', async () => {
    const {accountId, customerId, s} = await withPhone()
    const before = fx.sbx.emu.db.get<{email: string}>('customers', customerId)!.email
    const raw = JSON.stringify({customerType: 'INDIVIDUAL', email: 'moved@example.com'})
    const leg1 = await fx.api.call('PATCH', `/customers/${customerId}`, {raw})
    await addSms(accountId, s.key)
    const {stamp} = await import('../../src/lib/wallet/index.js')
    const r = await fx.api.call('PATCH', `/customers/${customerId}`, {
      raw,
      headers: {
        'service-wallet-signature': stamp(leg1.body.payloadToSign, s.key.privateKey),
        'request-id': leg1.body.requestId,
      },
    })
    expect([r.status, r.body.code]).toEqual([409, 'EMAIL_OTP_CREDENTIAL_SET_CHANGED'])
    expect(fx.sbx.emu.db.get<{email: string}>('customers', customerId)!.email).toBe(before)
    expect((await creds(accountId)).find((c) => c.type === 'EMAIL_OTP')!.nickname).toBe(before)
  })

  it('409 EMAIL_OTP_EMAIL_ALREADY_EXISTS when another EMAIL_OTP uses the address', async () => {
    const taken = await fx.api.createCustomer({email: 'taken@example.com'})
    expect(taken.emailCredentialId).toBeDefined()
    const {customerId} = await withPhone()
    const r = await fx.api.call('PATCH', `/customers/${customerId}`, {
      body: {customerType: 'INDIVIDUAL', email: 'taken@example.com'},
    })
    expect([r.status, r.body.code]).toEqual([409, 'EMAIL_OTP_EMAIL_ALREADY_EXISTS'])
  })

  it('PATCH phone with a tied SMS_OTP is signed too; without one it applies directly', async () => {
    const {accountId, customerId, s} = await withPhone()
    const direct = await fx.api.call('PATCH', `/customers/${customerId}`, {
      body: {customerType: 'INDIVIDUAL', phoneNumber: '+15550001111'},
    })
    expect(direct.status).toBe(200)
    await addSms(accountId, s.key)
    const {leg2} = await fx.api.signed(
      'PATCH',
      `/customers/${customerId}`,
      {customerType: 'INDIVIDUAL', phoneNumber: '+15550002222'},
      s.key,
    )
    expect(leg2.status).toBe(200)
    expect((await creds(accountId)).find((c) => c.type === 'SMS_OTP')!.nickname).toBe('+15550002222')
  })
})

describe('passkey registration limits', () => {
  it('PASSKEY_CREDENTIAL_ALREADY_EXISTS on a known credentialId; distinct passkeys are fine', async () => {
    const {accountId, s} = await withPhone()
    const auth = new SoftAuthenticator()
    const add = (a: SoftAuthenticator, challenge: string) => ({
      type: 'PASSKEY',
      accountId,
      nickname: 'Laptop (work)',
      challenge,
      attestation: a.register(challenge),
    })
    expect((await fx.api.signed('POST', '/auth/credentials', add(auth, 'Y2hhbGxlbmdlLTE'), s.key)).leg2.status).toBe(
      201,
    )
    expect(
      (await fx.api.signed('POST', '/auth/credentials', add(new SoftAuthenticator(), 'Y2hhbGxlbmdlLTI'), s.key)).leg2
        .status,
    ).toBe(201)
    const dup = await fx.api.call('POST', '/auth/credentials', {body: add(auth, 'Y2hhbGxlbmdlLTM')})
    expect([dup.status, dup.body.code]).toEqual([400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS'])
    expect((await creds(accountId)).filter((c) => c.type === 'PASSKEY')).toHaveLength(2)
  })
})
