import {describe, expect, it} from 'vitest'
import {fakeTime} from '../helpers/fake-time.js'
import {
  ADDRESS,
  documentUploadArgs,
  fixture,
  journey,
  kycSandbox,
  listenForWebhooks,
  passportArgs,
  pdf,
  US_BUSINESS_FLAGS,
  US_SSN_FLAGS,
} from '../helpers/kyc.js'
import {startSandbox} from '../helpers/sandbox.js'

const fx = kycSandbox()

const business = (reg: string) => [
  'customers',
  'create',
  '--type',
  'business',
  '--legal-name',
  `Acme ${reg}`,
  ...US_BUSINESS_FLAGS,
  '--registration-number',
  reg,
  ...ADDRESS,
]
const owner = (biz: string, first: string, last: string, roles: string[], pct: number | string) => [
  'kyc',
  'owners',
  'add',
  biz,
  ...roles.flatMap((r) => ['--role', r]),
  '--ownership',
  String(pct),
  '--first-name',
  first,
  '--last-name',
  last,
  '--birth-date',
  '1980-02-03',
  ...US_SSN_FLAGS,
  ...ADDRESS,
]
const certificate = (biz: string) =>
  documentUploadArgs(
    biz,
    '--type',
    'CERTIFICATE_OF_INCORPORATION',
    '--file',
    fixture(fx.sbx.dir, 'cert.pdf', pdf()),
    '--country',
    'US',
  )
const types = (v: {errors: Array<{type: string}>}) => v.errors.map((e) => e.type).sort()

