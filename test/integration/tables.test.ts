import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {EnclaveClient} from '../helpers/enclave.js'
import {api, approvedCustomer} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {NO_TMUX, TmuxSession, hasTmux} from '../helpers/tmux.js'
import {loginArgs} from '../helpers/cli.js'

let sbx: TestSandbox
const names = ['Ada Lovelace', 'Grace "Amazing" Hopper, Rear Admiral of the United States Navy', 'Katherine Johnson']
beforeAll(async () => {
  sbx = await startSandbox()
  for (const fullName of names)
    await api(sbx, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName,
      platformCustomerId: `p-${fullName.length}`,
    })
  const c = await approvedCustomer(sbx, ['USD'], {name: 'Funded Customer'})
  for (const amount of [1000, 250_000, 99])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(c.account('USD'))}/fund`, {amount})
})
afterAll(async () => sbx.stop())

describe('list output formats', () => {
  it('csv for spreadsheets: a header, every row, quotes and commas escaped, ISO dates', async () => {
    const r = await sbx.run(['customers', 'list', '--output', 'csv'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('ID,TYPE,NAME,STATUS,PLATFORM ID,CREATED')
    expect(lines).toHaveLength(names.length + 2)
    expect(r.stdout).toContain(',"Grace ""Amazing"" Hopper, Rear Admiral of the United States Navy",UNVERIFIED,p-62,')
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT[\d:.]+Z$/)
  })

  it('ndjson: one API object per line', async () => {
    const r = await sbx.run(['customers', 'list', '--output', 'ndjson'])
    expect(r.code, r.stderr).toBe(0)
    const objects = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(objects.map((o) => o.fullName).sort()).toEqual([...names, 'Funded Customer'].sort())
    expect(objects[0]).toMatchObject({id: expect.stringMatching(/^Customer:/), customerType: 'INDIVIDUAL'})
  })

  it('--output json is --json; --columns picks columns when piped (tab-separated)', async () => {
    const json = await sbx.run(['transactions', 'list', '--output', 'json'])
    expect(json.code, json.stderr).toBe(0)
    expect(json.json().data).toHaveLength(3)
    const cols = await sbx.run(['transactions', 'list', '--columns', 'status,received'])
    expect(cols.stdout.split('\n').slice(0, 2)).toEqual([
      'STATUS\tRECEIVED',
      expect.stringMatching(/^COMPLETED\tUSD [\d,.]+$/),
    ])
    const csv = await sbx.run(['transactions', 'list', '--output', 'csv', '--columns', 'id,received'])
    // a plain number (no grouping comma, no code) and the currency in a column of its own
    expect(csv.stdout.split('\r\n')[0]).toBe('ID,RECEIVED,RECEIVED CURRENCY')
    expect(csv.stdout).toMatch(/\r\nTransaction:[\w-]+,2500\.00,USD\r\n/)
  })

  it('refuses an unknown column or format before any request (exit 2)', async () => {
    const before = sbx.requestCount()
    const bad = await sbx.run(['customers', 'list', '--columns', 'id,colour', '--json'])
    expect(bad.code).toBe(2)
    expect(bad.json().error).toMatchObject({code: 'USAGE', reason: '--columns: unknown column colour'})
    expect(bad.json().error.hint).toContain('id, type, name, status, platform-id, created')
    const fmt = await sbx.run(['transactions', 'list', '--output', 'xml'])
    expect(fmt.code).toBe(2)
    expect(fmt.stderr).toMatch(/--output/)
    expect(sbx.requestCount()).toBe(before)
  })
})

/**
 * What an operator's terminal shows (stdout, then stderr: the tables' notes go there after the rows),
 * in-process on a terminal of `width` columns (run-command.ts: stdout/stderr/stdin are TTYs). The
 * table layout reads only the stream's width, so this is the screen tmux shows (tmux proves it
 * once, and keeps what only a real terminal and the binary show: help, which oclif wraps itself).
 */
async function terminalLines(args: string[], width = 80, exit: number | number[] = 0): Promise<string[]> {
  const r = await sbx.run(args, {
    env: {NO_COLOR: '1', TERM: 'xterm-256color', CI: undefined, SVC_NO_INPUT: undefined},
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stdinIsTTY: true,
    columns: width,
  })
  expect([exit].flat(), r.stderr).toContain(r.code)
  const lines = (r.stdout + r.stderr)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim())
  if (process.env.SVC_TEST_SHOW) console.log(lines.join('\n'))
  return lines
}

describe.skipIf(!hasTmux)('tables on an 80-column terminal (tmux)', () => {
  async function screenOf(args: string[], width = 80, exit: number | number[] = 0): Promise<string[]> {
    const t = new TmuxSession(args, {env: {...sbx.env, NO_COLOR: '1'}, width})
    try {
      expect([exit].flat()).toContain(await t.exitCode())
      const lines = t
        .screen()
        .split('\n')
        .filter((l) => l.trim())
      if (process.env.SVC_TEST_SHOW) console.log(lines.join('\n'))
      return lines
    } finally {
      t.kill()
    }
  }

  // The built binary on a real pseudo-terminal: the width comes from the terminal, not from a test's
  // number, and the in-process screen below is what the terminal shows. First, before other tests add rows.
  it('customers list fits: no line longer than 80, no separator rows, long names cut with …; the same screen in-process', async () => {
    const customers = await screenOf(['customers', 'list'])
    for (const line of customers) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(customers[0]).toMatch(/^ID\s+NAME\s+STATUS/)
    expect(customers.some((l) => /Grace "Amazing" Ho\w*… {2}/.test(l))).toBe(true)
    expect(customers.filter((l) => /^[─━-]+$/.test(l.replace(/[┼┤├│ ]/g, '')))).toEqual([])
    expect(customers.filter((l) => l.startsWith('Customer:'))).toHaveLength(names.length + 1)
    expect(await terminalLines(['customers', 'list'])).toEqual(customers.map((l) => l.trimEnd()))
  })

  it('help wraps between words: the summaries oclif prints as they are no longer break mid-word', async () => {
    // capture-pane -J joins what the terminal folded: a line the terminal cut would come back longer than 80.
    const root = await screenOf(['--help'])
    for (const line of root) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(root.slice(0, 2)).toEqual([
      "The operator's command line for the Service: customers, KYC/KYB, accounts,",
      'quotes, embedded wallets, and a local sandbox',
    ])
    const authorize = await screenOf(['quote', 'authorize', '--help'])
    for (const line of authorize) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(authorize[0]).toMatch(/ PENDING_AUTHORIZATION /) // whole
    const topic = await screenOf(['help', 'quote'])
    expect(topic.slice(0, 2)).toEqual([
      'Quotes and transfers: rate, fees, totals and time left; execute with',
      'confirmation; wait to a terminal state',
    ])
  })
})

describe('tables on an 80-column terminal (in-process TTY)', () => {
  it('transactions list fits: no line longer than 80', async () => {
    const txs = await terminalLines(['transactions', 'list'])
    for (const line of txs) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(txs.filter((l) => l.startsWith('Transaction:'))).toHaveLength(3)
  })

  it('wallet keys list (about 290 columns of ids and keys) fits 80 columns', async () => {
    const {accountId} = await new EnclaveClient(sbx).createCustomer()
    expect((await sbx.run(['wallet', 'login', accountId])).code).toBe(0)
    const keys = await terminalLines(['wallet', 'keys', 'list'])
    for (const line of keys) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(keys[0]).toMatch(/ACCOUNT\s+EXPIRES/) // who holds a key, and until when, before anything else
    expect(keys.some((l) => l.includes(accountId))).toBe(true) // ids are never cut
  })

  it('transactions list keeps TYPE (IN/OUT when narrow) and RECEIVED at 80 columns', async () => {
    const txs = await terminalLines(['transactions', 'list'])
    expect(txs[0]).toMatch(/^ID\s+TYPE\s+STATUS\s+RECEIVED$/)
    const rows = txs.filter((l) => l.startsWith('Transaction:'))
    expect(rows).toHaveLength(3)
    for (const row of rows) expect(row).toMatch(/^Transaction:[\w-]{36}\s+IN\s+COMPLETED\s+USD [\d,]+\.\d\d$/)
    expect(rows.some((r) => r.endsWith('USD 2,500.00'))).toBe(true)
    expect(txs.at(-1)).toBe('(--wide shows 3 more: sent, created, customer)')
    // With room, the full type.
    const wide = await terminalLines(['transactions', 'list'], 160)
    expect(wide.find((l) => l.startsWith('Transaction:'))).toMatch(/\s+INCOMING\s+COMPLETED\s+/)
  })

  it('webhooks events list: an upper-case header like every table; event ids and types whole', async () => {
    const events = [
      sbx.emu.webhooks.emit('OUTGOING_PAYMENT.COMPLETED', {
        id: 'Transaction:0b6f3c2e-9a1c-4c55-8d2e-000000000001',
        status: 'COMPLETED',
      }),
      sbx.emu.webhooks.emit('CUSTOMER.KYC_APPROVED', {
        id: 'Customer:0b6f3c2e-9a1c-4c55-8d2e-000000000002',
        kycStatus: 'APPROVED',
      }),
    ]
    const lines = await terminalLines(['webhooks', 'events', 'list'])
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
    // The id (44) and the longest type (26) take the width: the rest is behind --wide, never a cut id or type.
    expect(lines[0]).toMatch(/^ID\s+TYPE$/)
    expect(lines).toContain(`${events[0].id}  OUTGOING_PAYMENT.COMPLETED`)
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${events[1].id}  CUSTOMER\\.KYC_APPROVED\\s*$`)))
    expect(lines.at(-1)).toBe('(--wide shows 4 more: object, state, delivery, time)')
    const wide = await terminalLines(['webhooks', 'events', 'list'], 200)
    expect(wide[0]).toMatch(/^ID\s+TYPE\s+OBJECT\s+STATE\s+DELIVERY\s+TIME$/)
    expect(wide).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${events[1].id}\\s+CUSTOMER\\.KYC_APPROVED\\s+Customer:\\S+002\\s+APPROVED\\s+`),
      ),
    )
  })

  it('profiles list shows the whole base URL, port and version included', async () => {
    const login = await sbx.run(loginArgs('a-rather-long-profile-name', sbx.url, sbx.env.SVC_TOKEN_ID), {
      input: sbx.env.SVC_CLIENT_SECRET,
    })
    expect(login.code, login.stderr).toBe(0)
    const lines = await terminalLines(['profiles', 'list'])
    expect(lines[0]).toMatch(/^\s+NAME\s+ENVIRONMENT\s+BASE URL$/)
    expect(lines.at(-1)).toBe('(--wide shows 2 more: token-id, secret)')
    expect(lines.find((l) => l.includes('a-rather-long-profile-name'))).toContain(sbx.url) // http://127.0.0.1:<port>/2025-10-13
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
  })

  it('doctor wraps long details under the detail column, between words', async () => {
    const lines = await terminalLines(['doctor'], 80, [0, 1])
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
    // "- sandbox database  /tmp/svc-home-…/data/sandbox/sandbox.db does not exist yet (made at the first start)"
    const db = lines.findIndex((l) => /^. sandbox database\s+\//.test(l))
    const detailColumn = lines[db].indexOf('/')
    expect(detailColumn).toBe(20) // after the widest check name
    expect(lines[db + 1]).toMatch(/^ {20}\S/) // continues under the detail, not at the left edge
    expect(`${lines[db]} ${lines[db + 1].trim()}`).toMatch(
      /sandbox\.db does not exist yet \(made at the first start\)$/,
    ) // broken between words
  })

  it('an empty list says so, with a hint, instead of a bare header; --json and pipes are unchanged', async () => {
    const lines = await terminalLines(['customers', 'list', '--platform-id', 'nobody-has-this'])
    expect(lines).toEqual(['No customers.', 'Create one with `svc customers create`.'])
    const piped = await sbx.run(['customers', 'list', '--platform-id', 'nobody-has-this'])
    expect(piped.stdout).toBe('ID\tTYPE\tNAME\tSTATUS\tPLATFORM ID\tCREATED\n') // a header for scripts, as before
    const json = await sbx.run(['customers', 'list', '--platform-id', 'nobody-has-this', '--json'])
    expect(json.json()).toEqual({data: [], hasMore: false, totalCount: 0})
    expect(json.stderr).toBe('')
  })

  it('--wide shows every column even past the terminal width', async () => {
    const wide = await terminalLines(['customers', 'list', '--wide'])
    expect(wide[0]).toMatch(/^ID\s+TYPE\s+NAME\s+STATUS\s+PLATFORM ID\s+CREATED$/)
    expect(wide.some((l) => l.includes(names[1]))).toBe(true)
    expect(Math.max(...wide.map((l) => l.length))).toBeGreaterThan(80)
  })
})

// Without tmux the skipped test's name is the reason, so a CI log says why pseudo-terminal tests did not run.
if (!hasTmux) it.skip(`tables on an 80-column terminal: ${NO_TMUX}`, () => {})
