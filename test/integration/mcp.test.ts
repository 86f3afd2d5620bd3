// `svc mcp` through the SDK's own client (Client + StdioClientTransport spawning the built binary)
// against a real local sandbox: tools listed with schemas, a read, and a payment that is planned
// without moving money, paid once on confirmation, and refused when made up, replayed, expired,
// crossed with another tool or sent with changed arguments. Balances are read from the sandbox's
// store at every step. Build first (`npm run build`).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api, fundedPayer, balanceOf, quoteArgs, expectConserved} from '../helpers/money.js'
import {mcpSession, type McpSession} from '../helpers/mcp.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let mcp: McpSession
let payer: Awaited<ReturnType<typeof fundedPayer>>
let usd: string
const executes = () =>
  sbx.emu.requests.filter((r) => r.method === 'POST' && /\/quotes\/.+\/execute$/.test(r.path)).length
const newQuote = async (send = '10.00') => sbx.json(quoteArgs(usd, payer.dest, '--send', send))

beforeAll(async () => {
  sbx = await startSandbox()
  payer = await fundedPayer(sbx)
  usd = payer.account('USD')
  mcp = await mcpSession(sbx, ['--plan-ttl', '2s'])
}, 60_000)

afterAll(async () => {
  await mcp?.close()
  // No tool answer, nor the server's log, ever carried the client secret or the Basic credential.
  const secret = sbx.emu.credentials.clientSecret
  const basic = Buffer.from(`${sbx.emu.credentials.tokenId}:${secret}`).toString('base64')
  for (const text of [...(mcp?.outputs ?? []), mcp?.log() ?? '']) {
    expect(text).not.toContain(secret)
    expect(text).not.toContain(basic)
  }
  expect(mcp.outputs.length).toBeGreaterThan(20)
})

describe('svc mcp: tools', () => {
  it('lists the commands as tools with object input schemas, leaving out the local-only ones', async () => {
    const tools = await mcp.tools()
    const names = tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['customers_list', 'quote_execute', 'sandbox_fund', 'sandbox_clock']))
    for (const omitted of ['login', 'wallet_export', 'webhooks_listen', 'tokens_create', 'mcp', 'flow_run'])
      expect(names).not.toContain(omitted)
    expect(tools.length).toBeGreaterThan(120)
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object')
      for (const [name, p] of Object.entries(t.inputSchema.properties ?? {}))
        expect((p as {description?: string}).description, `${t.name}.${name}`).toBeTruthy()
    }
    const execute = tools.find((t) => t.name === 'quote_execute')!
    expect(execute.inputSchema.required).toEqual(['quoteId'])
    expect(Object.keys(execute.inputSchema.properties!)).toEqual(['quoteId', 'timeout', 'wait', 'confirm'])
    expect(execute.annotations).toMatchObject({readOnlyHint: false, destructiveHint: true})
    const list = tools.find((t) => t.name === 'customers_list')!
    expect(list.annotations).toMatchObject({readOnlyHint: true})
    expect(Object.keys(list.inputSchema.properties!)).toEqual(expect.arrayContaining(['limit', 'cursor', 'type']))
    expect(list.inputSchema.properties).not.toHaveProperty('confirm')
  })

  it('a read answers the command’s --json document, paging with cursors', async () => {
    const others = [await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Grace Hopper'})]
    const first = await mcp.call('customers_list', {limit: 1})
    expect(first.isError).toBe(false)
    expect(first.doc).toMatchObject({hasMore: true, nextCursor: expect.any(String)})
    const second = await mcp.call('customers_list', {limit: 1, cursor: first.doc.nextCursor})
    const seen = [...first.doc.data, ...second.doc.data].map((c: {id: string}) => c.id).sort()
    expect(seen).toEqual([payer.id, others[0].body.id].sort())
    expect(second.doc.hasMore).toBe(false)
    const get = await mcp.call('accounts_internal_get', {accountId: usd})
    expect(get.isError).toBe(false)
    expect(get.doc.balance.amount).toBe(100_000)
  })

  it('bad input is refused before anything runs, every bad field named', async () => {
    const before = sbx.emu.requests.length
    const r = await mcp.call('customers_list', {limt: 2, cursor: {}, 'include-deleted': 'yes'})
    expect(r.isError).toBe(true)
    expect(r.doc.error.code).toBe('INVALID_INPUT')
    expect(r.doc.error.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'cursor',
      'include-deleted',
      'limt',
    ])
    expect(sbx.emu.requests.length).toBe(before)
  })

  it('offers the guides as resources and prompts for common jobs', async () => {
    const {resources} = await mcp.client.listResources()
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['svc://docs/kyc.md', 'svc://docs/money.md']))
    const money = await mcp.client.readResource({uri: 'svc://docs/money.md'})
    expect((money.contents[0] as {text: string}).text).toMatch(/quote/i)
    const {prompts} = await mcp.client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual(['onboard-individual', 'why-pending'])
    const why = await mcp.client.getPrompt({name: 'why-pending', arguments: {transactionId: 'Transaction:x1'}})
    expect((why.messages[0].content as {text: string}).text).toContain('Transaction:x1')
  })
})

