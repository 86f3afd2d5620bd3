// Issue 32, the first day's low papercuts: each through the command, asserting stdout, stderr and exit code.
import {mkdirSync, writeFileSync, existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api, approvedCustomer} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'
import {deadUrl} from '../helpers/webhook-receiver.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

describe('customers create: an impossible birth date, a nameless individual', () => {
  it('the client refuses both before any request, every field named (exit 2)', async () => {
    const before = sbx.requestCount()
    const customers = sbx.emu.db.count('customers')
    const r = await sbx.run(['customers', 'create', '--type', 'individual', '--birth-date', '2990-01-01'])
    expect([r.code, r.stdout]).toEqual([2, ''])
    expect(r.stderr).toMatch(
      new RegExp(
        '^Error: Missing flag: --full-name; invalid: birthDate \\(INVALID_INPUT\\)\n' +
          ' {2}- --full-name: is required\n' +
          ' {2}- birthDate: must not be in the future \\(today is \\d{4}-\\d{2}-\\d{2}\\), got 2990-01-01\n' +
          'Hint: Pass them as flags \\(or in --data\\); nothing was sent.\n$',
      ),
    )

    const json = await sbx.run([
      'customers',
      'create',
      '--type',
      'individual',
      '--full-name',
      'Old Ann',
      '--birth-date',
      '1850-03-01',
      '--json',
    ])
    expect(json.code).toBe(2)
    expect(json.json().error.details.errors).toEqual([
      {field: 'birthDate', message: 'must be on or after 1900-01-01, got 1850-03-01'},
    ])
    const blank = await sbx.run(['customers', 'create', '--type', 'individual', '--full-name', '  ', '--json'])
    expect(blank.code).toBe(2)
    expect(blank.json().error.details.errors).toEqual([
      {field: 'fullName', message: 'an individual needs a name (given and family name)'},
    ])
    expect(sbx.requestCount()).toBe(before)
    expect(sbx.emu.db.count('customers')).toBe(customers)
  })

  it('update refuses a future birth date too, and after its look-up GET does not claim "nothing was sent"', async () => {
    const c = await sbx.json([
      'customers',
      'create',
      '--type',
      'individual',
      '--full-name',
      'Born Right',
      '--birth-date',
      '1990-05-17',
    ])
    expect(c.birthDate).toBe('1990-05-17')
    const before = sbx.emu.requests.length
    const r = await sbx.run(['customers', 'update', c.id, '--birth-date', '2990-05-17'])
    expect([r.code, r.stdout]).toEqual([2, ''])
    expect(r.stderr).toMatch(/ {2}- birthDate: must not be in the future \(today is [\d-]+\), got 2990-05-17\n/)
    // the type was looked up (one GET), then the update refused: nothing changed, but not nothing sent
    expect(r.stderr).toContain(
      'Hint: Fix the fields listed above; only look-ups were sent (1 GET); nothing was changed.\n',
    )
    expect(sbx.emu.requests.slice(before).map((x) => x.method)).toEqual(['GET'])
    expect(sbx.emu.db.get<{birthDate: string}>('customers', c.id)!.birthDate).toBe('1990-05-17')
    // with the type given there is no look-up, and the hint says so
    const typed = await sbx.run(['customers', 'update', c.id, '--type', 'individual', '--birth-date', '2990-05-17'])
    expect(typed.code).toBe(2)
    expect(typed.stderr).toContain('Hint: Fix the fields listed above; nothing was sent.\n')
  })

  it('the sandbox refuses a future birth date on its own clock, listed with every other bad field, and stores nothing', async () => {
    const count = sbx.emu.db.count('customers')
    const r = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', birthDate: '2990-01-01', email: 'nope'})
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('INVALID_INPUT')
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual(['birthDate', 'email'])
    expect(sbx.emu.db.count('customers')).toBe(count)
    // A nameless individual is what the contract allows (spec/api-gaps.md: every individual field is
    // optional), so the sandbox takes it as the Service would; only `customers create` asks for a name.
    const nameless = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL'})
    expect(nameless.status).toBe(201)
  })
})

