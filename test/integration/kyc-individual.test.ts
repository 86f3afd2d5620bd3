import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {fakeTime, sandboxTime} from '../helpers/fake-time.js'
import {
  documentUploadArgs,
  fixture,
  individualArgs,
  individualFlags,
  journey,
  jpeg,
  kycSandbox,
  listenForWebhooks,
  passportArgs,
  png,
  type Journey,
} from '../helpers/kyc.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

const fx = kycSandbox()

const stored = (id: string) => fx.sbx.emu.db.get<Record<string, any>>('customers', id)!

/**
 * `svc kyc wait` on the sandbox's own clock: each poll's sleep moves the clock on, so the decision job
 * runs when its delay has passed there, without the test waiting the delay out in real time.
 */
const kycWait = (on: TestSandbox, id: string, ...flags: string[]) =>
  on.run(['kyc', 'wait', id, ...flags], sandboxTime(on))
const kycWaitJson = async (on: TestSandbox, id: string) => {
  const r = await kycWait(on, id, '--json')
  if (r.code !== 0) throw new Error(`svc kyc wait ${id} exited ${r.code}\n${r.stdout}\n${r.stderr}`)
  return r.json()
}

describe('KYC of individuals, end to end', () => {
  it('a complete individual is approved at its first submission, with PENDING then APPROVED webhooks', async () => {
    const events = await listenForWebhooks(fx.sbx, 2)
    const c = await fx.svc.json(individualFlags('Ada Lovelace'))
    await fx.svc.json(['customers', 'terms', c.id, '--accept'])
    const passport = fixture(fx.sbx.dir, 'ada-passport.jpg', jpeg(1200, 800))
    const doc = await fx.svc.json(passportArgs(c.id, passport))
    expect(doc).toMatchObject({
      documentHolder: c.id,
      documentType: 'PASSPORT',
      fileName: 'ada-passport.jpg',
      country: 'US',
    })

    const v = await fx.svc.submit(c.id)
    expect(v).toMatchObject({customerId: c.id, verificationStatus: 'IN_PROGRESS', errors: []})
    expect(stored(c.id).kycStatus).toBe('PENDING')

    const approved = await kycWait(fx.sbx, c.id, '--json')
    expect(approved.code).toBe(0)
    expect(approved.json()).toMatchObject({id: c.id, kycStatus: 'APPROVED'})
    const got = await events()
    expect(got.map((e) => e.type)).toEqual(['CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_APPROVED'])
    expect(got.map((e) => [e.data.id, e.data.kycStatus])).toEqual([
      [c.id, 'PENDING'],
      [c.id, 'APPROVED'],
    ])
    expect(got[1].data.identifier).toBeUndefined()
  })

  it('goes through RESOLVE_ERRORS: the checklist names each gap, then fields and a passport get it approved', async () => {
    const events = await listenForWebhooks(fx.sbx, 2)
    const c = await fx.svc.json(individualArgs('Grace'))
    const first = await fx.svc.submit(c.id)
    expect(first.verificationStatus).toBe('RESOLVE_ERRORS')
    expect(first.errors.map((e: any) => e.field ?? e.type).sort()).toEqual([
      'MISSING_IDENTITY_DOCUMENT',
      'address',
      'birthDate',
      'endUserTermsConsent',
      'fullName',
      'idType',
      'identifier',
      'nationality',
    ])
    expect(first.errors.find((e: any) => e.type === 'MISSING_IDENTITY_DOCUMENT')).toMatchObject({
      resourceId: c.id,
      acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
    })
    expect(first.errors.find((e: any) => e.field === 'fullName').reason).toMatch(/given and a family name/)
    expect(stored(c.id).kycStatus).toBe('UNVERIFIED')

    // The human checklist: one box per gap, with the command that resolves it.
    const status = await fx.svc.run(['kyc', 'status', c.id])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('Still missing (8)')
    expect(status.stdout).toContain('[ ] the customer: field birthDate')
    expect(status.stdout).toContain(`→ svc customers update ${c.id} --birth-date YYYY-MM-DD`)
    expect(status.stdout).toContain(`→ svc customers update ${c.id} --id-type SSN --identifier ###-##-####`) // typed flags, not --data JSON
    expect(status.stdout).not.toContain('--data')
    expect(status.stdout).toContain('accepted: PASSPORT, DRIVERS_LICENSE, NATIONAL_ID')
    expect(status.stdout).toContain(`→ svc kyc documents upload --holder ${c.id} --type PASSPORT`)
    const statusJson = await fx.svc.json(['kyc', 'status', c.id])
    expect(statusJson.customer.id).toBe(c.id)
    expect(statusJson.verification.id).toBe(first.id)

    // Waiting on an incomplete submission fails at once instead of hanging.
    const stuck = await fx.svc.run(['kyc', 'wait', c.id, '--json'])
    expect(stuck.code).toBe(6)
    expect(stuck.json().error.code).toBe('VERIFICATION_INCOMPLETE')

    await fx.svc.json([
      'customers',
      'update',
      c.id,
      '--full-name',
      'Grace Hopper',
      '--birth-date',
      '1906-12-09',
      '--nationality',
      'US',
      '--address-line1',
      '1 Navy Way',
      '--address-postal-code',
      '20001',
      '--address-country',
      'US',
      '--id-type',
      'SSN',
      '--identifier',
      '123-45-6789',
    ])
    await fx.svc.json(['customers', 'terms', c.id, '--accept'])
    const front = fixture(fx.sbx.dir, 'dl-front.png', png(1000, 640))
    await fx.svc.json(
      documentUploadArgs(
        c.id,
        '--type',
        'DRIVERS_LICENSE',
        '--side',
        'FRONT',
        '--file',
        front,
        '--number',
        'D1234',
        '--issuing-authority',
        'CA DMV',
        '--country',
        'US',
      ),
    )
    const second = await fx.svc.submit(c.id)
    expect(second.verificationStatus).toBe('RESOLVE_ERRORS')
    expect(second.errors).toHaveLength(1)
    expect(second.errors[0]).toMatchObject({
      type: 'MISSING_IDENTITY_DOCUMENT',
      reason: expect.stringMatching(/DRIVERS_LICENSE has only its FRONT side; upload the BACK/),
    })

    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'grace-passport.pdf', Buffer.from('%PDF-1.7\n%%EOF\n'))))
    const third = await fx.svc.submit(c.id)
    expect(third.verificationStatus).toBe('IN_PROGRESS')
    const approved = await kycWaitJson(fx.sbx, c.id)
    expect(approved.kycStatus).toBe('APPROVED')
    expect((await events()).map((e) => `${e.type} ${e.data.id}`)).toEqual([
      `CUSTOMER.KYC_PENDING ${c.id}`,
      `CUSTOMER.KYC_APPROVED ${c.id}`,
    ])
    const list = await fx.svc.json(['kyc', 'documents', 'list', '--holder', c.id])
    expect(list.data.map((d: any) => `${d.documentType}${d.side ? ' ' + d.side : ''}`)).toEqual([
      'DRIVERS_LICENSE FRONT',
      'PASSPORT',
    ])
  })

  it('suffix 002 reports RESOLVE_ERRORS first, is rejected once complete (exit 1), and renaming does not overwrite the settled decision', async () => {
    const events = await listenForWebhooks(fx.sbx, 2)
    const c = await fx.svc.json(individualFlags('Eve Adams 002'))
    // Rule 8: the outcome is decided once the submission is in, so an incomplete 002 is not rejected yet.
    const early = await fx.svc.submit(c.id)
    expect(early.verificationStatus).toBe('RESOLVE_ERRORS')
    expect(early.errors.map((e: any) => e.field ?? e.type).sort()).toEqual([
      'MISSING_IDENTITY_DOCUMENT',
      'endUserTermsConsent',
    ])
    expect(stored(c.id).kycStatus).toBe('UNVERIFIED')
    await fx.svc.json(['customers', 'terms', c.id, '--accept'])
    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'eve.png', png(900, 600))))
    expect((await fx.svc.submit(c.id)).verificationStatus).toBe('IN_PROGRESS')
    const rejected = await kycWait(fx.sbx, c.id, '--json')
    expect(rejected.code).toBe(1)
    expect(rejected.json().error).toMatchObject({code: 'KYC_REJECTED', details: {customerId: c.id, status: 'REJECTED'}})
    expect((await events()).map((e) => e.type)).toEqual(['CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_REJECTED'])

    await fx.svc.json(['customers', 'update', c.id, '--full-name', 'Eve Adams'])
    expect(stored(c.id).kycStatus).toBe('REJECTED')
    const verifications = fx.sbx.emu.db.count('verifications')
    const again = await fx.svc.run(['kyc', 'submit', c.id, '--json'])
    expect(again.code).toBe(6)
    // sandbox-behaviour 2: re-submitting a settled customer is a 400, as the contract allows
    expect(again.json().error).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: {status: 'REJECTED', errors: [{field: 'customerId'}]},
      hint: expect.stringMatching(/decision is final/),
    })
    expect(stored(c.id).kycStatus).toBe('REJECTED')
    expect(fx.sbx.emu.db.count('verifications')).toBe(verifications)
  })

  it('a settled APPROVED is not overwritten by renaming to a 002 name, and cannot be resubmitted', async () => {
    const c = await fx.svc.json(individualFlags('Ann Settled'))
    await fx.svc.json(['customers', 'terms', c.id, '--accept'])
    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'ann.jpg', jpeg(800, 600))))
    await fx.svc.submit(c.id)
    expect((await kycWaitJson(fx.sbx, c.id)).kycStatus).toBe('APPROVED')
    const eventsBefore = fx.sbx.emu.webhooks.list().length
    const renamed = await fx.svc.json(['customers', 'update', c.id, '--full-name', 'Ann Settled 002'])
    expect(renamed).toMatchObject({fullName: 'Ann Settled 002', kycStatus: 'APPROVED'})
    const verifications = fx.sbx.emu.db.count('verifications')
    const again = await fx.svc.run(['kyc', 'submit', c.id, '--json'])
    expect(again.code).toBe(6)
    expect(again.json().error).toMatchObject({status: 400, code: 'INVALID_INPUT', details: {status: 'APPROVED'}})
    expect(again.json().error.hint).toContain(`svc kyc status ${c.id}`)
    await sandboxTime(fx.sbx).sleep(1_000) // longer than the decision delay (500 ms): nothing is scheduled
    expect(stored(c.id).kycStatus).toBe('APPROVED')
    expect(fx.sbx.emu.db.count('verifications')).toBe(verifications)
    expect(fx.sbx.emu.webhooks.list().length).toBe(eventsBefore)
    expect((await kycWait(fx.sbx, c.id)).code).toBe(0)
  })

  it('END_USER_TERMS_VERSION_NOT_FOUND for an unknown terms version: nothing is recorded, the gap stays on the checklist', async () => {
    const c = await fx.svc.json(individualFlags('Tess Terms'))
    const bad = await fx.svc.run(['customers', 'terms', c.id, '--accept', '--version', '1999-01-01', '--json'])
    expect(bad.json().error).toMatchObject({status: 400, code: 'END_USER_TERMS_VERSION_NOT_FOUND'})
    expect(bad.code).not.toBe(0)
    expect(stored(c.id).endUserTermsConsent).toBeUndefined()
    const customers = fx.sbx.emu.db.count('customers')
    const consent = {
      acceptedAt: '2026-01-01T00:00:00Z',
      ipAddress: '203.0.113.9',
      termsVersion: 'v0-unknown',
      acceptanceMethod: 'CHECKBOX',
    }
    const atCreate = await fx.svc.run(
      individualArgs('Nora New', '--data', JSON.stringify({endUserTermsConsent: consent}), '--json'),
    )
    expect(atCreate.json().error.code).toBe('END_USER_TERMS_VERSION_NOT_FOUND')
    expect(fx.sbx.emu.db.count('customers')).toBe(customers)
    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'tess.jpg', jpeg(800, 600))))
    const v = await fx.svc.submit(c.id)
    expect(v.errors.map((e: any) => e.field)).toEqual(['endUserTermsConsent'])
    expect(stored(c.id).kycStatus).toBe('UNVERIFIED')
  })

  it('suffix 004 goes on HOLD (wait keeps waiting, exit 8 at --timeout); fixing and resubmitting approves', async () => {
    const c = await fx.svc.json(individualFlags('Hal Jordan 004'))
    await fx.svc.json(['customers', 'terms', c.id, '--accept'])
    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'hal.jpg', jpeg(640, 480))))
    await fx.svc.submit(c.id)
    await sandboxTime(fx.sbx).sleep(1_000) // past the decision delay (500 ms) on the sandbox clock
    expect(stored(c.id).kycStatus).toBe('HOLD')
    const clock = fakeTime()
    const waiting = await fx.svc.run(['kyc', 'wait', c.id, '--timeout', '10m', '--json'], clock)
    expect(waiting.code).toBe(8)
    expect(clock.slept()).toBeGreaterThanOrEqual(590_000)
    expect(waiting.json().error.code).toBe('TIMEOUT')
    expect(waiting.stderr).toContain('on HOLD')
    await fx.svc.json(['customers', 'update', c.id, '--full-name', 'Hal Jordan'])
    expect((await fx.svc.submit(c.id)).verificationStatus).toBe('IN_PROGRESS')
    expect((await kycWaitJson(fx.sbx, c.id)).kycStatus).toBe('APPROVED')
  })

  it('suffix 001 stays PENDING for manual review: no decision arrives', async () => {
    const c = await fx.svc.json(individualFlags('Manny Review 001'))
    await fx.svc.json(['customers', 'terms', c.id, '--accept'])
    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'manny.jpg', jpeg(640, 480))))
    await fx.svc.submit(c.id)
    const r = await fx.svc.run(['kyc', 'wait', c.id, '--timeout', '10m'], fakeTime())
    expect(r.code).toBe(8)
    expect(r.stderr).toMatch(/still PENDING/)
    expect(fx.sbx.emu.scheduler.pending('kyc.decide').filter((j) => j.payload.customerId === c.id)).toHaveLength(0)
  })
})

