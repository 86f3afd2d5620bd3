import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {clabeCheckDigit} from '../../src/lib/account-checks.js'
import {ApiClient} from '../../src/lib/api/client.js'
import {readSituation, type Doc, type Situation} from '../../src/lib/scenario/capture/read.js'
import {Secret} from '../../src/lib/secret.js'
import {loginArgs} from '../helpers/cli.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {clabeAccountArgs, externalAddArgs, quoteArgs} from '../helpers/money.js'
import {documentUploadArgs, individualArgs} from '../helpers/kyc.js'

/**
 * issue 12: a customer built in sandbox A (a RESOLVE_ERRORS submission, a funded account, a payout
 * failed by the CLABE suffix 002, an embedded wallet with a session) is captured through a profile
 * pointing at A and replayed into sandbox B; the two situations are compared over HTTP.
 */
const work = mkdtempSync(join(tmpdir(), 'svc-capture-test-'))
afterAll(() => rmSync(work, {recursive: true, force: true}))

/** The original personal data; none of it may appear in the flow file. */
const ORIGINAL = {
  fullName: 'Maria Ortega',
  email: 'maria.ortega@example.org',
  phone: '+15125550199',
  platformId: 'crm-48213',
  birthDate: '1987-04-12',
  street: '742 Evergreen Terrace',
  city: 'Austin',
  postalCode: '78701',
  ssn: '512-44-9031',
  passport: 'G48213377',
  // valid CLABE whose last digits 002 make the sandbox fail the payout (QUOTE_EXECUTION_FAILED)
  clabe: '032180000118008002',
  beneficiary: 'Rosa Ortega Mendez',
}

let a: TestSandbox
let b: TestSandbox
let customerId: string
/** B's environment: the capture runs here with a profile naming A (SVC_* point at B). */
let envB: Record<string, string>

async function cli(sbx: TestSandbox, args: string[], input?: string) {
  const r = await svc([...args, '--json'], {env: sbx.env, input, timeoutMs: 60_000})
  return r
}

function client(sbx: TestSandbox) {
  return new ApiClient({
    baseUrl: sbx.url,
    tokenId: sbx.emu.credentials.tokenId,
    secret: new Secret(sbx.emu.credentials.clientSecret),
    timeoutMs: 10_000,
    userAgent: 'test',
  })
}

async function situationOf(sbx: TestSandbox, id: string): Promise<Situation> {
  const c = client(sbx)
  try {
    return await readSituation(c, id)
  } finally {
    await c.close()
  }
}

