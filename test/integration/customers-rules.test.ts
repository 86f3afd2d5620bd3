import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {loginArgs, type CliResult} from '../helpers/cli.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let auth: string
beforeAll(async () => {
  sbx = await startSandbox()
  auth = 'Basic ' + Buffer.from(`${sbx.env.SVC_TOKEN_ID}:${sbx.env.SVC_CLIENT_SECRET}`).toString('base64')
})
afterAll(async () => sbx.stop())

const create = async (name: string) =>
  (await sbx.run(['customers', 'create', '--type', 'individual', '--full-name', name, '--json'])).json() as {id: string}
const isDeleted = (id: string) => sbx.emu.db.get<{isDeleted: boolean}>('customers', id)?.isDeleted

/** Raw HTTP to the sandbox, to see exactly what it answers. */
async function http(method: string, path: string, body?: unknown, authorization: string | null = auth) {
  const res = await fetch(sbx.url + path, {
    method,
    headers: {
      ...(authorization ? {authorization} : {}),
      ...(body === undefined ? {} : {'content-type': 'application/json'}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {status: res.status, body: (await res.json()) as any}
}

/** The --json error document: stdout holds exactly it, with its five keys in order. */
function errorDoc(r: CliResult) {
  const doc = r.json()
  expect(Object.keys(doc)).toEqual(['error'])
  expect(Object.keys(doc.error)).toEqual(['status', 'code', 'reason', 'details', 'hint'])
  expect(r.stdout.trim().startsWith('{') && r.stdout.trim().endsWith('}')).toBe(true)
  return doc.error
}

describe('--json error document', () => {
  it('has the same shape for local refusals, usage errors and API errors, and nothing else on stdout', async () => {
    const before = sbx.requestCount()
    const local = errorDoc(await sbx.run(['customers', 'get', 'Quote:abc', '--json']))
    expect(local).toMatchObject({status: null, code: 'INVALID_INPUT', details: {errors: [{field: 'customerId'}]}})
    const usage = await sbx.run(['customers', 'create', '--type', 'individual', '--nope', '--json'])
    expect(usage.code).toBe(2)
    expect(errorDoc(usage)).toMatchObject({status: null, code: 'USAGE', details: {}})
    // issue 21 item 2: stderr carries the one line too, so a pipe into jq still shows the failure
    expect(usage.stderr).toBe(`Error: ${errorDoc(usage).reason}\n`)
    expect(sbx.requestCount()).toBe(before)

    const missing = await sbx.run(['customers', 'get', 'Customer:does-not-exist', '--json'])
    expect(missing.code).toBe(5)
    const api = errorDoc(missing)
    expect(api).toMatchObject({status: 404, code: 'USER_NOT_FOUND', details: {}})
    expect(api.hint).toMatch(/\w/)
    expect(missing.stderr).toBe(`Error: ${api.reason} (USER_NOT_FOUND, HTTP 404)\n`)
  })
})

describe('flag parse errors keep their reason on one line', () => {
  it.each([
    [['customers', 'list', '--limit', '0'], /^--limit: Expected an integer greater than or equal to 1/],
    [['customers', 'list', '--timeout', 'soon'], /^--timeout: "soon" is not a duration/],
    [['customers', 'get'], /^Missing 1 required arg: customerId/],
    [
      ['customers', 'create', '--type', 'robot'],
      /^--type: expected one of INDIVIDUAL, BUSINESS \(any case\), got "robot"$/,
    ],
  ])('%j: exit 2, nothing sent', async (args, reason) => {
    const before = sbx.requestCount()
    const r = await sbx.run([...args, '--json'])
    expect(r.code).toBe(2)
    const err = errorDoc(r)
    expect(err.reason).toMatch(reason)
    expect(err.reason).not.toContain('\n')
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('prompts never under CI or SVC_NO_INPUT', () => {
  it.each([[{CI: '1', SVC_NO_INPUT: undefined}], [{CI: undefined, SVC_NO_INPUT: '1'}]])(
    'names the missing flags instead of prompting (%j)',
    async (extra) => {
      const before = sbx.requestCount()
      const r = await sbx.run(['customers', 'create', '--json'], {env: extra})
      expect(r.code).toBe(2)
      expect(errorDoc(r).reason).toContain('--type')
      expect(sbx.requestCount()).toBe(before)
    },
  )
})

describe('delete confirmation rules', () => {
  it('off a TTY, even outside production, delete needs --yes: refused (exit 3), nothing sent', async () => {
    const c = await create('Local Delete')
    const before = sbx.requestCount()
    const r = await sbx.run(['customers', 'delete', c.id])
    expect([r.code, r.stdout]).toEqual([3, ''])
    expect(r.stderr).toContain(`Error: Refusing to delete ${c.id} without confirmation (no terminal to ask on)`)
    expect(r.stderr).toContain('Pass --yes (-y) to confirm non-interactively; nothing was sent.')
    expect(sbx.requestCount()).toBe(before)
    expect(isDeleted(c.id)).toBe(false)
    expect((await sbx.run(['customers', 'delete', c.id, '-y', '--json'])).code).toBe(0)
    expect(isDeleted(c.id)).toBe(true)
  })

  it('production (SVC_ENVIRONMENT) off a TTY: refused without --yes, nothing sent; with --yes, deleted under a PRODUCTION banner', async () => {
    const c = await create('Prod Delete')
    const before = sbx.requestCount()
    const refused = await sbx.run(['customers', 'delete', c.id, '--json'], {env: {SVC_ENVIRONMENT: 'production'}})
    expect(refused.code).toBe(3) // confirmation refused (design/product.md's exit-code table)
    expect(errorDoc(refused).hint).toContain('--yes')
    expect(sbx.requestCount()).toBe(before)
    expect(isDeleted(c.id)).toBe(false)

    const ok = await sbx.run(['customers', 'delete', c.id, '--yes', '--json'], {env: {SVC_ENVIRONMENT: 'production'}})
    expect(ok.code).toBe(0)
    expect(ok.json()).toMatchObject({id: c.id, isDeleted: true})
    expect(ok.stderr).toContain('PRODUCTION')
    expect(isDeleted(c.id)).toBe(true)
  })

  it('a stored profile bound to production behaves the same', async () => {
    const c = await create('Prod Profile Delete')
    const bare = {SVC_BASE_URL: undefined, SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined}
    const login = await sbx.run(
      loginArgs('prod', sbx.url, sbx.env.SVC_TOKEN_ID, '--environment', 'production', '--json'),
      {env: bare, input: sbx.env.SVC_CLIENT_SECRET},
    )
    expect(login.code).toBe(0)
    const before = sbx.requestCount()
    const refused = await sbx.run(['customers', 'delete', c.id], {env: bare})
    expect(refused.code).toBe(3)
    expect(refused.stderr).toMatch(/production without confirmation/)
    expect(refused.stdout).toBe('')
    expect(sbx.requestCount()).toBe(before)
    expect(isDeleted(c.id)).toBe(false)
    const ok = await sbx.run(['customers', 'delete', c.id, '--yes', '--json'], {env: bare})
    expect(ok.code).toBe(0)
    expect(isDeleted(c.id)).toBe(true)
  })
})

describe('--dry-run on mutating commands', () => {
  it('create, update and delete print the request with the secret redacted and send nothing', async () => {
    const c = await create('Dry Subject')
    const before = sbx.requestCount()
    const count = sbx.emu.db.count('customers')
    const prod = {SVC_ENVIRONMENT: 'production'}
    const cases: Array<[string[], string, string, Record<string, string>]> = [
      [
        ['customers', 'create', '--type', 'individual', '--full-name', 'Dry Run', '--dry-run', '--json'],
        'POST',
        '/customers',
        {},
      ],
      [
        ['customers', 'update', c.id, '--full-name', 'Renamed', '--dry-run', '--json'],
        'PATCH',
        `/customers/${encodeURIComponent(c.id)}`,
        {},
      ],
      [['customers', 'delete', c.id, '--dry-run', '--json'], 'DELETE', `/customers/${encodeURIComponent(c.id)}`, {}],
      // Even in production a dry run needs no --yes: nothing is sent.
      [['customers', 'delete', c.id, '--dry-run', '--json'], 'DELETE', `/customers/${encodeURIComponent(c.id)}`, prod],
    ]
    for (const [args, method, path, extra] of cases) {
      const r = await sbx.run(args, {env: extra})
      expect(r.code, r.stderr).toBe(0)
      const doc = r.json()
      expect(doc).toMatchObject({dryRun: true, request: {method, url: sbx.url + path}})
      expect(doc.request.headers.authorization).toBe('Basic [REDACTED]')
      expect(r.stdout + r.stderr).not.toContain(sbx.env.SVC_CLIENT_SECRET)
      expect(r.stderr).toContain('nothing was sent')
    }
    expect(sbx.requestCount()).toBe(before)
    expect(sbx.emu.db.count('customers')).toBe(count)
    expect(sbx.emu.db.get<{fullName: string; isDeleted: boolean}>('customers', c.id)).toMatchObject({
      fullName: 'Dry Subject',
      isDeleted: false,
    })
  })

  it('the dry-run body is what would be sent', async () => {
    const r = await sbx.run([
      'customers',
      'create',
      '--type',
      'business',
      '--legal-name',
      'Dry GmbH',
      '--country',
      'DE',
      '--tax-id',
      'DE123456789',
      '--incorporated-on',
      '2020-01-31',
      '--dry-run',
    ])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).request.body).toEqual({
      customerType: 'BUSINESS',
      businessInfo: {legalName: 'Dry GmbH', country: 'DE', taxId: 'DE123456789', incorporatedOn: '2020-01-31'},
    })
  })
})

describe('list filters and a business update', () => {
  it('filters by type, platform id, currency and deleted state, the same answer the sandbox holds', async () => {
    const biz = (
      await sbx.run([
        'customers',
        'create',
        '--type',
        'business',
        '--legal-name',
        'Filter GmbH',
        '--country',
        'DE',
        '--tax-id',
        'DE123456789',
        '--incorporated-on',
        '2015-03-01',
        '--currency',
        'EUR',
        '--platform-id',
        'filter-biz',
        '--json',
      ])
    ).json()
    const stored = sbx.emu.db.all<{id: string; customerType: string; isDeleted: boolean; currencies?: string[]}>(
      'customers',
    )
    const businesses = (await sbx.run(['customers', 'list', '--type', 'business', '--all', '--json'])).json()
    expect(businesses.data.map((c: {id: string}) => c.id).sort()).toEqual(
      stored
        .filter((c) => c.customerType === 'BUSINESS' && !c.isDeleted)
        .map((c) => c.id)
        .sort(),
    )
    expect(businesses.data.map((c: {id: string}) => c.id)).toContain(biz.id)
    expect(
      (await sbx.run(['customers', 'list', '--platform-id', 'filter-biz', '--json']))
        .json()
        .data.map((c: {id: string}) => c.id),
    ).toEqual([biz.id])
    expect(
      (await sbx.run(['customers', 'list', '--currency', 'EUR', '--all', '--json']))
        .json()
        .data.map((c: {id: string}) => c.id),
    ).toEqual(stored.filter((c) => c.currencies?.includes('EUR') && !c.isDeleted).map((c) => c.id))
    const deleted = stored.filter((c) => c.isDeleted).length
    expect(deleted).toBeGreaterThan(0)
    const withDeleted = (await sbx.run(['customers', 'list', '--include-deleted', '--all', '--json'])).json()
    expect(withDeleted.data).toHaveLength(stored.length)
    expect(withDeleted.totalCount).toBe(stored.length)
  })

  it('update --dry-run of a business field sends nothing; the real update changes only that field', async () => {
    const biz = (
      await sbx.run([
        'customers',
        'create',
        '--type',
        'business',
        '--legal-name',
        'Old Ltd',
        '--country',
        'GB',
        '--tax-id',
        '1234567890',
        '--incorporated-on',
        '2010-10-10',
        '--json',
      ])
    ).json()
    const before = sbx.requestCount()
    const dry = await sbx.run(['customers', 'update', biz.id, '--legal-name', 'New Ltd', '--dry-run', '--json'])
    expect(dry.code, dry.stdout).toBe(0)
    expect(dry.json().request).toMatchObject({
      method: 'PATCH',
      body: {customerType: 'BUSINESS', businessInfo: {legalName: 'New Ltd'}},
    })
    expect(sbx.requestCount()).toBe(before)
    const upd = await sbx.run(['customers', 'update', biz.id, '--legal-name', 'New Ltd', '--json'])
    expect(upd.code).toBe(0)
    expect(sbx.emu.db.get<{businessInfo: Record<string, string>}>('customers', biz.id)?.businessInfo).toMatchObject({
      legalName: 'New Ltd',
      country: 'GB',
      taxId: '1234567890',
      incorporatedOn: '2010-10-10',
    })
  })
})

describe('create from stdin', () => {
  it('--data - reads the body from stdin; typed flags override it; an internal account per currency', async () => {
    const body = JSON.stringify({customerType: 'INDIVIDUAL', fullName: 'Stdin Sam', currencies: ['EUR', 'MXN']})
    const r = await sbx.run(['customers', 'create', '--data', '-', '--full-name', 'Stdin Samantha', '--json'], {
      input: body,
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({customerType: 'INDIVIDUAL', fullName: 'Stdin Samantha', kycStatus: 'UNVERIFIED'})
    const accounts = sbx.emu.db
      .all<{customerId: string; type: string; balance: {currency: {code: string}}}>('internalAccounts')
      .filter((a) => a.customerId === r.json().id && a.type !== 'EMBEDDED_WALLET')
    expect(accounts.map((a) => a.balance.currency.code).sort()).toEqual(['EUR', 'MXN'])
  })
})

describe('platformCustomerId collisions', () => {
  it('collide only with an active customer: after a delete the id can be used again', async () => {
    const create = [
      'customers',
      'create',
      '--type',
      'individual',
      '--full-name',
      'Reuse Me',
      '--platform-id',
      'reuse-me',
    ]
    const first = await sbx.run([...create, '--json'])
    expect(first.code).toBe(0)
    const count = sbx.emu.db.count('customers')
    const clash = await sbx.run([...create, '--json'])
    expect(clash.code).toBe(6)
    expect(errorDoc(clash)).toMatchObject({status: 409, code: 'CONFLICT'})
    expect(sbx.emu.db.count('customers')).toBe(count)
    expect((await sbx.run(['customers', 'delete', first.json().id, '--yes'])).code).toBe(0)
    const again = await sbx.run([...create, '--json'])
    expect(again.code).toBe(0)
    expect(again.json().id).not.toBe(first.json().id)
  })
})

describe('the sandbox API surface', () => {
  it('401 UNAUTHORIZED without or with wrong credentials, with the uniform error body', async () => {
    const none = await http('GET', '/customers', undefined, null)
    expect(none.status).toBe(401)
    expect(none.body).toMatchObject({code: 'UNAUTHORIZED', reason: expect.any(String)})
    const wrong = await http(
      'GET',
      '/customers',
      undefined,
      'Basic ' + Buffer.from(`${sbx.env.SVC_TOKEN_ID}:nope`).toString('base64'),
    )
    expect(wrong.status).toBe(401)
    expect(wrong.body.code).toBe('UNAUTHORIZED')
  })

  it('unknown routes are 404 NOT_FOUND; svc api shows the same (exit 5)', async () => {
    const r = await http('GET', '/no-such-thing')
    expect(r.status).toBe(404)
    expect(r.body).toMatchObject({code: 'NOT_FOUND', reason: expect.stringContaining('/no-such-thing')})
    // A known path with a method it does not take is 405 (api-gaps 7), not 404.
    const method = await http('DELETE', '/customers')
    expect(method.status).toBe(405)
    expect(method.body.code).toBe('METHOD_NOT_ALLOWED')
    const cli = await sbx.run(['api', 'GET', '/no-such-thing', '--json'])
    expect(cli.code).toBe(5)
    expect(errorDoc(cli)).toMatchObject({status: 404, code: 'NOT_FOUND'})
  })

  it('lists page with limit and cursor: data, hasMore, totalCount, nextCursor until the last page', async () => {
    for (let i = 0; i < 3; i++) await http('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: `Pager ${i}`})
    const total = sbx.emu.db.all<{isDeleted: boolean}>('customers').filter((c) => !c.isDeleted).length
    const seen: string[] = []
    let cursor: string | undefined
    for (let page = 0; page < 100; page++) {
      const r = await http('GET', `/customers?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(r.status).toBe(200)
      expect(r.body.totalCount).toBe(total)
      expect(r.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...r.body.data.map((c: {id: string}) => c.id))
      if (!r.body.hasMore) {
        expect(r.body.nextCursor).toBeUndefined()
        break
      }
      expect(typeof r.body.nextCursor).toBe('string')
      cursor = r.body.nextCursor
    }
    expect(seen).toHaveLength(total)
    expect(new Set(seen).size).toBe(total)
    const bad = await http('GET', '/customers?limit=0&cursor=%%%')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('INVALID_INPUT')
    expect(bad.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual(['cursor', 'limit'])
  })

  it('400 INVALID_INPUT lists every field with its constraint, and stores nothing', async () => {
    const count = sbx.emu.db.count('customers')
    const before = sbx.emu.db.all('internalAccounts').length
    const r = await http('POST', '/customers', {
      customerType: 'BUSINESS',
      platformCustomerId: 'x'.repeat(129),
      email: 'not-an-email',
      region: 'zz',
      phoneNumber: '555',
      businessInfo: {legalName: '', country: 'US', taxId: '12345', incorporatedOn: '2021-02-30', entityType: 'GUILD'},
    })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('INVALID_INPUT')
    const byField = Object.fromEntries(
      r.body.details.errors.map((e: {field: string; constraint?: unknown; message: string}) => [e.field, e]),
    )
    expect(Object.keys(byField).sort()).toEqual([
      'businessInfo.entityType',
      'businessInfo.incorporatedOn',
      'businessInfo.legalName',
      'businessInfo.taxId',
      'email',
      'phoneNumber',
      'platformCustomerId',
      'region',
    ])
    expect(byField.platformCustomerId.constraint).toEqual({maxLength: 128})
    expect(byField['businessInfo.legalName'].constraint).toEqual({minLength: 1})
    expect(byField.email.constraint.format).toBe('email')
    expect(byField.phoneNumber.constraint.pattern).toBeTruthy()
    expect(byField.region.constraint).toMatchObject({pattern: '^[A-Z]{2}$'})
    expect(byField['businessInfo.incorporatedOn'].constraint).toMatchObject({format: 'date'})
    expect(new RegExp(byField['businessInfo.taxId'].constraint.pattern).test('12-3456789')).toBe(true)
    expect(byField['businessInfo.entityType'].constraint.enum).toContain('LLC')
    for (const e of Object.values(byField) as Array<{message: string}>) expect(e.message).toMatch(/\w/)
    const noType = await http('POST', '/customers', {fullName: 'Typeless'})
    expect(noType.body.details.errors).toEqual([
      expect.objectContaining({field: 'customerType', constraint: {enum: ['INDIVIDUAL', 'BUSINESS']}}),
    ])
    expect(sbx.emu.db.count('customers')).toBe(count)
    expect(sbx.emu.db.all('internalAccounts').length).toBe(before)
  })
})

describe('tax ids are checked against the country of incorporation', () => {
  const business = (country: string, taxId: string) => ({
    customerType: 'BUSINESS',
    businessInfo: {legalName: `Tax ${country}`, country, taxId, incorporatedOn: '2018-06-01'},
  })
  it.each([
    ['US', '12-3456789', '1234-56789'],
    ['GB', '1234567890', 'GB12345'],
    ['DE', 'DE123456789', 'DE12345'],
    ['MX', 'ABC010203XY9', 'ABC011303XY9'],
    ['BR', '11.222.333/0001-81', '11.222.333/0001-82'],
  ])('%s: %s is accepted, %s is refused by the sandbox and by svc before sending', async (country, good, bad) => {
    const ok = await http('POST', '/customers', business(country, good))
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect(ok.body.businessInfo).toMatchObject({country, taxId: good})
    expect(ok.body.kybStatus).toBe('UNVERIFIED')

    const count = sbx.emu.db.count('customers')
    const refused = await http('POST', '/customers', business(country, bad))
    expect(refused.status).toBe(400)
    expect(refused.body.details.errors).toEqual([
      expect.objectContaining({field: 'businessInfo.taxId', message: expect.stringContaining(country)}),
    ])
    expect(sbx.emu.db.count('customers')).toBe(count)

    const before = sbx.requestCount()
    const cli = await sbx.run([
      'customers',
      'create',
      '--type',
      'business',
      '--legal-name',
      'Tax Co',
      '--country',
      country,
      '--tax-id',
      bad,
      '--incorporated-on',
      '2018-06-01',
      '--json',
    ])
    expect(cli.code).toBe(2)
    expect(errorDoc(cli).details.errors.map((e: {field: string}) => e.field)).toEqual(['businessInfo.taxId'])
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('svc help exit-codes', () => {
  it('prints the exit-code table (human and --json)', async () => {
    const human = await sbx.run(['help', 'exit-codes'])
    expect(human.code).toBe(0)
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130])
      expect(human.stdout).toMatch(new RegExp(`^${code}\\s+\\S`, 'm'))
    const json = (await sbx.run(['help', 'exit-codes', '--json'])).json()
    expect(Object.keys(json)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '130'])
    expect(json['10']).toMatch(/outcome/i)
    expect(json['5']).toMatch(/not found/)
  })
})