describe('decisions are durable and the platform type matters', () => {
  it('a decision due while the sandbox is down lands after a restart', async () => {
    let box = await startSandbox({decisionDelayMs: 400})
    try {
      const s = journey(box)
      const c = await s.json(individualFlags('Rip Van Winkle'))
      await s.json(['customers', 'terms', c.id, '--accept'])
      await s.json(passportArgs(c.id, fixture(box.dir, 'rip.pdf', Buffer.from('%PDF-1.4\n'))))
      await s.submit(c.id)
      expect(box.emu.scheduler.pending('kyc.decide')).toHaveLength(1)
      box = await box.restart()
      expect(box.emu.db.get<any>('customers', c.id).kycStatus).toBe('PENDING')
      // On real time: the restart itself takes about the delay, so the decision is due while the sandbox is down.
      expect((await journey(box).json(['kyc', 'wait', c.id])).kycStatus).toBe('APPROVED')
      expect(
        box.emu.webhooks
          .list()
          .filter((e) => (e.data as any)?.id === c.id)
          .map((e) => e.type),
      ).toEqual(['CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_APPROVED'])
    } finally {
      await box.stop()
    }
  })

  it('the decision delay is a PATCH /config sandbox setting; PENDING is visible by polling until the decision lands', async () => {
    await fx.svc.json(['api', 'PATCH', '/config', '--data', JSON.stringify({sandbox: {decisionDelayMs: 1500}})])
    try {
      const c = await fx.svc.json(individualFlags('Pat Ience'))
      await fx.svc.json(['customers', 'terms', c.id, '--accept'])
      await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'pat.jpg', jpeg(800, 600))))
      // Time passes on the sandbox clock (kycWait): the 1.5 s are the sandbox's, not the test's.
      const submitted = fx.sbx.emu.now()
      await fx.svc.submit(c.id)
      expect((await fx.svc.json(['kyc', 'status', c.id])).customer.kycStatus).toBe('PENDING')
      const early = await kycWait(fx.sbx, c.id, '--timeout', '200ms')
      expect(early.code).toBe(8)
      expect((await kycWaitJson(fx.sbx, c.id)).kycStatus).toBe('APPROVED')
      expect(fx.sbx.emu.now() - submitted).toBeGreaterThanOrEqual(1500)
      expect(Date.parse(stored(c.id).updatedAt) - submitted).toBeGreaterThanOrEqual(1500) // decided 1.5 s after
    } finally {
      await fx.svc.json(['api', 'PATCH', '/config', '--data', JSON.stringify({sandbox: {decisionDelayMs: 500}})])
    }
  })

  it('regulated platforms need no end-user terms consent on file; unregulated ones do', async () => {
    const c = await fx.svc.json(individualFlags('Reggie Lated'))
    await fx.svc.json(passportArgs(c.id, fixture(fx.sbx.dir, 'reggie.jpg', jpeg(800, 600))))
    await fx.svc.json(['api', 'PATCH', '/config', '--data', JSON.stringify({isRegulatedFinancialInstitution: true})])
    try {
      expect((await fx.svc.submit(c.id)).verificationStatus).toBe('IN_PROGRESS')
    } finally {
      await fx.svc.json(['api', 'PATCH', '/config', '--data', JSON.stringify({isRegulatedFinancialInstitution: false})])
    }
    const d = await fx.svc.json(individualFlags('Una Regulated'))
    await fx.svc.json(passportArgs(d.id, fixture(fx.sbx.dir, 'una.jpg', jpeg(800, 600))))
    const v = await fx.svc.submit(d.id)
    expect(v.errors.map((e: any) => e.field)).toEqual(['endUserTermsConsent'])
    await kycWaitJson(fx.sbx, c.id)
  })
})