describe('confirmations off a terminal', () => {
  it('sandbox reset without --yes wipes nothing: exit 3 (confirmation refused)', async () => {
    const dir = join(tempDir('svc-reset-'), 'sandbox')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'sandbox.db'), 'state')
    const r = await sbx.run(['sandbox', 'reset', '--data-dir', dir])
    expect([r.code, r.stdout]).toEqual([3, ''])
    expect(r.stderr).toBe(
      `Error: Refusing to wipe all local sandbox state in ${dir} without confirmation (no terminal to ask on) (CANCELLED)\n` +
        'Hint: Pass --yes (-y) to confirm non-interactively; nothing was sent.\n',
    )
    expect(existsSync(join(dir, 'sandbox.db'))).toBe(true)
  })

  it('a revocation without --yes is refused off a terminal outside production too (exit 3); with -y it goes', async () => {
    const out = join(tempDir('svc-token-'), 'secret')
    const token = await sbx.json(['tokens', 'create', '--name', 'kept', '--permission', 'VIEW', '--out', out])
    const before = sbx.requestCount()
    const r = await sbx.run(['tokens', 'revoke', token.id])
    expect([r.code, r.stdout]).toEqual([3, ''])
    expect(r.stderr).toContain(
      `Error: Refusing to revoke ${token.id} without confirmation (no terminal to ask on) (CANCELLED)`,
    )
    expect(sbx.requestCount()).toBe(before)
    expect((await sbx.run(['tokens', 'revoke', token.id, '-y', '--json'])).json()).toEqual({revoked: token.id})
  })

  it('production without --yes is exit 3 (confirmation refused), not 2; nothing sent', async () => {
    const c = await sbx.json(['customers', 'create', '--type', 'individual', '--full-name', 'Prod Kept'])
    const before = sbx.requestCount()
    const r = await sbx.run(['customers', 'delete', c.id], {env: {SVC_ENVIRONMENT: 'production'}})
    expect([r.code, r.stdout]).toEqual([3, ''])
    expect(r.stderr).toContain(
      `Error: Refusing to delete ${c.id} in production without confirmation (no terminal to ask on) (CANCELLED)`,
    )
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('webhooks replay to a closed port', () => {
  it('says nothing listens there, not "HTTP 400" (exit 1)', async () => {
    const url = await deadUrl()
    const event = sbx.emu.webhooks.emit('CUSTOMER.UPDATED', {id: 'Customer:replayed'})
    const r = await sbx.run(['webhooks', 'replay', event.id, '--url', url])
    expect([r.code, r.stdout]).toEqual([1, ''])
    expect(r.stderr).toBe(
      `Error: ${event.id} was not delivered: nothing listens at ${url} (connection refused) (WEBHOOK_DELIVERY_ERROR)\n` +
        'Hint: Start the receiver (or `svc webhooks listen --port <port>`) and replay again; the attempt is recorded on the event.\n',
    )
    const json = await sbx.run(['webhooks', 'replay', event.id, '--url', url, '--json'])
    expect(json.code).toBe(1)
    expect(json.json().error).toMatchObject({status: null, code: 'WEBHOOK_DELIVERY_ERROR', details: {url}})
  })
})

describe('transactions list on an 80-column terminal', () => {
  it('STATUS is never cut inside its word: a lower column gives way (named in the footer), ids stay whole', async () => {
    const c = await approvedCustomer(sbx, ['USD'], {name: 'Wide Amounts'})
    const fund = await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 100_000_000})
    expect(fund.status).toBe(200)
    const tty = {stdoutIsTTY: true, columns: 80}
    const r = await sbx.run(['transactions', 'list', '--customer', c.id], tty)
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    // before: STATUS cut to "COMPL…" to keep RECEIVED; an empty SENT ("-") took room too
    expect(lines[0]).toMatch(/^ID\s+TYPE\s+STATUS\s+CREATED$/)
    expect(lines[1]).toMatch(/^Transaction:[\w-]{36}\s+IN\s+COMPLETED\s+(just now|\d+s ago)$/)
    expect(r.stdout).not.toContain('…')
    expect(r.stderr).toBe('(--wide shows 3 more: sent, received, customer)\n')
    const wide = await sbx.run(['transactions', 'list', '--customer', c.id, '--wide'], tty)
    expect(wide.stdout.split('\n')[1]).toMatch(/\s+INCOMING\s+COMPLETED\s+-\s+USD 1,000,000\.00\s+/)
  })
})

