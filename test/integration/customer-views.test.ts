import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as run} from '../helpers/run-command.js'
import {fixture, individualFlags, journey, passportArgs, pdf, type Journey} from '../helpers/kyc.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let svc: Journey
beforeAll(async () => {
  sbx = await startSandbox({decisionDelayMs: 50})
  svc = journey(sbx)
})
afterAll(async () => sbx.stop())

/** Every leaf of a request body, as the human view should show it somewhere. */
function leaves(v: unknown, path = ''): Array<[string, string]> {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, `${path}[${i}]`))
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, path ? `${path}.${k}` : k))
  return [[path, String(v)]]
}

const individual = {
  customerType: 'INDIVIDUAL',
  platformCustomerId: 'view-ind-1',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  phoneNumber: '+15551234567',
  birthDate: '1990-01-15',
  nationality: 'GB',
  region: 'US',
  currencies: ['USD', 'MXN'],
  address: {line1: '1 Main St', line2: 'Apt 2', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US'},
  idType: 'SSN',
  countryOfIssuance: 'US',
  sourceOfFundsCategories: ['SALARY', 'SAVINGS'],
  purposeOfAccount: 'P2P_TRANSFERS',
  expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
  annualIncomeRange: 'RANGE_50K_100K',
  pepStatus: 'NONE',
}

const business = {
  customerType: 'BUSINESS',
  platformCustomerId: 'view-biz-1',
  email: 'ops@acme.example',
  address: {line1: '500 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US'},
  businessInfo: {
    legalName: 'Acme Widgets LLC',
    doingBusinessAs: 'Acme',
    country: 'US',
    taxId: '12-3456789',
    incorporatedOn: '2020-01-15',
    registrationNumber: 'REG-42',
    entityType: 'LLC',
    countriesOfOperation: ['US', 'MX'],
    naicsCode: '541511',
    primaryContactFirstName: 'Wile',
    primaryContactLastName: 'Coyote',
  },
}

function expectShowsEverything(stdout: string, body: object) {
  for (const [path, value] of leaves(body))
    expect(stdout, `${path} = ${value} is missing from the human view`).toContain(value)
}

describe('human views show every settable field', () => {
  it('customers create / get / update (individual): birthDate, nationality, address, idType, EDD answers ...', async () => {
    const created = await run(
      ['customers', 'create', '--data', JSON.stringify({...individual, identifier: '123-45-6789'})],
      {env: sbx.env},
    )
    expect(created.code, created.stderr).toBe(0)
    expectShowsEverything(created.stdout, individual)
    expect(created.stdout).toMatch(/address\s+1 Main St, Apt 2, Springfield, IL 62701, US/)
    expect(created.stdout).not.toContain('123-45-6789') // the Service never returns the identifier
    const id = created.stderr.match(/Created (Customer:[\w-]+)/)![1]

    const got = await run(['customers', 'get', id], {env: sbx.env})
    expectShowsEverything(got.stdout, individual)

    const updated = await run(
      [
        'customers',
        'update',
        id,
        '--nationality',
        'FR',
        '--address-line1',
        '1 Main St',
        '--address-line2',
        'Apt 2',
        '--address-city',
        'Paris',
        '--address-state',
        'IL',
        '--address-postal-code',
        '62701',
        '--address-country',
        'US',
        '--birth-date',
        '1985-12-10',
      ],
      {env: sbx.env},
    )
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.stdout).toMatch(/nationality\s+FR/)
    expect(updated.stdout).toMatch(/birthDate\s+1985-12-10/)
    expect(updated.stdout).toMatch(/address\s+1 Main St, Apt 2, Paris, IL 62701, US/)
  })

  it('customers create / get (business): a Business section with every businessInfo field', async () => {
    const created = await run(['customers', 'create', '--data', JSON.stringify(business)], {env: sbx.env})
    expect(created.code, created.stderr).toBe(0)
    expectShowsEverything(created.stdout, business)
    expect(created.stdout).toMatch(/Business\n\s+legalName\s+Acme Widgets LLC\n\s+doingBusinessAs\s+Acme\n/)
    const id = created.stderr.match(/Created (Customer:[\w-]+)/)![1]
    expectShowsEverything((await run(['customers', 'get', id], {env: sbx.env})).stdout, business)
  })
})

describe('kyc status and submit tell one story', () => {
  it('an APPROVED customer shows its submission as decided, never IN_PROGRESS', async () => {
    const c = await svc.json(individualFlags('Quinn Approve'))
    await svc.json(['customers', 'terms', c.id, '--accept'])
    await svc.json(passportArgs(c.id, fixture(sbx.dir, 'q.pdf', pdf())))
    await svc.submit(c.id)
    expect((await svc.json(['kyc', 'wait', c.id])).kycStatus).toBe('APPROVED')
    const status = await run(['kyc', 'status', c.id], {env: sbx.env})
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toMatch(/kycStatus\s+APPROVED/)
    expect(status.stdout).toMatch(/verification\s+Verification:[\w-]+ decided: APPROVED \(submitted /)
    expect(status.stdout).not.toContain('IN_PROGRESS')
  })

  it('kyc submit answered RESOLVE_ERRORS exits 6 with the checklist; --json still prints the Verification', async () => {
    const c = await svc.json(['customers', 'create', '--type', 'individual', '--full-name', 'Ivy Incomplete'])
    const human = await run(['kyc', 'submit', c.id], {env: sbx.env})
    expect(human.code).toBe(6)
    expect(human.stdout).toMatch(/status\s+RESOLVE_ERRORS/)
    expect(human.stdout).toContain(`Still missing`)
    expect(human.stderr).toMatch(/Submission incomplete: \d+ item\(s\) to resolve/)
    expect(human.stderr).not.toMatch(/Error:/)
    const json = await run(['kyc', 'submit', c.id, '--json'], {env: sbx.env})
    expect(json.code).toBe(6)
    expect(json.json()).toMatchObject({
      customerId: c.id,
      verificationStatus: 'RESOLVE_ERRORS',
      errors: expect.arrayContaining([expect.objectContaining({field: 'birthDate'})]),
    })
    // `submit && wait` stops at submit.
    const chained = await run(['kyc', 'submit', c.id], {env: sbx.env})
    expect(chained.code).not.toBe(0)
  })
})
