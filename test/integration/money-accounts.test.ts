import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ed25519} from '@noble/curves/ed25519.js'
import {base58} from '@scure/base'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {
  api,
  approvedCustomer,
  CHASE_USD_FLAGS,
  clabeAccountArgs,
  clabeEnding,
  evmWallet,
  externalAddArgs,
  quoteArgs,
} from '../helpers/money.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50, livenessDelayMs: 50})
})
afterAll(async () => sbx.stop())

const utf8 = (s: string) => new TextEncoder().encode(s)

const statusEvents = (id: string) =>
  sbx.emu.webhooks
    .list()
    .filter((e) => e.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && (e.data as {id: string}).id === id)
    .map((e) => (e.data as {status: string}).status)

describe('external accounts', () => {
  it('registers the spec kinds with local checks passing, and shows them', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const cases: string[][] = [
      [
        ...CHASE_USD_FLAGS,
        '--intermediary-bank-name',
        'Citi',
        '--intermediary-routing-number',
        '021000089',
        '--fi-to-fi',
        'Attn wire desk',
        '--beneficiary-name',
        'Ada Lovelace',
      ],
      [
        '--type',
        'EUR_ACCOUNT',
        '--iban',
        'DE89370400440532013000',
        '--swift',
        'COBADEFFXXX',
        '--beneficiary-name',
        'Ada Lovelace',
        '--beneficiary-country',
        'DE',
      ],
      [
        '--type',
        'BRL_ACCOUNT',
        '--pix-key',
        '52998224725',
        '--pix-key-type',
        'CPF',
        '--tax-id',
        '52998224725',
        '--beneficiary-name',
        'Joao Silva',
      ],
      [
        '--type',
        'GBP_ACCOUNT',
        '--sort-code',
        '401276',
        '--account-number',
        '12345678',
        '--beneficiary-name',
        'Ada Lovelace',
      ],
      ['--type', 'TRON_WALLET', '--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '--vasp', 'Binance'],
      [
        '--type',
        'L2_WALLET',
        '--address',
        'sparkrt1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
        '--currency',
        'BTC',
      ],
    ]
    for (const args of cases) {
      const r = await sbx.run(externalAddArgs(c.id, ...args, '--json'))
      expect(r.code, `${args[1]}: ${r.stderr}`).toBe(0)
      expect(r.json().accountInfo.accountType).toBe(args[1])
    }
    const wire = sbx.emu.db
      .all<{accountInfo: Record<string, unknown>}>('externalAccounts')
      .find((a) => a.accountInfo.accountType === 'USD_ACCOUNT')!
    expect(wire.accountInfo).toMatchObject({
      intermediaryRoutingNumber: '021000089',
      fiToFiInformation: 'Attn wire desk',
      beneficiary: {fullName: 'Ada Lovelace'},
    })
    const list = await sbx.run(['accounts', 'external', 'list', '--customer', c.id, '--json'])
    expect(list.json().data).toHaveLength(cases.length)
    const table = await sbx.run(['accounts', 'external', 'list', '--customer', c.id])
    expect(table.stdout).toContain('DE89370400440532013000')
  })

  it('409 DUPLICATE_EXTERNAL_ACCOUNT shows the existing account; BANK_ACCOUNT_VALIDATION_PENDING explains the window', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const args = clabeAccountArgs(c.id, clabeEnding('777'), 'Maria Garcia')
    const first = (await sbx.run([...args, '--json'])).json()
    const dup = await sbx.run(args)
    expect(dup.code).toBe(6)
    expect(dup.stdout).toContain(first.id)
    expect(dup.stderr).toContain('DUPLICATE_EXTERNAL_ACCOUNT')
    expect((await sbx.run([...args, '--json'])).json().error.details.existingAccount.id).toBe(first.id)

    await api(sbx, 'PATCH', '/config', {sandbox: {bankValidationMs: 60_000}})
    const us = externalAddArgs(
      c.id,
      '--type',
      'USD_ACCOUNT',
      '--account-number',
      '99887766',
      '--routing-number',
      '021000021',
      '--beneficiary-name',
      'Ada Lovelace',
      '--json',
    )
    const pending = await sbx.run(us)
    await api(sbx, 'PATCH', '/config', {sandbox: {bankValidationMs: 0}})
    expect(pending.json().status).toBe('PENDING')
    const again = await sbx.run(us)
    expect(again.code).toBe(6)
    expect(again.json().error).toMatchObject({code: 'BANK_ACCOUNT_VALIDATION_PENDING'})
    expect(again.json().error.hint).toMatch(/banking days/)
  })

  it('delete is refused while trusted (409 BENEFICIARY_TRUSTED explained), works after untrust with the SCA code', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const id = (await sbx.run(clabeAccountArgs(c.id, clabeEnding('321'), 'Maria Garcia', '--json'))).json().id
    // Trust is an SCA step: without SCA it is refused (409) and nothing is trusted.
    expect(await api(sbx, 'POST', `/customers/external-accounts/${id}/trust`)).toMatchObject({
      status: 409,
      body: {code: 'CONFLICT'},
    })
    await api(sbx, 'PATCH', '/config', {sandbox: {scaRequired: true}})
    try {
      const start = await api(sbx, 'POST', `/customers/external-accounts/${id}/trust`)
      expect(start.body.scaChallenge).toMatchObject({factor: 'SMS_OTP'})
      const confirmed = await api(sbx, 'POST', `/customers/external-accounts/${id}/trust/confirm`, {
        challengeId: start.body.scaChallenge.id,
        code: '123456',
      })
      expect(confirmed).toMatchObject({status: 200, body: {trusted: true}})
      const refused = await sbx.run(['accounts', 'external', 'delete', id, '--yes', '--json'])
      expect(refused.code).toBe(6)
      expect(refused.json().error).toMatchObject({code: 'BENEFICIARY_TRUSTED'})
      expect(refused.json().error.hint).toMatch(/untrust/)
      const noCode = await sbx.run(['accounts', 'external', 'untrust', id, '--yes', '--json'])
      expect(noCode.code).toBe(2)
      expect(noCode.json().error).toMatchObject({code: 'SCA_CODE_REQUIRED'})
      const untrust = await sbx.run(['accounts', 'external', 'untrust', id, '--code', '123456', '--yes', '--json'])
      expect(untrust.json()).toEqual({id, trusted: false})
    } finally {
      await api(sbx, 'PATCH', '/config', {sandbox: {scaRequired: false}})
    }
    expect((await sbx.run(['accounts', 'external', 'delete', id, '--yes', '--json'])).code).toBe(0)
    expect((await sbx.run(['accounts', 'external', 'get', id, '--json'])).code).toBe(5)
  })
})