describe('KYB of businesses, end to end', () => {
  it('suffix 003: documents, a control person and two 30% owners are collected, then the business is approved', async () => {
    const events = await listenForWebhooks(fx.sbx, 2)
    const b = await fx.svc.json(business('REG-2024-003'))
    expect(b.kybStatus).toBe('UNVERIFIED')
    await fx.svc.json(['customers', 'terms', b.id, '--accept'])
    const first = await fx.svc.submit(b.id)
    expect(first.verificationStatus).toBe('RESOLVE_ERRORS')
    expect(types(first)).toEqual([
      'MISSING_BENEFICIAL_OWNER',
      'MISSING_CONTROL_PERSON',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
    ])
    expect(first.errors.find((e: any) => e.type === 'MISSING_LEGAL_PRESENCE_DOCUMENT').acceptedDocumentTypes).toContain(
      'CERTIFICATE_OF_INCORPORATION',
    )

    await fx.svc.json(certificate(b.id))
    const ana = await fx.svc.json(owner(b.id, 'Ana', 'Ruiz', ['UBO'], 30))
    const ben = await fx.svc.json(owner(b.id, 'Ben', 'Ortiz', ['UBO'], 30))
    const cleo = await fx.svc.json(owner(b.id, 'Cleo', 'Park', ['DIRECTOR', 'CONTROL_PERSON'], 0))
    const dan = await fx.svc.json(owner(b.id, 'Dan', 'Small', ['UBO'], 10))
    expect(ana).toMatchObject({
      customerId: b.id,
      roles: ['UBO'],
      ownershipPercentage: 30,
      kycStatus: 'UNVERIFIED',
      personalInfo: {firstName: 'Ana', lastName: 'Ruiz'},
    })
    // Only the customer's own identifier is write-only; an owner's comes back (create, get, list).
    expect(ana.personalInfo.identifier).toBe('123-45-6789')

    // Owners at or above 25% and the control person must be identified; Dan (10%) need not be.
    const second = await fx.svc.submit(b.id)
    expect(second.verificationStatus).toBe('RESOLVE_ERRORS')
    expect(second.errors.map((e: any) => `${e.type} ${e.resourceId}`).sort()).toEqual(
      [ana.id, ben.id, cleo.id].map((id) => `MISSING_IDENTITY_DOCUMENT ${id}`).sort(),
    )
    const status = await fx.svc.run(['kyc', 'status', b.id])
    expect(status.stdout).toContain(`[ ] ${ana.id} (Ana Ruiz, UBO): identity document`)
    expect(status.stdout).toContain(`[ ] ${cleo.id} (Cleo Park, DIRECTOR/CONTROL_PERSON): identity document`)
    expect(status.stdout).not.toContain(dan.id + ' (')
    expect(status.stdout).toMatch(
      /owners\s+Ana Ruiz 30% UNVERIFIED; Ben Ortiz 30% UNVERIFIED; Cleo Park 0% UNVERIFIED; Dan Small 10% UNVERIFIED/,
    )

    for (const o of [ana, ben, cleo])
      await fx.svc.json(passportArgs(o.id, fixture(fx.sbx.dir, `${o.personalInfo.firstName}.pdf`, pdf())))
    const third = await fx.svc.submit(b.id)
    expect(third).toMatchObject({verificationStatus: 'IN_PROGRESS', errors: []})
    expect(fx.sbx.emu.db.get<any>('customers', b.id).kybStatus).toBe('PENDING')

    const approved = await fx.svc.json(['kyc', 'wait', b.id])
    expect(approved.kybStatus).toBe('APPROVED')
    const got = await events()
    expect(got.map((e) => `${e.type} ${e.data.id} ${e.data.kybStatus}`)).toEqual([
      `CUSTOMER.KYB_PENDING ${b.id} PENDING`,
      `CUSTOMER.KYB_APPROVED ${b.id} APPROVED`,
    ])
    const owners = await fx.svc.json(['kyc', 'owners', 'list', b.id])
    expect(owners.data.map((o: any) => o.kycStatus)).toEqual(['APPROVED', 'APPROVED', 'APPROVED', 'APPROVED'])
    expect(owners.totalCount).toBe(4)
    expect(owners.data.map((o: any) => o.personalInfo.identifier)).toEqual([
      '123-45-6789',
      '123-45-6789',
      '123-45-6789',
      '123-45-6789',
    ])
  })

  it('refuses owners beyond 100% in total and owners of an individual, changing nothing', async () => {
    const b = await fx.svc.json(business('REG-100'))
    await fx.svc.json(owner(b.id, 'Max', 'Share', ['UBO'], 80))
    const count = fx.sbx.emu.db.count('beneficialOwners')
    const over = await fx.svc.run([...owner(b.id, 'Too', 'Much', ['UBO'], 30), '--json'])
    expect(over.code).toBe(2)
    expect(over.json().error.details.errors).toEqual([
      {field: 'ownershipPercentage', message: '80% is declared already; 30% more would exceed 100%'},
    ])
    const person = await fx.svc.json(['customers', 'create', '--type', 'individual', '--full-name', 'Solo Trader'])
    const wrong = await fx.svc.run([...owner(person.id, 'No', 'Body', ['UBO'], 50), '--json'])
    expect(wrong.code).toBe(2)
    expect(wrong.json().error.details.errors[0].field).toBe('customerId')
    expect(fx.sbx.emu.db.count('beneficialOwners')).toBe(count)
  })

  it('percentages are whole numbers, as the published API takes them: 33.5 is refused before sending', async () => {
    const b = await fx.svc.json(business('REG-333'))
    const before = fx.sbx.requestCount()
    const frac = await fx.svc.run([...owner(b.id, 'Ann', 'Partner', ['UBO'], '33.5'), '--json'])
    expect(frac.code).toBe(2)
    expect(frac.json().error.details.errors).toEqual([
      expect.objectContaining({field: 'ownershipPercentage', message: expect.stringMatching(/int/)}),
    ])
    expect(fx.sbx.requestCount()).toBe(before)
    expect((await fx.svc.json(owner(b.id, 'Ann', 'Partner', ['UBO'], '34%'))).ownershipPercentage).toBe(34)
  })

  it('suffix 002 reports RESOLVE_ERRORS while incomplete, then is rejected once complete', async () => {
    const events = await listenForWebhooks(fx.sbx, 2)
    const b = await fx.svc.json(business('REG-002'))
    await fx.svc.json(['customers', 'terms', b.id, '--accept'])
    expect((await fx.svc.submit(b.id)).verificationStatus).toBe('RESOLVE_ERRORS')
    await fx.svc.json(certificate(b.id))
    const boss = await fx.svc.json(owner(b.id, 'Olga', 'Owner', ['UBO', 'CONTROL_PERSON'], 100))
    await fx.svc.json(passportArgs(boss.id, fixture(fx.sbx.dir, 'olga.pdf', pdf())))
    expect((await fx.svc.submit(b.id)).verificationStatus).toBe('IN_PROGRESS')
    const r = await fx.svc.run(['kyc', 'wait', b.id, '--json'])
    expect(r.code).toBe(1)
    expect(r.json().error.code).toBe('KYB_REJECTED')
    expect((await events()).map((e) => e.type)).toEqual(['CUSTOMER.KYB_PENDING', 'CUSTOMER.KYB_REJECTED'])
    expect(fx.sbx.emu.db.get<any>('beneficialOwners', boss.id).kycStatus).toBe('APPROVED')
  })

  it('suffix 001 stays PENDING for manual review, and its packet is frozen: late owners are refused, nothing stored', async () => {
    const b = await fx.svc.json(business('REG-001'))
    await fx.svc.json(['customers', 'terms', b.id, '--accept'])
    await fx.svc.json(certificate(b.id))
    const boss = await fx.svc.json(owner(b.id, 'Mia', 'Manual', ['UBO', 'CONTROL_PERSON'], 60))
    await fx.svc.json(passportArgs(boss.id, fixture(fx.sbx.dir, 'mia.pdf', pdf())))
    expect((await fx.svc.submit(b.id)).verificationStatus).toBe('IN_PROGRESS')
    const ownerCount = fx.sbx.emu.db.count('beneficialOwners')
    const late = await fx.svc.run([...owner(b.id, 'Lou', 'Late', ['UBO'], 5), '--json'])
    expect(late.code).toBe(6)
    expect(late.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      reason: expect.stringMatching(/under review \(PENDING\)/),
    })
    expect(fx.sbx.emu.db.count('beneficialOwners')).toBe(ownerCount)
    const r = await fx.svc.run(['kyc', 'wait', b.id, '--timeout', '10m'], fakeTime())
    expect(r.code).toBe(8)
    expect(fx.sbx.emu.db.get<any>('customers', b.id).kybStatus).toBe('PENDING')
  })

  it('an owner whose lastName ends in 002 is rejected, and so is the business', async () => {
    const b = await fx.svc.json(business('REG-555'))
    await fx.svc.json(['customers', 'terms', b.id, '--accept'])
    await fx.svc.json(certificate(b.id))
    const bad = await fx.svc.json(owner(b.id, 'Gil', 'Gray 002', ['UBO', 'CONTROL_PERSON'], 60))
    await fx.svc.json(passportArgs(bad.id, fixture(fx.sbx.dir, 'gil.pdf', pdf())))
    await fx.svc.submit(b.id)
    expect((await fx.svc.run(['kyc', 'wait', b.id])).code).toBe(1)
    expect(fx.sbx.emu.db.get<any>('beneficialOwners', bad.id).kycStatus).toBe('REJECTED')
  })
})

