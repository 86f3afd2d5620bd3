import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {api} from '../helpers/money.js'
import {ownerPerson} from '../helpers/kyc.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let business: string
let owner: string
let other: string

beforeAll(async () => {
  sbx = await startSandbox()
  const b = await api(sbx, 'POST', '/customers', {
    customerType: 'BUSINESS',
    businessInfo: {legalName: 'Acme LLC', country: 'US', incorporatedOn: '2010-05-01', taxId: '12-3456789'},
  })
  expect(b.status, JSON.stringify(b.body)).toBe(201)
  business = b.body.id
  owner = (
    await api(sbx, 'POST', '/beneficial-owners', {
      customerId: business,
      roles: ['UBO'],
      ownershipPercentage: 30,
      personalInfo: ownerPerson('Ana'),
    })
  ).body.id
  other = (
    await api(sbx, 'POST', '/beneficial-owners', {
      customerId: business,
      roles: ['UBO'],
      ownershipPercentage: 50,
      personalInfo: ownerPerson('Luis'),
    })
  ).body.id
})
afterAll(async () => sbx.stop())

describe('svc kyc owners update', () => {
  it('changes only what is given: roles, ownership, a personal detail, one address field', async () => {
    const r = await svc(
      [
        'kyc',
        'owners',
        'update',
        owner,
        '--role',
        'ubo',
        '--role',
        'DIRECTOR',
        '--ownership',
        '40',
        '--email',
        'ana@example.com',
        '--address-postal-code',
        '78702',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({
      id: owner,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 40,
      personalInfo: {firstName: 'Ana', email: 'ana@example.com', address: {line1: '1 Main St', postalCode: '78702'}},
    })
    const stored = sbx.emu.db.get<any>('beneficialOwners', owner)
    expect(stored).toMatchObject({
      ownershipPercentage: 40,
      personalInfo: {lastName: 'Ruiz', identifier: '123-45-6789', address: {city: 'Austin', postalCode: '78702'}},
    })
    expect(r.stderr).toMatch(/Updated BeneficialOwner:/)
  })

  it('refuses ownership past 100% in total (the other owners counted, not this one) and an unknown owner', async () => {
    const over = await svc(['kyc', 'owners', 'update', owner, '--ownership', '51', '--json'], {env: sbx.env})
    expect(over.code).toBe(2)
    expect(over.json().error.details.errors[0]).toMatchObject({
      field: 'ownershipPercentage',
      message: expect.stringMatching(/50%/),
    })
    expect(sbx.emu.db.get<any>('beneficialOwners', owner).ownershipPercentage).toBe(40)
    const fifty = await svc(['kyc', 'owners', 'update', owner, '--ownership', '50', '--json'], {env: sbx.env})
    expect(fifty.code, fifty.stderr).toBe(0)
    const missing = await svc(
      [
        'kyc',
        'owners',
        'update',
        'BeneficialOwner:00000000-0000-0000-0000-000000000000',
        '--email',
        'x@example.com',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(missing.code).toBe(5)
  })

  it('is frozen while the business is PENDING (exit 6), like adding owners', async () => {
    const stored = sbx.emu.db.get<Record<string, unknown>>('customers', business)!
    sbx.emu.db.put('customers', business, {...stored, kybStatus: 'PENDING'})
    try {
      const r = await svc(['kyc', 'owners', 'update', other, '--email', 'luis@example.com', '--json'], {env: sbx.env})
      expect(r.code).toBe(6)
      expect(r.json().error).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        reason: expect.stringMatching(/cannot be changed/),
      })
      expect(sbx.emu.db.get<any>('beneficialOwners', other).personalInfo.email).toBeUndefined()
    } finally {
      sbx.emu.db.put('customers', business, stored)
    }
  })

  it.each([
    ['nothing to change', [], '(body)'],
    ['a bad role', ['--role', 'CEO'], 'roles.0'],
    ['a fractional ownership', ['--ownership', '33.5'], 'ownershipPercentage'],
    ['a bad email and birth date at once', ['--email', 'nope', '--birth-date', '1985-02-30'], 'personalInfo.email'],
    ['a bad country', ['--address-country', 'USA'], 'personalInfo.address.country'],
  ])('refuses %s before sending (exit 2)', async (_n, args, field) => {
    const before = sbx.requestCount()
    const r = await svc(['kyc', 'owners', 'update', owner, ...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })

  it('a bad owner id is exit 2 with nothing sent', async () => {
    const before = sbx.requestCount()
    const r = await svc(['kyc', 'owners', 'update', 'Customer:abc', '--email', 'x@example.com', '--json'], {
      env: sbx.env,
    })
    expect(r.code).toBe(2)
    expect(sbx.requestCount()).toBe(before)
  })
})