describe('ownership verification', () => {
  it('WALLET_SIGNATURE with a real EVM key activates the wallet; a wrong key leaves it UNVERIFIED', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const wallet = evmWallet()
    const add = await sbx.run(
      externalAddArgs(
        c.id,
        '--type',
        'ETHEREUM_WALLET',
        '--currency',
        'USDC',
        '--address',
        wallet.address,
        '--ownership',
        'FIRST_PARTY',
        '--json',
      ),
    )
    expect(add.json().status).toBe('PENDING_OWNERSHIP_VERIFICATION')
    const id = add.json().id

    // Wrong key first: refused (exit 4) and the account drops to UNVERIFIED.
    const file = join(sbx.dir, 'msg.txt')
    const ch = await sbx.run([
      'accounts',
      'external',
      'verify-ownership',
      id,
      '--method',
      'WALLET_SIGNATURE',
      '--message-out',
      file,
    ])
    expect(ch.code, ch.stderr).toBe(0)
    const message = readFileSync(file, 'utf8')
    expect(ch.stdout).toBe(message) // stdout carries the message exactly, nothing added
    expect(message).toContain(wallet.address)
    const wrong = await sbx.run([
      'accounts',
      'external',
      'submit-signature',
      id,
      '--signature',
      evmWallet().sign(message),
      '--json',
    ])
    expect(wrong.code).toBe(4)
    expect(wrong.json().error.code).toBe('INVALID_SIGNATURE')
    expect((await sbx.run(['accounts', 'external', 'get', id, '--json'])).json().status).toBe('UNVERIFIED')

    // A new challenge returns it to pending; the right key verifies synchronously.
    const fresh = await sbx.run([
      'accounts',
      'external',
      'verify-ownership',
      id,
      '--method',
      'WALLET_SIGNATURE',
      '--json',
    ])
    const m2 = fresh.json().messageToSign as string
    expect(m2).not.toBe(message)
    const stale = await sbx.run([
      'accounts',
      'external',
      'submit-signature',
      id,
      '--signature',
      wallet.sign(message),
      '--json',
    ])
    expect(stale.code).toBe(4) // a signature over the abandoned challenge no longer counts
    await sbx.run([
      'accounts',
      'external',
      'verify-ownership',
      id,
      '--method',
      'WALLET_SIGNATURE',
      '--message-out',
      file,
    ])
    const ok = await sbx.run([
      'accounts',
      'external',
      'submit-signature',
      id,
      '--signature',
      wallet.sign(readFileSync(file, 'utf8')),
      '--json',
    ])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.json().status).toBe('ACTIVE')
    expect(statusEvents(id)).toEqual([
      'UNVERIFIED',
      'PENDING_OWNERSHIP_VERIFICATION',
      'UNVERIFIED',
      'PENDING_OWNERSHIP_VERIFICATION',
      'ACTIVE',
    ])
    const done = await sbx.run([
      'accounts',
      'external',
      'verify-ownership',
      id,
      '--method',
      'WALLET_SIGNATURE',
      '--json',
    ])
    expect(done.code).toBe(6) // already verified
  })

  it('WALLET_SIGNATURE with a Solana Ed25519 key; kinds that cannot be verified are refused for that method', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const sk = ed25519.utils.randomSecretKey()
    const address = base58.encode(ed25519.getPublicKey(sk))
    const id = (await sbx.run(externalAddArgs(c.id, '--type', 'SOLANA_WALLET', '--address', address, '--json'))).json()
      .id
    const msg = (
      await sbx.run(['accounts', 'external', 'verify-ownership', id, '--method', 'WALLET_SIGNATURE', '--json'])
    ).json().messageToSign
    const ok = await sbx.run([
      'accounts',
      'external',
      'submit-signature',
      id,
      '--signature',
      base58.encode(ed25519.sign(utf8(msg), sk)),
      '--json',
    ])
    expect(ok.json().status).toBe('ACTIVE')

    const l2 = (
      await sbx.run(
        externalAddArgs(
          c.id,
          '--type',
          'L2_WALLET',
          '--currency',
          'BTC',
          '--address',
          'sparkrt1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhq',
          '--json',
        ),
      )
    ).json()
    expect(l2.status).toBe('PENDING_OWNERSHIP_VERIFICATION')
    const refused = await sbx.run([
      'accounts',
      'external',
      'verify-ownership',
      l2.id,
      '--method',
      'WALLET_SIGNATURE',
      '--json',
    ])
    expect(refused.code).toBe(2)
    expect(refused.json().error.details.errors[0]).toMatchObject({field: 'method'})
    expect(refused.json().error.details.errors[0].message).toMatch(/EVM and Solana only\); use LIVENESS/)
  })

  it('LIVENESS: --wait follows the hosted check to ACTIVE', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const wallet = evmWallet()
    const id = (
      await sbx.run(externalAddArgs(c.id, '--type', 'BASE_WALLET', '--address', wallet.address, '--json'))
    ).json().id
    const waiting = sbx.run([
      'accounts',
      'external',
      'verify-ownership',
      id,
      '--method',
      'LIVENESS',
      '--wait',
      '--json',
    ])
    let token: string | undefined
    for (let i = 0; i < 100 && !token; i++) {
      token = sbx.emu.db.get<{challenge?: {token?: string}}>('externalAccounts', id)?.challenge?.token
      await new Promise((r) => setTimeout(r, 50))
    }
    const page = await fetch(`${sbx.url}/sandbox/hosted/liveness/${token}`)
    expect(await page.text()).toContain(id)
    const done = await fetch(`${sbx.url}/sandbox/hosted/liveness/${token}/complete`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: '{"result":"PASS"}',
    })
    expect(done.status).toBe(202)
    const r = await waiting
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({id, status: 'ACTIVE'})
    expect(r.stderr).toMatch(/abandons/)
    expect(statusEvents(id)).toEqual(['ACTIVE'])
  })

  it('LIVENESS: a new challenge abandons the old link; a failed check leaves UNVERIFIED, a new challenge returns it to pending (one event each)', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const id = (
      await sbx.run(externalAddArgs(c.id, '--type', 'POLYGON_WALLET', '--address', evmWallet().address, '--json'))
    ).json().id
    const first = (
      await sbx.run(['accounts', 'external', 'verify-ownership', id, '--method', 'LIVENESS', '--json'])
    ).json()
    const second = (
      await sbx.run(['accounts', 'external', 'verify-ownership', id, '--method', 'LIVENESS', '--json'])
    ).json()
    expect(second.token).not.toBe(first.token)
    const stale = await fetch(`${first.verificationLink}/complete`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: '{"result":"PASS"}',
    })
    expect(stale.status).toBe(404) // the abandoned link no longer counts
    const failed = await fetch(`${second.verificationLink}/complete`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: '{"result":"FAIL"}',
    })
    expect(failed.status).toBe(202)
    const status = () => sbx.emu.db.get<{status: string}>('externalAccounts', id)!.status
    for (let i = 0; i < 100 && status() !== 'UNVERIFIED'; i++) await new Promise((r) => setTimeout(r, 20))
    expect((await sbx.run(['accounts', 'external', 'get', id, '--json'])).json().status).toBe('UNVERIFIED')
    expect(
      (await sbx.run(['accounts', 'external', 'verify-ownership', id, '--method', 'LIVENESS', '--json'])).code,
    ).toBe(0)
    expect(status()).toBe('PENDING_OWNERSHIP_VERIFICATION')
    expect(statusEvents(id)).toEqual(['UNVERIFIED', 'PENDING_OWNERSHIP_VERIFICATION'])
  })

  it('challenge re-issues are rate limited (429 with Retry-After, exit 7)', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const id = (
      await sbx.run(externalAddArgs(c.id, '--type', 'POLYGON_WALLET', '--address', evmWallet().address, '--json'))
    ).json().id
    for (let i = 0; i < 10; i++)
      expect(
        (await api(sbx, 'POST', `/customers/external-accounts/${id}/challenge`, {method: 'LIVENESS'})).status,
      ).toBe(201)
    const r = await sbx.run(['accounts', 'external', 'verify-ownership', id, '--method', 'LIVENESS', '--json'])
    expect(r.code).toBe(7)
    expect(r.json().error).toMatchObject({code: 'RATE_LIMITED', status: 429})
    expect(r.json().error.details.retryAfterSeconds).toBeGreaterThan(0)
  })

  it('a destination pending verification is usable below the threshold and refused above it', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 500_000})
    const id = (
      await sbx.run(
        externalAddArgs(
          c.id,
          '--type',
          'ETHEREUM_WALLET',
          '--currency',
          'USDC',
          '--address',
          evmWallet().address,
          '--json',
        ),
      )
    ).json().id
    const small = await sbx.run(quoteArgs(c.account('USD'), id, '--send', '500', '--json'))
    expect(small.code, small.stderr).toBe(0)
    const big = await sbx.run(quoteArgs(c.account('USD'), id, '--send', '2000', '--json'))
    expect(big.code).toBe(1)
    expect(big.json().error).toMatchObject({code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED'})
    expect(big.json().error.hint).toMatch(/verify-ownership/)
  })
})
