import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {EnclaveClient} from '../helpers/enclave.js'
import {api, approvedCustomer} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {NO_TMUX, TmuxSession, hasTmux} from '../helpers/tmux.js'

let sbx: TestSandbox
const names = ['Ada Lovelace', 'Grace "Amazing" Hopper, Rear Admiral of the United States Navy', 'Katherine Johnson']
beforeAll(async () => {
  sbx = await startSandbox()
  for (const fullName of names) await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName, platformCustomerId: `p-${fullName.length}`})
  const c = await approvedCustomer(sbx, ['USD'], {name: 'Funded Customer'})
  for (const amount of [1000, 250_000, 99]) await api(sbx, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(c.account('USD'))}/fund`, {amount})
})
afterAll(async () => sbx.stop())

const run = (args: string[]) => svc(args, {env: sbx.env})

describe('list output formats', () => {
  it('csv for spreadsheets: a header, every row, quotes and commas escaped, ISO dates', async () => {
    const r = await run(['customers', 'list', '--output', 'csv'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('ID,TYPE,NAME,STATUS,PLATFORM ID,CREATED')
    expect(lines).toHaveLength(names.length + 2)
    expect(r.stdout).toContain(',"Grace ""Amazing"" Hopper, Rear Admiral of the United States Navy",UNVERIFIED,p-62,')
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT[\d:.]+Z$/)
  })

  it('ndjson: one API object per line', async () => {
    const r = await run(['customers', 'list', '--output', 'ndjson'])
    expect(r.code, r.stderr).toBe(0)
    const objects = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(objects.map((o) => o.fullName).sort()).toEqual([...names, 'Funded Customer'].sort())
    expect(objects[0]).toMatchObject({id: expect.stringMatching(/^Customer:/), customerType: 'INDIVIDUAL'})
  })

  it('--output json is --json; --columns picks columns when piped (tab-separated)', async () => {
    const json = await run(['transactions', 'list', '--output', 'json'])
    expect(json.code, json.stderr).toBe(0)
    expect(json.json().data).toHaveLength(3)
    const cols = await run(['transactions', 'list', '--columns', 'status,received'])
    expect(cols.stdout.split('\n').slice(0, 2)).toEqual(['STATUS\tRECEIVED', expect.stringMatching(/^COMPLETED\tUSD [\d,.]+$/)])
    const csv = await run(['transactions', 'list', '--output', 'csv', '--columns', 'id,received'])
    expect(csv.stdout).toMatch(/\r\nTransaction:[\w-]+,USD 2500\.00\r\n/) // no grouping comma in csv amounts
  })

  it('refuses an unknown column or format before any request (exit 2)', async () => {
    const before = sbx.requestCount()
    const bad = await run(['customers', 'list', '--columns', 'id,colour', '--json'])
    expect(bad.code).toBe(2)
    expect(bad.json().error).toMatchObject({code: 'USAGE', reason: '--columns: unknown column colour'})
    expect(bad.json().error.hint).toContain('id, type, name, status, platform-id, created')
    const fmt = await run(['transactions', 'list', '--output', 'xml'])
    expect(fmt.code).toBe(2)
    expect(fmt.stderr).toMatch(/--output/)
    expect(sbx.requestCount()).toBe(before)
  })
})

describe.skipIf(!hasTmux)('tables on an 80-column terminal (tmux)', () => {
  async function screenOf(args: string[], width = 80): Promise<string[]> {
    const t = new TmuxSession(args, {env: {...sbx.env, NO_COLOR: '1'}, width})
    try {
      expect(await t.exitCode()).toBe(0)
      const lines = t.screen().split('\n').filter((l) => l.trim())
      if (process.env.SVC_TEST_SHOW) console.log(lines.join('\n'))
      return lines
    } finally {
      t.kill()
    }
  }

  it('customers list and transactions list fit: no line longer than 80, no separator rows, long names cut with …', async () => {
    const customers = await screenOf(['customers', 'list'])
    for (const line of customers) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(customers[0]).toMatch(/^ID\s+NAME\s+STATUS/)
    expect(customers.some((l) => /Grace "Amazing" Ho\w*…  /.test(l))).toBe(true)
    expect(customers.filter((l) => /^[─━-]+$/.test(l.replace(/[┼┤├│ ]/g, '')))).toEqual([])
    expect(customers.filter((l) => l.startsWith('Customer:'))).toHaveLength(names.length + 1)

    const txs = await screenOf(['transactions', 'list'])
    for (const line of txs) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(txs.filter((l) => l.startsWith('Transaction:'))).toHaveLength(3)
  })

  it('wallet keys list (about 290 columns of ids and keys) fits 80 columns', async () => {
    const {accountId} = await new EnclaveClient(sbx).createCustomer()
    expect((await run(['wallet', 'login', accountId])).code).toBe(0)
    const keys = await screenOf(['wallet', 'keys', 'list'])
    for (const line of keys) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(keys[0]).toMatch(/ACCOUNT\s+EXPIRES/) // who holds a key, and until when, before anything else
    expect(keys.some((l) => l.includes(accountId))).toBe(true) // ids are never cut
  })

  it('--wide shows every column even past the terminal width', async () => {
    const wide = await screenOf(['customers', 'list', '--wide'])
    expect(wide[0]).toMatch(/^ID\s+TYPE\s+NAME\s+STATUS\s+PLATFORM ID\s+CREATED$/)
    expect(wide.some((l) => l.includes(names[1]))).toBe(true)
    expect(Math.max(...wide.map((l) => l.length))).toBeGreaterThan(80)
  })
})

// Without tmux the skipped test's name is the reason, so a CI log says why pseudo-terminal tests did not run.
if (!hasTmux) it.skip(`tables on an 80-column terminal: ${NO_TMUX}`, () => {})
