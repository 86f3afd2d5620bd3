import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf, type CliResult} from '../helpers/cli.js'
import {EnclaveClient} from '../helpers/enclave.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {api, approvedCustomer} from '../helpers/money.js'

let sbx: TestSandbox
let enclave: EnclaveClient
beforeAll(async () => {
  sbx = await startSandbox({challengeMinIntervalMs: 0})
  enclave = new EnclaveClient(sbx)
  const holder = await approvedCustomer(sbx, ['USD'])
  const issued = await api(sbx, 'POST', '/cards', {
    cardholderId: holder.id,
    platformCardId: 'delegated-keys-100',
    form: 'VIRTUAL',
    fundingSources: [holder.account('USD')],
  })
  expect(issued.status).toBe(201)
  card = issued.body.id
})
afterAll(async () => sbx.stop())

/** A real card (the sandbox now checks that the card exists): issued to an approved customer in beforeAll. */
let card = ''
const custodied = () => sbx.emu.db.all<{_privateKey: string}>('delegatedKeys').map((k) => k._privateKey)
const keystoreText = () => {
  const dir = join(sbx.env.SVC_CONFIG_DIR, 'keystore')
  return readdirSync(dir)
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('\n')
}

async function loggedInWallet(): Promise<string> {
  const {accountId} = await enclave.createCustomer()
  const r = await sbx.run(['wallet', 'login', accountId, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return accountId
}

function expectNoPrivateKey(r: CliResult, label: string) {
  for (const k of custodied()) {
    expect(r.stdout.includes(k), `${label}: delegated private key on stdout`).toBe(false)
    expect(r.stderr.includes(k), `${label}: delegated private key on stderr`).toBe(false)
  }
}

describe('svc wallet delegated-keys', () => {
  it('journey: create (three signed legs) -> list -> get -> revoke; the key store keeps the public record only', async () => {
    const account = await loggedInWallet()
    const posts = () =>
      sbx.emu.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/auth/delegated-keys')).length
    const before = posts()
    const created = await sbx.run([
      'wallet',
      'delegated-keys',
      'create',
      '--card',
      card,
      '--account',
      account,
      '--nickname',
      'Card payments key',
      '--json',
      '--debug',
    ])
    expect(created.code, created.stderr).toBe(0)
    const key = created.json()
    expect(key).toMatchObject({cardId: card, accountId: account, nickname: 'Card payments key', status: 'ACTIVE'})
    expect(key.id).toMatch(/^DelegatedKey:/)
    expect(key.fundingSourceId).toMatch(/^CardFundingSource:/)
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/)
    expect(posts() - before).toBe(3) // 202 -> signed 202 -> signed 201
    expect(created.stderr).toContain('service-wallet-signature: [REDACTED]')
    expect(key._privateKey).toBeUndefined()
    expectNoPrivateKey(created, 'create --debug --json')

    const local = (await sbx.run(['wallet', 'keys', 'list', '--account', account, '--json'])).json().data
    expect(local.find((k: {kind: string}) => k.kind === 'delegated')).toMatchObject({
      credentialId: key.id,
      credentialType: 'DELEGATED_KEY',
      cardId: card,
      publicKey: key.publicKey,
      encrypted: false,
    })
    for (const k of custodied()) expect(keystoreText()).not.toContain(k)

    const list = await sbx.run(['wallet', 'delegated-keys', 'list', '--account', account, '--json'])
    expect(list.json().data).toEqual([expect.objectContaining({id: key.id, status: 'ACTIVE'})])
    expectNoPrivateKey(list, 'list')
    const byFunding = await sbx.run([
      'wallet',
      'delegated-keys',
      'list',
      '--funding-source',
      key.fundingSourceId,
      '--json',
    ])
    expect(byFunding.json().data.map((k: {id: string}) => k.id)).toEqual([key.id])
    const got = await sbx.run(['wallet', 'delegated-keys', 'get', key.id, '--json', '--debug'])
    expect(got.json()).toMatchObject({id: key.id, status: 'ACTIVE'})
    expectNoPrivateKey(got, 'get --debug')

    // One ACTIVE key per card funding source: refused at the first leg, nothing stored.
    const count = sbx.emu.db.count('delegatedKeys')
    const twice = await sbx.run([
      'wallet',
      'delegated-keys',
      'create',
      '--card',
      card,
      '--account',
      account,
      '--nickname',
      'again',
      '--json',
    ])
    expect(twice.code).toBe(6)
    expect(errorOf(twice)).toMatchObject({status: 409, code: 'CONFLICT', details: {delegatedKeyId: key.id}})
    expect(errorOf(twice).hint).toMatch(/ACTIVE delegated key/)
    expect(sbx.emu.db.count('delegatedKeys')).toBe(count)

    const revoked = await sbx.run(['wallet', 'delegated-keys', 'revoke', key.id, '--yes', '--json'])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.json()).toEqual({revoked: key.id, localRecordRemoved: true})
    expect((await sbx.run(['wallet', 'delegated-keys', 'get', key.id, '--json'])).json().status).toBe('REVOKED')
    expect(
      (await sbx.run(['wallet', 'keys', 'list', '--account', account, '--json']))
        .json()
        .data.some((k: {kind: string}) => k.kind === 'delegated'),
    ).toBe(false)

    const stored = sbx.emu.db.get('delegatedKeys', key.id)
    const again = await sbx.run(['wallet', 'delegated-keys', 'revoke', key.id, '--yes', '--json'])
    expect(again.code).toBe(6)
    expect(errorOf(again)).toMatchObject({status: 400, code: 'DELEGATED_KEY_NOT_ACTIVE', details: {status: 'REVOKED'}})
    expect(errorOf(again).hint).toMatch(/Only an ACTIVE delegated key/)
    expect(sbx.emu.db.get('delegatedKeys', key.id)).toEqual(stored)

    // The slot is free again.
    const next = await sbx.run([
      'wallet',
      'delegated-keys',
      'create',
      '--card',
      card,
      '--account',
      account,
      '--nickname',
      'replacement',
      '--json',
    ])
    expect(next.code, next.stderr).toBe(0)
    expect(next.json().fundingSourceId).toBe(key.fundingSourceId)
  })

  it('refusals: no wallet session (exit 4, nothing sent), unknown key (exit 5), bad input (exit 2, nothing sent)', async () => {
    const {accountId} = await enclave.createCustomer() // no login: no session key
    const before = {requests: sbx.requestCount(), keys: sbx.emu.db.count('delegatedKeys')}
    const noSession = await sbx.run([
      'wallet',
      'delegated-keys',
      'create',
      '--card',
      card,
      '--account',
      accountId,
      '--nickname',
      'x',
      '--json',
    ])
    expect(noSession.code).toBe(4)
    expect(errorOf(noSession)).toMatchObject({code: 'WALLET_SESSION_REQUIRED'})
    expect(errorOf(noSession).hint).toContain(`svc wallet login ${accountId}`)
    const cases: Array<[string[], string[]]> = [
      [
        ['wallet', 'delegated-keys', 'create', '--card', 'Customer:x', '--account', accountId, '--nickname', 'x'],
        ['cardId'],
      ],
      [['wallet', 'delegated-keys', 'create', '--card', card, '--account', accountId, '--nickname', ''], ['nickname']],
      [
        ['wallet', 'delegated-keys', 'create', '--card', card, '--account', accountId, '--nickname', 'n'.repeat(257)],
        ['nickname'],
      ],
      [['wallet', 'delegated-keys', 'list'], ['accountId']],
      [['wallet', 'delegated-keys', 'get', 'Session:abc'], ['delegatedKeyId']],
    ]
    for (const [args, fields] of cases) {
      const r = await sbx.run([...args, '--json'])
      expect(r.code, args.join(' ')).toBe(2)
      expect(
        (errorOf(r).details.errors as Array<{field: string}>).map((e) => e.field),
        args.join(' '),
      ).toEqual(fields)
    }
    expect(sbx.requestCount()).toBe(before.requests)
    expect(sbx.emu.db.count('delegatedKeys')).toBe(before.keys)
    const unknown = await sbx.run([
      'wallet',
      'delegated-keys',
      'revoke',
      'DelegatedKey:00000000-0000-0000-0000-000000000000',
      '--yes',
      '--json',
    ])
    expect(unknown.code).toBe(5)
    expect(errorOf(unknown)).toMatchObject({status: 404, code: 'NOT_FOUND'})
  })

  it('--dry-run shows the request and sends nothing', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'wallet',
      'delegated-keys',
      'create',
      '--card',
      card,
      '--account',
      'InternalAccount:abc',
      '--nickname',
      'x',
      '--dry-run',
      '--json',
    ])
    expect(r.code).toBe(0)
    expect(r.json()).toMatchObject({
      dryRun: true,
      request: {method: 'POST', body: {cardId: card, internalAccountId: 'InternalAccount:abc', nickname: 'x'}},
    })
    expect(sbx.requestCount()).toBe(before)
  })
})
