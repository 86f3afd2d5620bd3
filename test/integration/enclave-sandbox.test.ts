import {statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {walletSeed} from '../../src/emulator/domain/wallet/state.js'
import {bytesToHex, decryptExportBundle, generateP256KeyPair} from '../../src/lib/wallet/index.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox()

describe('enclave state across restarts', () => {
  it('keeps the quorum key (0600), seeds and sessions; an export after restart still decrypts to the same seed', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const s = await fx.api.otpLogin(emailCredentialId!)
    const quorum = await fx.api.quorumKey()
    const seed = walletSeed(fx.sbx.emu, accountId)
    expect(statSync(join(fx.sbx.dir, 'quorum-key.hex')).mode & 0o777).toBe(0o600)
    await fx.restart()
    expect(await fx.api.quorumKey()).toBe(quorum)
    expect(walletSeed(fx.sbx.emu, accountId)).toBe(seed)
    const key = generateP256KeyPair()
    const {leg2} = await fx.api.signed(
      'POST',
      `/internal-accounts/${accountId}/export`,
      {clientPublicKey: bytesToHex(key.publicKeyUncompressed)},
      s.key,
    )
    expect(leg2.status).toBe(200)
    const out = await decryptExportBundle(leg2.body.encryptedWalletCredentials, key.privateKey, {
      pinnedQuorumKey: quorum,
    })
    expect(out.kind === 'mnemonic' && out.mnemonic).toBe(seed)
  })
})

describe('sandbox switches', () => {
  it('accepts the legacy literal signature only when legacySignatures is on', async () => {
    const {accountId} = await fx.api.createCustomer()
    const raw = '{"privateEnabled":true}'
    const tryLegacy = async () => {
      const leg1 = await fx.api.call('PATCH', `/internal-accounts/${accountId}`, {raw})
      return fx.api.call('PATCH', `/internal-accounts/${accountId}`, {
        raw,
        headers: {'service-wallet-signature': 'sandbox-valid-signature', 'request-id': leg1.body.requestId},
      })
    }
    expect((await tryLegacy()).status).toBe(401)
    await fx.api.setSandbox({legacySignatures: true})
    try {
      const r = await tryLegacy()
      expect([r.status, r.body.privateEnabled]).toEqual([200, true])
    } finally {
      await fx.api.setSandbox({legacySignatures: false})
    }
  })

  it('accepts the legacy passkey signature literal only when legacySignatures is on', async () => {
    const {SoftAuthenticator} = await import('../helpers/authenticator.js')
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const s = await fx.api.otpLogin(emailCredentialId!)
    const auth = new SoftAuthenticator()
    const {leg2} = await fx.api.signed(
      'POST',
      '/auth/credentials',
      {type: 'PASSKEY', accountId, nickname: 'Key', challenge: 'bGVnYWN5', attestation: auth.register('bGVnYWN5')},
      s.key,
    )
    const clientPublicKey = bytesToHex(generateP256KeyPair().publicKeyCompressed)
    const attempt = async () => {
      const ch = await fx.api.call('POST', `/auth/credentials/${leg2.body.id}/challenge`, {body: {clientPublicKey}})
      const assertion = {...auth.assert('not-the-challenge'), signature: 'sandbox-valid-passkey-signature'}
      return fx.api.call('POST', `/auth/credentials/${leg2.body.id}/verify`, {
        body: {type: 'PASSKEY', assertion},
        headers: {'request-id': ch.body.requestId},
      })
    }
    expect((await attempt()).status).toBe(401)
    await fx.api.setSandbox({legacySignatures: true})
    try {
      expect((await attempt()).status).toBe(200)
    } finally {
      await fx.api.setSandbox({legacySignatures: false})
    }
  })

  it('validates the wallet knobs of PATCH /config, listing every bad one', async () => {
    const r = await fx.api.call('PATCH', '/config', {
      body: {
        sandbox: {
          walletProcessingRate: 2,
          walletProcessingCount: -1,
          passkeyOrigins: ['ftp://x'],
          sessionTtlSeconds: 0,
        },
      },
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'sandbox.passkeyOrigins.0',
      'sandbox.sessionTtlSeconds',
      'sandbox.walletProcessingCount',
      'sandbox.walletProcessingRate',
    ])
  })

  it('privacy applies to embedded wallets only', async () => {
    const c = await fx.api.call('POST', '/customers', {
      body: {customerType: 'INDIVIDUAL', fullName: 'Fiat Holder', currencies: ['USD']},
    })
    const fiat = fx.sbx.emu.db
      .all<{id: string; type: string; customerId: string}>('internalAccounts')
      .find((a) => a.customerId === c.body.id && a.type !== 'EMBEDDED_WALLET')!
    const r = await fx.api.call('PATCH', `/internal-accounts/${fiat.id}`, {body: {privateEnabled: true}})
    expect(r.status).toBe(400)
    expect(r.body.details.errors[0]).toMatchObject({
      field: 'privateEnabled',
      message: expect.stringMatching(/EMBEDDED_WALLET/),
    })
    const bad = await fx.api.call('PATCH', `/internal-accounts/${fiat.id}`, {body: {privateEnabled: 'yes', extra: 1}})
    expect(bad.status).toBe(400)
  })
})