beforeAll(async () => {
  const settings = {decisionDelayMs: 50, paymentCompletionDelayMs: 50, paymentReturnDelayMs: 200}
  a = await startSandbox(settings)
  b = await startSandbox(settings)
  const ok = async (args: string[], input?: string, code = 0) => {
    const r = await cli(a, args, input)
    expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(code)
    return r.json()
  }
  const c = await ok(
    individualArgs(
      ORIGINAL.fullName,
      '--email',
      ORIGINAL.email,
      '--phone',
      ORIGINAL.phone,
      '--platform-id',
      ORIGINAL.platformId,
      '--currency',
      'USD',
      '--currency',
      'MXN',
    ),
  )
  customerId = c.id
  await ok(['customers', 'terms', c.id, '--accept'])
  const first = await ok(['kyc', 'submit', c.id], undefined, 6)
  expect(first.verificationStatus).toBe('RESOLVE_ERRORS')
  await ok([
    'customers',
    'update',
    c.id,
    '--birth-date',
    ORIGINAL.birthDate,
    '--nationality',
    'MX',
    '--id-type',
    'SSN',
    '--identifier',
    ORIGINAL.ssn,
    '--address-line1',
    ORIGINAL.street,
    '--address-city',
    ORIGINAL.city,
    '--address-postal-code',
    ORIGINAL.postalCode,
    '--address-country',
    'US',
  ])
  await ok(
    documentUploadArgs(
      c.id,
      '--type',
      'PASSPORT',
      '--file',
      join(process.cwd(), 'flows/fixtures/passport.jpg'),
      '--number',
      ORIGINAL.passport,
      '--issuing-authority',
      'SRE',
      '--country',
      'MX',
    ),
  )
  await ok(['kyc', 'submit', c.id])
  await ok(['kyc', 'wait', c.id, '--timeout', '30s'])
  const accounts = (await ok(['accounts', 'internal', 'list', '--customer', c.id])).data as Doc[]
  const usd = accounts.find((x) => x.type === 'INTERNAL_FIAT' && x.balance.currency.code === 'USD')!
  const wallet = accounts.find((x) => x.type === 'EMBEDDED_WALLET')!
  expect(wallet).toBeDefined()
  await ok(['sandbox', 'fund', usd.id, '--amount', '1000.00'])
  const ext = await ok(clabeAccountArgs(c.id, ORIGINAL.clabe, ORIGINAL.beneficiary))
  const q = await ok(quoteArgs(usd.id, ext.id, '--send', '250.00'))
  await ok(['quote', 'execute', q.id, '--yes', '--wait'], undefined, 1)
  await ok(['wallet', 'login', wallet.id, '--type', 'EMAIL_OTP', '--otp-stdin'], '000000')

  envB = {...b.env}
  // A profile naming sandbox A, saved in B's config dir (login reads its own flags, not B's SVC_*).
  const {SVC_BASE_URL: _u, SVC_TOKEN_ID: _t, SVC_CLIENT_SECRET: _s, ...plain} = envB
  const login = await svc(
    loginArgs('remote-a', a.url, a.emu.credentials.tokenId, '--environment', 'sandbox', '--json'),
    {env: plain, input: a.emu.credentials.clientSecret},
  )
  expect(login.code, login.stderr).toBe(0)
  const prod = await svc(
    loginArgs('prod-a', a.url, a.emu.credentials.tokenId, '--environment', 'production', '--no-verify', '--json'),
    {env: plain, input: a.emu.credentials.clientSecret},
  )
  expect(prod.code, prod.stderr).toBe(0)
  // login made its profile the active one; B's commands (the flow run) use B through SVC_*.
  envB.SVC_PROFILE = 'local'
}, 180_000)

afterAll(async () => {
  await a?.stop()
  await b?.stop()
})