describe('svc mcp: plan, then confirm', () => {
  it('plans a payment without moving money, pays once on confirmation, refuses a replay', async () => {
    const quote = await newQuote()
    const start = balanceOf(sbx, usd)
    const plan = await mcp.call('quote_execute', {quoteId: quote.id})
    expect(plan.isError).toBe(false)
    const p = plan.doc.plan
    expect(p.confirm).toMatch(/^plan_[\w-]{32}$/)
    expect(p.requests).toHaveLength(1)
    // The command's scoped key (`<key>:execute`), the same one the confirmed run sends.
    expect(p.requests[0]).toMatchObject({method: 'POST', headers: {'idempotency-key': `${p.idempotencyKey}:execute`}})
    expect(p.requests[0].url).toMatch(/\/quotes\/Quote%3A.+\/execute$/)
    expect(p.requests[0].headers.authorization).toBe('Basic [REDACTED]')
    expect(p.summary).toMatchObject({quote: quote.id, sends: `USD ${(quote.totalSendingAmount / 100).toFixed(2)}`})
    expect(p.summary.destination).toMatchObject({accountId: payer.dest})
    expect(Date.parse(p.expiresAt)).toBeGreaterThan(Date.now())
    expect(balanceOf(sbx, usd)).toBe(start)
    expect(executes()).toBe(0)

    const paid = await mcp.call('quote_execute', {quoteId: quote.id, confirm: p.confirm})
    expect(paid.isError, JSON.stringify(paid.doc)).toBe(false)
    expect(paid.doc.id ?? paid.doc.quote?.id).toBeDefined()
    expect(balanceOf(sbx, usd)).toBe(start - quote.totalSendingAmount)
    expect(executes()).toBe(1)
    expect(mcp.log()).toContain(`confirmed quote_execute (key ${p.idempotencyKey}): exit 0`)

    const again = await mcp.call('quote_execute', {quoteId: quote.id, confirm: p.confirm})
    expect(again.isError).toBe(true)
    expect(again.doc.error.code).toBe('PLAN_USED')
    expect(balanceOf(sbx, usd)).toBe(start - quote.totalSendingAmount)
    expect(executes()).toBe(1)
    await expectConserved(sbx)
  })

  it('refuses a made-up token, changed arguments, a token of another tool, and an expired plan', async () => {
    const quote = await newQuote('5.00')
    const other = await newQuote('6.00')
    const start = balanceOf(sbx, usd)
    const sent = executes()
    const refused = async (args: Record<string, unknown>, code: string, tool = 'quote_execute') => {
      const r = await mcp.call(tool, args)
      expect(r.isError).toBe(true)
      expect(r.doc.error.code).toBe(code)
      expect(balanceOf(sbx, usd)).toBe(start)
      expect(executes()).toBe(sent)
    }
    const planOf = async (args: Record<string, unknown>, tool = 'quote_execute') =>
      (await mcp.call(tool, args)).doc.plan.confirm as string

    await refused({quoteId: quote.id, confirm: 'plan_madeupmadeupmadeupmadeupmadeupmade'}, 'PLAN_UNKNOWN')
    await refused({quoteId: other.id, confirm: await planOf({quoteId: quote.id})}, 'PLAN_ARGS_CHANGED')
    await refused({quoteId: quote.id, wait: true, confirm: await planOf({quoteId: quote.id})}, 'PLAN_ARGS_CHANGED')
    // A refused confirmation uses the plan up: it cannot be tried again with the right arguments.
    const burnt = await planOf({quoteId: quote.id})
    await refused({quoteId: other.id, confirm: burnt}, 'PLAN_ARGS_CHANGED')
    await refused({quoteId: quote.id, confirm: burnt}, 'PLAN_USED')
    const fund = await planOf({accountId: usd, 'amount-minor': '100'}, 'sandbox_fund')
    await refused({quoteId: quote.id, confirm: fund}, 'PLAN_OTHER_TOOL')
    const stale = await planOf({quoteId: quote.id})
    await new Promise((r) => setTimeout(r, 2100)) // the server runs with --plan-ttl 2s
    await refused({quoteId: quote.id, confirm: stale}, 'PLAN_EXPIRED')
  })

  it('concurrent confirmations of one plan send it once', async () => {
    const quote = await newQuote('7.00')
    const start = balanceOf(sbx, usd)
    const sent = executes()
    const token = (await mcp.call('quote_execute', {quoteId: quote.id})).doc.plan.confirm
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => mcp.call('quote_execute', {quoteId: quote.id, confirm: token})),
    )
    expect(results.filter((r) => !r.isError)).toHaveLength(1)
    expect(results.filter((r) => r.isError).map((r) => r.doc.error.code)).toEqual([
      'PLAN_USED',
      'PLAN_USED',
      'PLAN_USED',
    ])
    expect(executes()).toBe(sent + 1)
    expect(balanceOf(sbx, usd)).toBe(start - quote.totalSendingAmount)
  })

  it('a sandbox control plans and confirms the same way: funding credits once', async () => {
    const start = balanceOf(sbx, usd)
    const plan = await mcp.call('sandbox_fund', {accountId: usd, 'amount-minor': '2500'})
    expect(plan.doc.plan.summary).toEqual({amount: 2500, amountFormatted: 'USD 25.00'})
    expect(balanceOf(sbx, usd)).toBe(start)
    const done = await mcp.call('sandbox_fund', {
      accountId: usd,
      'amount-minor': '2500',
      confirm: plan.doc.plan.confirm,
    })
    expect(done.isError, JSON.stringify(done.doc)).toBe(false)
    expect(done.doc.balance.amount).toBe(start + 2500)
    expect(balanceOf(sbx, usd)).toBe(start + 2500)
  })
})