describe('the skip-paperwork sandbox option', () => {
  let skip: TestSandbox
  let s: Journey
  beforeAll(async () => {
    skip = await startSandbox()
    s = journey(skip)
    await s.json(['api', 'PATCH', '/config', '--data', JSON.stringify({sandbox: {skipVerificationPaperwork: true}})])
  })
  afterAll(async () => skip.stop())

  it('resolves terminal suffixes of individuals at create, with no documents; 001 and 003 still need a packet', async () => {
    const events = await listenForWebhooks(skip, 4)
    const ok = await s.json(individualArgs('Quick Approve'))
    expect(ok.kycStatus).toBe('PENDING')
    const no = await s.json(individualArgs('Quick Reject 002'))
    expect((await kycWaitJson(skip, ok.id)).kycStatus).toBe('APPROVED')
    expect((await kycWait(skip, no.id)).code).toBe(1)
    const got = await events()
    expect(got.filter((e) => e.data.id === ok.id).map((e) => e.type)).toEqual([
      'CUSTOMER.KYC_PENDING',
      'CUSTOMER.KYC_APPROVED',
    ])
    expect(got.filter((e) => e.data.id === no.id).map((e) => e.type)).toEqual([
      'CUSTOMER.KYC_PENDING',
      'CUSTOMER.KYC_REJECTED',
    ])

    // Settled by the option at create; renaming does not reopen or flip it.
    await s.json(['customers', 'update', ok.id, '--full-name', 'Quick Approve 002'])
    await s.json(['customers', 'update', no.id, '--full-name', 'Quick Reject'])
    await sandboxTime(skip).sleep(1_000) // past any decision delay (50 ms) on the sandbox clock
    expect(skip.emu.db.get<any>('customers', ok.id).kycStatus).toBe('APPROVED')
    expect(skip.emu.db.get<any>('customers', no.id).kycStatus).toBe('REJECTED')

    for (const name of ['Slow Lane 001', 'Collect Me 003']) {
      const c = await s.json(individualArgs(name))
      expect(c.kycStatus).toBe('UNVERIFIED')
      const v = await s.submit(c.id)
      expect(v.verificationStatus).toBe('RESOLVE_ERRORS')
      expect(v.errors.map((e: any) => e.type)).toContain('MISSING_IDENTITY_DOCUMENT')
    }
  })
})
