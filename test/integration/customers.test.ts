import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {individualArgs} from '../helpers/kyc.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

describe('customers, end to end against the local sandbox', () => {
  it('creates an individual and the sandbox holds it with an internal account per currency', async () => {
    const r = await sbx.run(
      individualArgs(
        'Ada Lovelace',
        '--email',
        'ada@example.com',
        '--currency',
        'USD',
        '--currency',
        'MXN',
        '--platform-id',
        'ada-1',
        '--json',
      ),
    )
    expect(r.code).toBe(0)
    const c = r.json()
    expect(c.id).toMatch(/^Customer:/)
    expect(c).toMatchObject({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      kycStatus: 'UNVERIFIED',
      platformCustomerId: 'ada-1',
    })
    expect(c.contactVerification).toBeUndefined()
    const stored = sbx.emu.db.get<{fullName: string}>('customers', c.id)
    expect(stored?.fullName).toBe('Ada Lovelace')
    const accounts = sbx.emu.db
      .all<{customerId: string; type: string; balance: {currency: {code: string}}}>('internalAccounts')
      .filter((a) => a.customerId === c.id)
    // Plus the embedded wallet every customer gets (sandbox-behaviour 14), in USDB.
    expect(
      accounts.map((a) => `${a.type === 'EMBEDDED_WALLET' ? 'wallet ' : ''}${a.balance.currency.code}`).sort(),
    ).toEqual(['MXN', 'USD', 'wallet USDB'])
  })

  it('creates a business from --data @file with typed flags overriding it', async () => {
    const file = join(sbx.dir, 'biz.json')
    writeFileSync(
      file,
      JSON.stringify({
        customerType: 'BUSINESS',
        businessInfo: {legalName: 'Old Name', country: 'MX', taxId: 'ABC010203XY9', incorporatedOn: '2019-05-01'},
      }),
    )
    const r = await sbx.run(['customers', 'create', '--data', `@${file}`, '--legal-name', 'Acme SA de CV', '--json'])
    expect(r.code).toBe(0)
    expect(r.json()).toMatchObject({
      customerType: 'BUSINESS',
      kybStatus: 'UNVERIFIED',
      businessInfo: {legalName: 'Acme SA de CV', country: 'MX', taxId: 'ABC010203XY9'},
    })
  })

  it('refuses bad input before any request, naming every bad field (exit 2)', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'customers',
      'create',
      '--type',
      'business',
      '--country',
      'US',
      '--tax-id',
      '99',
      '--incorporated-on',
      '2021-02-30',
      '--email',
      'nope',
      '--json',
    ])
    expect(r.code).toBe(2)
    const err = r.json().error
    expect(err.code).toBe('INVALID_INPUT')
    // The flag left out is named by its flag (issue 21 item 3); the values given but wrong by their field.
    expect(err.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      '--legal-name',
      'businessInfo.incorporatedOn',
      'businessInfo.taxId',
      'email',
    ])
    expect(sbx.requestCount()).toBe(before)
  })

  it.each([
    [['customers', 'get', 'Quote:abc'], 'customerId'],
    [['customers', 'create', '--type', 'individual', '--nationality', 'XX'], 'nationality'],
    [['customers', 'create', '--type', 'individual', '--birth-date', '1990-13-01'], 'birthDate'],
    [['customers', 'list', '--created-after', 'yesterday'], 'createdAfter'],
  ])('bad %j is refused locally (exit 2, field %s named)', async (args, field) => {
    const before = sbx.requestCount()
    const r = await sbx.run([...args, '--json'])
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })

  it('refuses an unknown flag and a bad JSON file with exit 2 and a message on stderr', async () => {
    const before = sbx.requestCount()
    const unknown = await sbx.run(['customers', 'create', '--type', 'individual', '--nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Nonexistent flag: --nope')
    expect(unknown.stdout).toBe('')
    const file = join(sbx.dir, 'bad.json')
    writeFileSync(file, '{"customerType": ')
    const bad = await sbx.run(['customers', 'create', '--data', `@${file}`])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/is not valid JSON/)
    const missing = await sbx.run(['customers', 'create'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--type')
    expect(sbx.requestCount()).toBe(before)
  })

  it('the sandbox itself lists every invalid field at once and stores nothing', async () => {
    const count = sbx.emu.db.count('customers')
    const r = await sbx.run([
      'api',
      'POST',
      '/customers',
      '--data',
      JSON.stringify({
        customerType: 'BUSINESS',
        email: 'x',
        businessInfo: {country: 'BR', taxId: '11.222.333/0001-00', incorporatedOn: 'soon'},
      }),
      '--json',
    ])
    expect(r.code).toBe(2)
    const fields = r
      .json()
      .error.details.errors.map((e: {field: string}) => e.field)
      .sort()
    expect(fields).toEqual(['businessInfo.incorporatedOn', 'businessInfo.legalName', 'businessInfo.taxId', 'email'])
    expect(sbx.emu.db.count('customers')).toBe(count)
  })

  it('409 CONFLICT on a platformCustomerId collision, with a hint', async () => {
    const r = await sbx.run(individualArgs('Ada Again', '--platform-id', 'ada-1'))
    expect(r.code).toBe(6)
    expect(r.stderr).toContain('CONFLICT')
    expect(r.stderr).toMatch(/Hint: /)
  })

  it('gets, updates, lists with paging and --all, and deletes', async () => {
    const created = (await sbx.run(individualArgs('Grace Hopper', '--json'))).json()
    const got = (await sbx.run(['customers', 'get', created.id, '--json'])).json()
    expect(got.fullName).toBe('Grace Hopper')
    const upd = await sbx.run(['customers', 'update', created.id, '--nationality', 'US', '--json'])
    expect(upd.code).toBe(0)
    expect(upd.json().nationality).toBe('US')
    const page = (await sbx.run(['customers', 'list', '--limit', '1', '--json'])).json()
    expect(page.data).toHaveLength(1)
    expect(page.hasMore).toBe(true)
    const all = (await sbx.run(['customers', 'list', '--all', '--limit', '1', '--json'])).json()
    expect(all.data.length).toBe(sbx.emu.db.all<{isDeleted: boolean}>('customers').filter((c) => !c.isDeleted).length)
    expect(all.hasMore).toBe(false)
    const del = await sbx.run(['customers', 'delete', created.id, '--yes', '--json'])
    expect(del.code).toBe(0)
    expect(del.json().isDeleted).toBe(true)
    const again = await sbx.run(['customers', 'delete', created.id, '--yes'])
    expect(again.code).toBe(5)
  })

  it('shows the end-user terms and records acceptance; an unknown version is refused by the sandbox', async () => {
    const created = (
      await sbx.run(['customers', 'create', '--type', 'individual', '--full-name', 'Terms Tess', '--json'])
    ).json()
    const terms = (await sbx.run(['customers', 'terms', '--json'])).json()
    expect(terms.version).toBe('2025-10-01')
    const accepted = await sbx.run(['customers', 'terms', created.id, '--accept', '--ip', '203.0.113.7', '--json'])
    expect(accepted.code).toBe(0)
    expect(accepted.json().endUserTermsConsent).toMatchObject({
      termsVersion: '2025-10-01',
      ipAddress: '203.0.113.7',
      acceptanceMethod: 'CLICK_TO_ACCEPT',
    })
    const unknown = await sbx.run(['customers', 'terms', created.id, '--accept', '--version', '1999-01-01', '--json'])
    expect(unknown.code).toBe(1)
    expect(unknown.json().error.code).toBe('END_USER_TERMS_VERSION_NOT_FOUND')
  })

  it("issue 29 F14: the terms url is a public hosted page, like the KYC link: no credentials asked of the end user's browser", async () => {
    const terms = (await sbx.run(['customers', 'terms', '--json'])).json()
    expect(terms.url).toBe(`${sbx.url}/sandbox/hosted/terms/2025-10-01`)
    const page = await fetch(terms.url) // no Authorization header: a browser's request
    expect(page.status).toBe(200)
    expect(page.headers.get('www-authenticate')).toBeNull()
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('version 2025-10-01')
    const unknown = await fetch(`${sbx.url}/sandbox/hosted/terms/1999-01-01`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('www-authenticate')).toBeNull()
  })

  it('401 with a wrong secret is exit 4, and the secret never appears in --debug output', async () => {
    const secret = sbx.env.SVC_CLIENT_SECRET
    const ok = await svc(['customers', 'list', '--debug', '--json'], {env: sbx.env})
    expect(ok.code).toBe(0)
    expect(ok.stderr).toContain('authorization: [REDACTED]')
    expect(ok.stdout + ok.stderr).not.toContain(secret)
    expect(ok.stdout + ok.stderr).not.toContain(Buffer.from(`${sbx.env.SVC_TOKEN_ID}:${secret}`).toString('base64'))
    const bad = await svc(['customers', 'list', '--debug'], {
      env: {...sbx.env, SVC_CLIENT_SECRET: 'wrong-secret-value'},
    })
    expect(bad.code).toBe(4)
    expect(bad.stdout + bad.stderr).not.toContain('wrong-secret-value')
  })

  it('an unknown command is exit 2: a JSON error document under --json, a message on stderr otherwise', async () => {
    const json = await sbx.run(['customers', 'nope', '--json'])
    expect(json.code).toBe(2)
    expect(json.json().error).toMatchObject({code: 'USAGE', reason: '"customers nope" is not an svc command'})
    const human = await sbx.run(['nope'])
    expect(human.code).toBe(2)
    expect(human.stdout).toBe('')
    expect(human.stderr).toContain('"nope" is not an svc command')
  })
})