describe('svc flow capture: sandbox A -> flow file -> sandbox B', () => {
  const file = join(work, 'captured.yaml')

  it('captures with GETs only, writes no original personal data, and the flow rebuilds the same situation in B', async () => {
    const before = a.emu.requests.length
    const bBefore = b.requestCount()
    const r = await svc(['flow', 'capture', customerId, '--from-profile', 'remote-a', '--out', file, '--json'], {
      env: envB,
      timeoutMs: 60_000,
    })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const doc = r.json()
    expect(doc).toMatchObject({
      customerId,
      source: {profile: 'remote-a', environment: 'sandbox', baseUrl: a.url},
      file,
      notReproduced: [],
    })
    expect(doc.replaced).toEqual(
      expect.arrayContaining([
        'full name',
        'email',
        'phone',
        'birth date',
        'address',
        'tax id / ID number',
        'document number',
        'account identifier',
        'beneficiary name',
        'platformCustomerId',
        'UMA address',
      ]),
    )
    // Only GETs reached the remote, and nothing reached B (the capture only reads).
    const sent = a.emu.requests.slice(before)
    expect(sent.length).toBeGreaterThan(5)
    expect(sent.filter((x) => x.method !== 'GET')).toEqual([])
    expect(b.requestCount()).toBe(bBefore)

    const text = readFileSync(file, 'utf8')
    for (const value of [...Object.values(ORIGINAL), 'Ortega', 'Maria', a.emu.credentials.clientSecret])
      expect(text.toLowerCase()).not.toContain(value.toLowerCase())
    const header = text
      .split('\n')
      .filter((l) => l.startsWith('#'))
      .join('\n')
    expect(header).toContain(customerId)
    expect(header).toContain('remote-a (sandbox')
    expect(header).toMatch(/Personal data replaced by fakes: .*full name/)

    const run = await svc(['flow', 'run', file, '--json'], {env: envB, timeoutMs: 180_000})
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.json().ok).toBe(true)

    const rebuilt = b.emu.db.all<{id: string}>('customers')
    expect(rebuilt).toHaveLength(1)
    const [sa, sb] = [await situationOf(a, customerId), await situationOf(b, rebuilt[0].id)]
    expect(view(sb)).toEqual(view(sa))
    expect(view(sa).payouts).toEqual([
      {status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', sent: 25000, refund: undefined},
    ])
    expect(view(sa).verifications[0].status).toBe('RESOLVE_ERRORS')
    // The rebuilt customer's personal data is the fakes, not the originals.
    expect(JSON.stringify(sb)).not.toContain(ORIGINAL.email)
  }, 300_000)

  it('a customer left in RESOLVE_ERRORS (the final state), with a USD beneficiary and a wallet session comes out the same in B', async () => {
    const ok = async (args: string[], input?: string, code = 0) => {
      const r = await cli(a, args, input)
      expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(code)
      return r.json()
    }
    const c = await ok(
      individualArgs(
        'Jorge Castellanos',
        '--email',
        'jorge.c@example.net',
        '--birth-date',
        '1979-09-30',
        '--currency',
        'USD',
      ),
    )
    await ok(['customers', 'terms', c.id, '--accept'])
    expect((await ok(['kyc', 'submit', c.id], undefined, 6)).verificationStatus).toBe('RESOLVE_ERRORS')
    const accounts = (await ok(['accounts', 'internal', 'list', '--customer', c.id])).data as Doc[]
    // (funding waits for APPROVED in the sandbox, so this one has no money: the first test has it)
    await ok(
      externalAddArgs(
        c.id,
        '--type',
        'USD_ACCOUNT',
        '--account-number',
        '4400981234',
        '--routing-number',
        '021000021',
        '--bank-name',
        'Chase',
        '--beneficiary-name',
        'Jorge Castellanos',
      ),
    )
    await ok(
      ['wallet', 'login', accounts.find((x) => x.type === 'EMBEDDED_WALLET')!.id, '--type', 'EMAIL_OTP', '--otp-stdin'],
      '000000',
    )

    const out = join(work, 'resolve-errors.yaml')
    const r = await svc(['flow', 'capture', c.id, '--from-profile', 'remote-a', '--out', out, '--json'], {
      env: envB,
      timeoutMs: 60_000,
    })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.json().notReproduced).toEqual([])
    const text = readFileSync(out, 'utf8')
    for (const v of ['Castellanos', 'Jorge', '1979-09-30', '4400981234']) expect(text).not.toContain(v)
    const before = new Set(b.emu.db.all<{id: string}>('customers').map((x) => x.id))
    const run = await svc(['flow', 'run', out, '--json'], {env: envB, timeoutMs: 120_000})
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const rebuilt = b.emu.db.all<{id: string}>('customers').filter((x) => !before.has(x.id))
    expect(rebuilt).toHaveLength(1)
    const [sa, sb] = [await situationOf(a, c.id), await situationOf(b, rebuilt[0].id)]
    expect(view(sb)).toEqual(view(sa))
    expect(view(sb)).toMatchObject({
      kycStatus: 'UNVERIFIED',
      verifications: [
        {
          status: 'RESOLVE_ERRORS',
          errors: ['nationality', 'address', 'idType', 'identifier', 'MISSING_IDENTITY_DOCUMENT'],
        },
      ],
      external: [{kind: 'USD_ACCOUNT'}],
    })
  }, 300_000)

  it('a business onboarded with owners (flows/kyb-with-owners.yaml run against A) comes out the same in B, owners included', async () => {
    const flows = join(process.cwd(), 'flows')
    const built = await svc(['flow', 'run', join(flows, 'kyb-with-owners.yaml'), '--json'], {
      env: {...a.env, SVC_PROFILE: 'local'},
      timeoutMs: 120_000,
    })
    expect(built.code, built.stdout + built.stderr).toBe(0)
    const business = a.emu.db
      .all<{id: string; customerType: string}>('customers')
      .find((x) => x.customerType === 'BUSINESS')!
    const out = join(work, 'business.yaml')
    const r = await svc(['flow', 'capture', business.id, '--from-profile', 'remote-a', '--out', out, '--json'], {
      env: envB,
      timeoutMs: 60_000,
    })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.json().notReproduced).toEqual([])
    const text = readFileSync(out, 'utf8')
    for (const v of [
      'Acme Robotics',
      'Ana',
      'Ruiz',
      'Cleo',
      'Park',
      '12-3456789',
      '123-45-6789',
      'X1234567',
      'X7654321',
      '1 Main St',
      'Springfield',
      '1980-02-03',
    ])
      expect(text).not.toContain(v)
    const before = new Set(b.emu.db.all<{id: string}>('customers').map((x) => x.id))
    const run = await svc(['flow', 'run', out, '--json'], {env: envB, timeoutMs: 120_000})
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const rebuilt = b.emu.db.all<{id: string}>('customers').filter((x) => !before.has(x.id))
    const [sa, sb] = [await situationOf(a, business.id), await situationOf(b, rebuilt[0].id)]
    const owners = (s: Situation) =>
      s.owners.map((o) => ({
        roles: o.roles,
        pct: o.ownershipPercentage,
        status: o.kycStatus,
        docs: s.documents[o.id].map((d) => d.documentType),
      }))
    expect({...view(sb), kybStatus: sb.customer.kybStatus, owners: owners(sb)}).toEqual({
      ...view(sa),
      kybStatus: sa.customer.kybStatus,
      owners: owners(sa),
    })
    expect(sb.customer.kybStatus).toBe('APPROVED')
    expect(view(sb).verifications.map((v) => v.status)).toEqual(['RESOLVE_ERRORS', 'RESOLVE_ERRORS', 'IN_PROGRESS'])
  }, 300_000)

  it('every payout outcome the suffixes drive (complete, 004, 005 returned, 006 refunded, 007 refund failed) and the balance they leave come out the same in B', async () => {
    const ok = async (args: string[], input?: string, code = 0) => {
      const r = await cli(a, args, input)
      expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(code)
      return r.json()
    }
    const c = await ok(
      individualArgs(
        'Teodora Villanueva',
        '--email',
        'teo.v@example.net',
        '--birth-date',
        '1984-11-02',
        '--nationality',
        'MX',
        '--id-type',
        'SSN',
        '--identifier',
        '623-11-4820',
        '--address-line1',
        '9 Calle Luna',
        '--address-city',
        'Dallas',
        '--address-postal-code',
        '75201',
        '--address-country',
        'US',
        '--currency',
        'USD',
        '--currency',
        'MXN',
      ),
    )
    await ok(['customers', 'terms', c.id, '--accept'])
    await ok(
      documentUploadArgs(
        c.id,
        '--type',
        'PASSPORT',
        '--file',
        join(process.cwd(), 'flows/fixtures/passport.jpg'),
        '--number',
        'M5550101',
        '--issuing-authority',
        'SRE',
        '--country',
        'MX',
      ),
    )
    await ok(['kyc', 'submit', c.id])
    await ok(['kyc', 'wait', c.id, '--timeout', '30s'])
    const usd = ((await ok(['accounts', 'internal', 'list', '--customer', c.id, '--currency', 'USD'])).data as Doc[])[0]
    await ok(['sandbox', 'fund', usd.id, '--amount', '2000.00'])
    const outcomes: Record<string, {status: string; reason?: string}> = {
      '719': {status: 'COMPLETED'},
      '004': {status: 'FAILED', reason: 'ACCOUNT_CANNOT_RECEIVE'},
      '005': {status: 'FAILED', reason: 'PAYOUT_RETURNED'},
      '006': {status: 'FAILED', reason: 'QUOTE_EXECUTION_FAILED'},
      '007': {status: 'FAILED', reason: 'ACCOUNT_CANNOT_RECEIVE'},
    }
    for (const [suffix, want] of Object.entries(outcomes)) {
      const ext = await ok(clabeAccountArgs(c.id, clabeEnding(suffix), 'Teodora Villanueva'))
      const q = await ok(quoteArgs(usd.id, ext.id, '--send', '100.00'))
      await cli(a, ['quote', 'execute', q.id, '--yes'])
      await waitFor(async () => (await ok(['transactions', 'get', q.transactionId])).status === want.status)
      const t = await ok(['transactions', 'get', q.transactionId])
      expect(t.failureReason, suffix).toBe(want.reason)
    }
    const out = join(work, 'outcomes.yaml')
    const r = await svc(['flow', 'capture', c.id, '--from-profile', 'remote-a', '--out', out, '--json'], {
      env: envB,
      timeoutMs: 60_000,
    })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.json().notReproduced).toEqual([])
    const text = readFileSync(out, 'utf8')
    for (const v of ['Villanueva', 'Teodora', '623-11-4820', 'M5550101', ...Object.keys(outcomes).map(clabeEnding)])
      expect(text).not.toContain(v)
    const before = new Set(b.emu.db.all<{id: string}>('customers').map((x) => x.id))
    const run = await svc(['flow', 'run', out, '--json'], {env: envB, timeoutMs: 180_000})
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const rebuilt = b.emu.db.all<{id: string}>('customers').filter((x) => !before.has(x.id))
    const [sa, sb] = [await situationOf(a, c.id), await situationOf(b, rebuilt[0].id)]
    expect(view(sb)).toEqual(view(sa))
    // 2000.00 in; the completed payout and the one whose refund failed are gone.
    expect(view(sb).internal.find((x) => x.currency === 'USD')!.balance).toBe(200000 - 2 * 10000)
  }, 300_000)

  it('writes the same file for the same --seed, and refuses to overwrite without --force', async () => {
    const one = join(work, 'seeded.yaml')
    const first = await svc(
      ['flow', 'capture', customerId, '--from-profile', 'remote-a', '--out', one, '--seed', 'ticket-4711'],
      {env: envB},
    )
    expect(first.code, first.stderr).toBe(0)
    const again = await svc(
      ['flow', 'capture', customerId, '--from-profile', 'remote-a', '--out', one, '--seed', 'ticket-4711', '--json'],
      {env: envB},
    )
    expect(again.code).toBe(2)
    expect(again.json().error.details.errors).toEqual([{field: '--out', message: expect.stringContaining('--force')}])
    const stdout = await svc(['flow', 'capture', customerId, '--from-profile', 'remote-a', '--seed', 'ticket-4711'], {
      env: envB,
    })
    expect(stdout.code).toBe(0)
    const strip = (t: string) => t.replace(/ at \S+Z\./, '')
    expect(strip(stdout.stdout.trimEnd())).toBe(strip(readFileSync(one, 'utf8').trimEnd()))
  }, 60_000)

  it('refuses a production profile without --yes (nothing sent); with --yes it prints a banner on stderr', async () => {
    const before = a.emu.requests.length
    const r = await svc(['flow', 'capture', customerId, '--from-profile', 'prod-a', '--json'], {env: envB})
    expect(r.code).toBe(3) // confirmation refused, as the exit-code table has it
    expect(r.json().error.reason).toMatch(/production.*--yes/)
    expect(a.emu.requests.length).toBe(before)
    const yes = await svc(
      ['flow', 'capture', customerId, '--from-profile', 'prod-a', '--yes', '--out', join(work, 'prod.yaml')],
      {env: envB},
    )
    expect(yes.code, yes.stderr).toBe(0)
    expect(yes.stderr).toMatch(/PRODUCTION · profile prod-a/)
    expect(a.emu.requests.slice(before).every((x) => x.method === 'GET')).toBe(true)
  }, 60_000)

  it('refuses a bad customer id and a missing --out folder before any request (exit 2, each field named)', async () => {
    const before = a.emu.requests.length
    const r = await svc(
      ['flow', 'capture', 'Cust-42', '--from-profile', 'remote-a', '--out', join(work, 'nope', 'f.yaml'), '--json'],
      {env: envB},
    )
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toEqual(['customer', '--out'])
    expect(a.emu.requests.length).toBe(before)
  })

  it('an unknown customer is not found (exit 5) and no file is written', async () => {
    const out = join(work, 'unknown.yaml')
    const r = await svc(
      [
        'flow',
        'capture',
        'Customer:00000000-0000-0000-0000-000000000000',
        '--from-profile',
        'remote-a',
        '--out',
        out,
        '--json',
      ],
      {env: envB},
    )
    expect(r.code).toBe(5)
    expect(() => readFileSync(out)).toThrow()
  })

  it('an unknown profile is a usage error', async () => {
    const r = await svc(['flow', 'capture', customerId, '--from-profile', 'nope', '--json'], {env: envB})
    expect(r.code).toBe(2)
    expect(r.json().error.reason).toContain('No profile named "nope"')
  })
})

