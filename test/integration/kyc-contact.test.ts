import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  documentUploadArgs,
  individualArgs,
  journey,
  listenForWebhooks,
  NATIONAL_ID_FLAGS,
  type Journey,
} from '../helpers/kyc.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let svc: Journey
beforeAll(async () => {
  sbx = await startSandbox()
  svc = journey(sbx)
})
afterAll(async () => sbx.stop())

const cv = (id: string) => sbx.emu.db.get<any>('customers', id).contactVerification

describe('EU contact verification before the hosted link', () => {
  it('verifies email and phone with the sandbox code, then issues fresh single-use links that complete to APPROVED', async () => {
    const c = await svc.json(
      individualArgs('Jean Dupont', '--nationality', 'FR', '--email', 'jean@example.fr', '--phone', '+33698765432'),
    )
    expect(c.contactVerification).toEqual({email: 'PENDING', phone: 'PENDING'})

    const early = await svc.run(['kyc', 'link', c.id])
    expect(early.code).toBe(6)
    expect(early.stderr).toContain('pending: email, phone')
    expect(early.stderr).toContain(`Hint: svc kyc verify-email ${c.id} && svc kyc confirm-email ${c.id} --code <code>`)
    expect(sbx.emu.db.count('kycLinks')).toBe(0)

    const unsent = await svc.run(['kyc', 'confirm-email', c.id, '--code', '123456', '--json'])
    expect(unsent.code).toBe(2)
    expect(unsent.json().error.details.errors[0]).toMatchObject({
      field: 'code',
      message: expect.stringMatching(/no code was sent/),
    })

    // Re-running resends: each delivery is a line in the sandbox log.
    expect((await svc.run(['kyc', 'verify-email', c.id])).code).toBe(0)
    expect((await svc.run(['kyc', 'verify-email', c.id])).code).toBe(0)
    const log = readFileSync(join(sbx.dir, 'emulator.log'), 'utf8')
    expect(log.match(new RegExp(`email code for ${c.id} sent to jean@example.fr: 123456`, 'g'))).toHaveLength(2)

    const wrong = await svc.run(['kyc', 'confirm-email', c.id, '--code', '654321', '--json'])
    expect(wrong.code).toBe(2)
    expect(wrong.json().error.details.errors[0]).toEqual({
      field: 'code',
      message: 'does not match the code that was sent',
    })
    expect(cv(c.id).email).toBe('PENDING')

    const ok = await svc.json(['kyc', 'confirm-email', c.id, '--code', '123456'])
    expect(ok.contactVerification).toEqual({email: 'VERIFIED', phone: 'PENDING'})
    const again = await svc.run(['kyc', 'verify-email', c.id])
    expect(again.code).toBe(6)
    expect(again.stderr).toContain('already VERIFIED')

    const halfway = await svc.run(['kyc', 'link', c.id])
    expect(halfway.code).toBe(6)
    expect(halfway.stderr).toContain('pending: phone')
    await svc.json(['kyc', 'verify-phone', c.id])
    const traced = await svc.run(['kyc', 'confirm-phone', c.id, '--code', '123456', '--debug', '--json'])
    expect(traced.code).toBe(0)
    expect(traced.stderr).toContain('"code":"[REDACTED]"')
    expect(traced.stderr).not.toContain('123456')
    expect(cv(c.id)).toEqual({email: 'VERIFIED', phone: 'VERIFIED'})

    const args = ['kyc', 'link', c.id, '--redirect-uri', 'https://app.example.com/done']
    const link = await svc.json([...args, '--idempotency-key', 'onboard-42'])
    expect(link).toMatchObject({
      provider: 'SUMSUB',
      kycUrl: expect.stringContaining('/sandbox/hosted/kyc/'),
      token: expect.any(String),
    })
    expect(Date.parse(link.expiresAt)).toBeGreaterThan(Date.now())
    expect((await svc.json([...args, '--idempotency-key', 'onboard-42'])).kycUrl).toBe(link.kycUrl)
    const fresh = await svc.json(args)
    expect(fresh.kycUrl).not.toBe(link.kycUrl)

    // The end user completes the hosted flow: review begins, the decision follows by webhook.
    const events = await listenForWebhooks(sbx, 2)
    const done = await fetch(link.kycUrl, {method: 'POST', redirect: 'manual'})
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('https://app.example.com/done')
    expect((await fetch(link.kycUrl, {method: 'POST', redirect: 'manual'})).status).toBe(410)
    expect((await svc.json(['kyc', 'wait', c.id])).kycStatus).toBe('APPROVED')
    expect((await events()).map((e) => `${e.type} ${e.data.id}`)).toEqual([
      `CUSTOMER.KYC_PENDING ${c.id}`,
      `CUSTOMER.KYC_APPROVED ${c.id}`,
    ])
  })

  it('answers 409 "not required" for customers outside the mandated regions', async () => {
    const us = await svc.json(individualArgs('Sam Smith', '--nationality', 'US', '--email', 'sam@example.com'))
    expect(us.contactVerification).toBeUndefined()
    for (const cmd of [
      ['verify-email', us.id],
      ['confirm-phone', us.id, '--code', '123456'],
    ]) {
      const r = await svc.run(['kyc', ...cmd])
      expect(r.code).toBe(6)
      expect(r.stderr).toContain("This customer's provider does not require")
    }
    // The contract's code for "not applicable" is CONFLICT (as for SCA); the hint is the CLI's own.
    const doc = await svc.run(['kyc', 'verify-email', us.id, '--json'])
    expect(doc.code).toBe(6)
    expect(doc.json().error).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      details: {channel: 'email'},
      hint: expect.stringMatching(/contactVerification; see `svc kyc status`/),
    })
    expect((await svc.json(['kyc', 'link', us.id])).provider).toBe('SUMSUB')
  })

  it('an EU business needs its representative: contact details and the primary contact names', async () => {
    const b = await svc.json([
      'customers',
      'create',
      '--type',
      'business',
      '--legal-name',
      'Brot GmbH',
      '--country',
      'DE',
      '--tax-id',
      'DE123456789',
      '--incorporated-on',
      '2019-03-01',
      '--registration-number',
      'HRB-12345',
    ])
    await svc.json(['customers', 'terms', b.id, '--accept'])
    const v = await svc.submit(b.id)
    const fields = v.errors
      .filter((e: any) => e.type === 'MISSING_FIELD')
      .map((e: any) => e.field)
      .sort()
    expect(fields).toEqual([
      'address',
      'businessInfo.primaryContactFirstName',
      'businessInfo.primaryContactLastName',
      'email',
    ])
    await svc.json([
      'customers',
      'update',
      b.id,
      '--email',
      'ops@brot.de',
      '--primary-contact-first-name',
      'Lena',
      '--primary-contact-last-name',
      'Brot',
      '--address-line1',
      'Str. 1',
      '--address-postal-code',
      '10115',
      '--address-country',
      'DE',
    ])
    const next = await svc.submit(b.id)
    expect(next.errors.filter((e: any) => e.type === 'MISSING_FIELD').map((e: any) => e.field)).toEqual([
      'contactVerification.email',
    ])
  })

  it('refuses bad codes and URLs before any request (exit 2)', async () => {
    const before = sbx.requestCount()
    const cases: Array<[string[], string]> = [
      [['kyc', 'confirm-email', 'Customer:abc', '--code', '12'], 'code'],
      [['kyc', 'confirm-phone', 'Customer:abc', '--code', '12 34 56'], 'code'],
      [['kyc', 'link', 'Customer:abc', '--redirect-uri', 'ftp://example.com/x'], 'redirectUri'],
      [['kyc', 'link', 'Quote:abc'], 'customerId'],
      [['kyc', 'verify-email', 'customer-1'], 'customerId'],
      [['kyc', 'link', 'Customer:abc', '--redirect-uri', 'not a url'], 'redirectUri'],
      [
        documentUploadArgs(
          'Customer:abc',
          '--type',
          'NATIONAL_ID',
          '--side',
          'SIDEWAYS',
          ...NATIONAL_ID_FLAGS,
          '--file',
          '/nonexistent.png',
        ),
        'side',
      ],
    ]
    for (const [args, field] of cases) {
      const r = await svc.run([...args, '--json'])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.json().error.details.errors.map((e: any) => e.field)).toContain(field)
    }
    const noCode = await svc.run(['kyc', 'confirm-email', 'Customer:abc'])
    expect(noCode.code).toBe(2)
    expect(noCode.stderr).toContain('Missing flag: --code')
    const badTimeout = await svc.run(['kyc', 'wait', 'Customer:abc', '--timeout', 'banana'])
    expect(badTimeout.code).toBe(2)
    expect(badTimeout.stderr).toContain('"banana" is not a duration')
    expect(sbx.requestCount()).toBe(before)
  })
})