describe('KYB with the skip-paperwork option', () => {
  it('terminal suffixes (other: approved, 002: rejected) resolve at the first submission with no documents; 003 still needs the packet', async () => {
    const skip = await startSandbox({skipVerificationPaperwork: true})
    try {
      const s = journey(skip)
      const quick = await s.json(business('REG-777'))
      await s.json(['customers', 'terms', quick.id, '--accept'])
      expect(await s.submit(quick.id)).toMatchObject({verificationStatus: 'IN_PROGRESS', errors: []})
      expect((await s.json(['kyc', 'wait', quick.id])).kybStatus).toBe('APPROVED')
      const no = await s.json(business('REG-Q002'))
      await s.json(['customers', 'terms', no.id, '--accept'])
      expect(await s.submit(no.id)).toMatchObject({verificationStatus: 'IN_PROGRESS', errors: []})
      expect((await s.run(['kyc', 'wait', no.id])).code).toBe(1)
      expect(skip.emu.db.get<any>('customers', no.id).kybStatus).toBe('REJECTED')
      const slow = await s.json(business('REG-003'))
      await s.json(['customers', 'terms', slow.id, '--accept'])
      expect(types(await s.submit(slow.id))).toEqual([
        'MISSING_BENEFICIAL_OWNER',
        'MISSING_CONTROL_PERSON',
        'MISSING_LEGAL_PRESENCE_DOCUMENT',
      ])
      expect(skip.emu.db.get<any>('customers', slow.id).kybStatus).toBe('UNVERIFIED')
    } finally {
      await skip.stop()
    }
  })
})