describe('help at 80 columns', () => {
  // examples are left whole on purpose (a command to paste), so only what comes before them counts
  const linesBeforeExamples = (help: string) => help.split('\nEXAMPLES')[0].split('\n')

  it('enums wrap between values, never inside one; no line passes 80', async () => {
    const tx = await sbx.run(['transactions', 'list', '--help'])
    expect(tx.code).toBe(0)
    for (const line of linesBeforeExamples(tx.stdout)) expect(line.length, line).toBeLessThanOrEqual(80)
    for (const value of ['PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REFUNDED', 'EXPIRED'])
      expect(tx.stdout, value).toMatch(new RegExp(`[\\s|<\\[]${value}[|>\\]\\s]`))
    expect(tx.stdout).toMatch(/<options: CREATED\|PENDING\|PENDING_AUTHORIZATION\|\n\s+PROCESSING\|COMPLETED\|/)
    const card = await sbx.run(['sandbox', 'card', '--help'])
    expect(card.code).toBe(0)
    for (const line of linesBeforeExamples(card.stdout)) expect(line.length, line).toBeLessThanOrEqual(80)
    for (const value of ['credit_authorization', 'credit_authorization_advice', 'authorization_expiry'])
      expect(card.stdout, value).toMatch(new RegExp(`[(|\\s]${value}[|)]`))
  })
})

describe('relative times against an advanced sandbox clock', () => {
  it('"just now" on the sandbox\'s clock (its Date header), not "in 30d" on this machine\'s', async () => {
    const ahead = await startSandbox()
    try {
      expect((await ahead.run(['sandbox', 'clock', 'advance', '30d'])).code).toBe(0)
      const c = await ahead.json(['customers', 'create', '--type', 'individual', '--full-name', 'Future Fay'])
      expect(Date.parse(c.createdAt) - Date.now()).toBeGreaterThan(29 * 86_400_000)
      const r = await ahead.run(['customers', 'list'], {stdoutIsTTY: true, columns: 120})
      expect(r.code, r.stderr).toBe(0)
      const row = r.stdout.split('\n').find((l) => l.startsWith(c.id))!
      expect(row).toMatch(/\s(just now|\d+s ago)$/)
      expect(r.stdout).not.toContain('in 30d')
      // doctor does not blame this machine's clock (and NTP) for a sandbox clock moved on purpose
      const doctor = await ahead.run(['doctor', '--json'])
      const clock = doctor.json().checks.find((c: {name: string}) => c.name === 'clock')
      expect(clock).toMatchObject({
        status: 'warn',
        detail: expect.stringMatching(
          /^the local sandbox's clock is ahead, at \S+ \(\d+h \d+m from this machine's\), moved on purpose$/,
        ),
        hint: 'Relative times follow it; `svc sandbox clock reset --force` puts it back on real time.',
      })
    } finally {
      await ahead.stop()
    }
  })
})

describe('list order', () => {
  it('customers list says it lists oldest first and why there is no --order; transactions list explains --order', async () => {
    const help = await sbx.run(['customers', 'list', '--help'])
    expect(help.stdout).toContain('Oldest first: the order the Service lists customers in.')
    expect((await sbx.run(['customers', 'list', '--order', 'asc'])).code).toBe(2)
    const tx = await sbx.run(['transactions', 'list', '--help'])
    expect(tx.stdout).toMatch(/--order=<option>\s+newest first \(desc, the default\) or oldest first\n\s+\(asc\)/)
    const created = (await sbx.json(['customers', 'list', '--all'])).data.map((c: {createdAt: string}) => c.createdAt)
    expect(created.length).toBeGreaterThan(2)
    expect(created).toEqual([...created].sort())
  })
})
