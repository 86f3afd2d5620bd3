import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {individualArgs} from '../helpers/kyc.js'
import {approvedCustomer, fundedPayer, quoteArgs} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 20, cardProcessingDelayMs: 50})
})
afterAll(async () => sbx.stop())

const dir = () => join(sbx.env.SVC_CONFIG_DIR, 'history')
const mode = (p: string) => statSync(p).mode & 0o777

describe('svc history', () => {
  it('a journey of writes leaves one 0600 record per write, and no secret, OTP or secret field in the file', async () => {
    const secretHeader = 'sk_header_do_not_keep'
    const steps: string[][] = [
      individualArgs('Jean Dupont', '--nationality', 'FR', '--email', 'jean@example.fr', '--phone', '+33698765432'),
      ['api', 'POST', '/customers', '--data', '{"customerType":"INDIVIDUAL","fullName":"X","password":"hunter2-pw"}'],
      ['api', 'GET', '/config', '--header', `Authorization: Bearer ${secretHeader}`],
    ]
    const created = await sbx.json(steps[0])
    steps.push(['kyc', 'verify-email', created.id], ['kyc', 'confirm-email', created.id, '--code', '123456'])
    for (const s of steps.slice(1)) await sbx.run(s)
    const payer = await fundedPayer(sbx)
    const card = await approvedCustomer(sbx, ['USD'])
    const more = [
      ['sandbox', 'fund', payer.account('USD'), '--amount', '5.00'],
      quoteArgs(payer.account('USD'), payer.dest, '--send', '2.00', '--execute', '--yes'),
      ['cards', 'issue', '--customer', card.id, '--account', card.account('USD')],
      ['customers', 'update', created.id, '--nationality', 'FR'],
    ]
    for (const s of more) {
      const r = await sbx.run(s)
      expect(r.code, r.stderr).toBe(0)
    }

    const file = join(dir(), 'history.jsonl')
    expect(mode(file)).toBe(0o600)
    expect(mode(dir())).toBe(0o700)
    const text = readFileSync(file, 'utf8')
    for (const secret of [sbx.emu.credentials.clientSecret, 'hunter2-pw', secretHeader, '--code 123456'])
      expect(text).not.toContain(secret)
    expect(text).toContain("--code '[REDACTED]'")
    expect(text).toContain('\\"password\\":\\"[REDACTED]\\"')
    const records = await sbx.json(['history', '--limit', '100'])
    // Writes only (the GET through `svc api` is none), one per write: quote create --execute sent two.
    // (fundedPayer adds its payee with `svc accounts external add`.)
    expect(
      records.map((r: {method: string; path: string}) => `${r.method} ${r.path.replace(/\/[^/]*%3A[^/]*/g, '/:id')}`),
    ).toEqual([
      'POST /2025-10-13/customers',
      'POST /2025-10-13/customers',
      'POST /2025-10-13/customers/:id/verify-email',
      'POST /2025-10-13/customers/:id/verify-email/confirm',
      'POST /2025-10-13/customers/external-accounts',
      'POST /2025-10-13/sandbox/internal-accounts/:id/fund',
      'POST /2025-10-13/quotes',
      'POST /2025-10-13/quotes/:id/execute',
      'POST /2025-10-13/cards',
      'PATCH /2025-10-13/customers/:id',
    ])
    expect(records.map((r: {outcome: string}) => r.outcome)).toEqual([
      'ok',
      'failed',
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
    ])
    expect(records[0]).toMatchObject({profile: expect.any(String), baseUrl: sbx.url, objectId: created.id, status: 201})
    expect(records[0].command).toBe(
      "svc customers create --type individual --full-name 'Jean Dupont' --nationality FR --email jean@example.fr --phone +33698765432 --json",
    )
    expect(records[7].idempotencyKey).toBe(`${records[6].idempotencyKey}:execute`)
    expect(records.map((r: {n: number}) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    const failed = await sbx.json(['history', '--failed'])
    expect(failed.map((r: {n: number}) => r.n)).toEqual([2])
    expect((await sbx.run(['history', '--failed', '--unknown'])).code).toBe(2)
  }, 120_000)

  it('rotation keeps it bounded: the current file stays under the bound, one older file, numbers carry on', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const env = {SVC_HISTORY_MAX_BYTES: '2048'}
    const before = (await sbx.json(['history', '--limit', '1000'])).at(-1)?.n ?? 0
    for (let i = 0; i < 16; i++)
      expect((await sbx.run(['sandbox', 'fund', c.account('USD'), '--amount-minor', '1'], {env})).code).toBe(0)
    const files = readdirSync(dir())
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
    expect(files).toEqual(['history.1.jsonl', 'history.jsonl'])
    for (const f of files) {
      expect(statSync(join(dir(), f)).size).toBeLessThanOrEqual(2048)
      expect(mode(join(dir(), f))).toBe(0o600)
    }
    const kept = await sbx.json(['history', '--limit', '1000'])
    expect(kept.at(-1).n).toBe(before + 16)
    expect(kept.length).toBeLessThan(before + 16)
    const ns = kept.map((r: {n: number}) => r.n)
    expect(ns).toEqual(Array.from({length: ns.length}, (_, i) => ns[0] + i))

    const cleared = await sbx.run(['history', 'clear', '--json'])
    expect(cleared.json()).toEqual({cleared: true})
    expect(await sbx.json(['history'])).toEqual([])
  }, 120_000)
})