/** A valid CLABE whose last 3 digits are `suffix` (the check digit is the last one). */
function clabeEnding(suffix: string): string {
  for (let i = 0; i < 1000; i++) {
    const first17 = `032180000118${String(i).padStart(3, '0')}${suffix.slice(0, 2)}`
    if (clabeCheckDigit(first17) === Number(suffix[2])) return first17 + suffix[2]
  }
  throw new Error(`no CLABE ends in ${suffix}`)
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** What must match between A and B: statuses, failure reasons, balances, account kinds. */
function view(s: Situation) {
  const currency = (x: Doc) => x.balance?.currency?.code
  return {
    kycStatus: s.customer.kycStatus,
    verifications: s.verifications.map((v) => ({
      status: v.verificationStatus,
      errors: (v.errors as Doc[]).map((e) => e.field ?? e.type),
    })),
    documents: Object.values(s.documents)
      .flat()
      .map((d) => d.documentType),
    internal: s.internalAccounts
      .map((x) => ({
        type: x.type,
        currency: currency(x),
        status: x.status,
        balance: x.balance.amount,
        total: x.totalBalance.amount,
      }))
      .sort((p, q) => `${p.type}${p.currency}`.localeCompare(`${q.type}${q.currency}`)),
    external: s.externalAccounts.map((x) => ({
      kind: x.accountInfo.accountType,
      status: x.status,
      beneficiary: x.beneficiaryVerificationStatus,
    })),
    payouts: s.transactions
      .filter((t) => t.type === 'OUTGOING')
      .map((t) => ({
        status: t.status,
        failureReason: t.failureReason,
        sent: t.sentAmount?.amount,
        refund: t.refund?.status,
      })),
    quotes: Object.values(s.quotes).map((q) => ({status: q.status, sending: q.totalSendingAmount})),
    incoming: s.transactions
      .filter((t) => t.type === 'INCOMING')
      .map((t) => ({status: t.status, amount: t.receivedAmount?.amount})),
    walletSessions: Object.values(s.wallets).map((w) => ({
      sessions: w.sessions.length,
      credentials: w.credentials.map((c) => c.type),
    })),
  }
}
