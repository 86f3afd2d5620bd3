// `svc mcp` against an assistant that does not behave: for every money-moving, deleting or funding
// tool, plans that send nothing, made-up, crossed, tampered, replayed and padded confirmations,
// --read-only, a production profile with and without --allow-production, concurrent confirmations,
// the transport's own refusal of an unplanned request, and every answer grepped for the secret.
// Each case asserts that no write reached the sandbox and no balance changed, unless confirmed.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {CHASE_USD_FLAGS, balanceOf, externalAddArgs, fundedPayer, quoteArgs} from '../helpers/money.js'
import {mcpSession, type McpSession} from '../helpers/mcp.js'
import {tokenWith} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let main: McpSession
let readOnly: McpSession
let production: McpSession
let allowed: McpSession
let payer: Awaited<ReturnType<typeof fundedPayer>>
let usd: string
let bank: string

/** What must not change without a confirmation: every write that reached the sandbox, and every balance. */
const state = () => ({
  writes: sbx.emu.requests.filter((r) => r.method !== 'GET').length,
  balances: sbx.emu.db
    .all<{id: string; balance: {amount: number}}>('internalAccounts')
    .map((a) => `${a.id}=${a.balance.amount}`)
    .sort(),
})

/** The money-moving, deleting and funding tools, each with valid arguments and a tampered variant. */
const TOOLS: Record<string, {args: () => Promise<Record<string, unknown>>; tamper: () => Record<string, unknown>}> = {
  quote_execute: {
    args: async () => ({quoteId: (await sbx.json(quoteArgs(usd, payer.dest, '--send', '3.00'))).id}),
    tamper: () => ({wait: true}),
  },
  quote_send: {
    args: async () => ({from: usd, to: bank, 'amount-minor': '300'}),
    tamper: () => ({'amount-minor': '3000'}),
  },
  sandbox_fund: {
    args: async () => ({accountId: usd, 'amount-minor': '300'}),
    tamper: () => ({'amount-minor': '30000'}),
  },
  accounts_external_delete: {args: async () => ({accountId: bank}), tamper: () => ({accountId: payer.dest})},
  customers_delete: {args: async () => ({customerId: payer.id}), tamper: () => ({timeout: '31s'})},
}
const NAMES = Object.keys(TOOLS)

/** Runs `fn` and asserts that nothing was written and no balance moved meanwhile. */
async function nothingMoves(fn: () => Promise<void>) {
  const before = state()
  await fn()
  expect(state()).toEqual(before)
}

async function planOf(s: McpSession, tool: string, args: Record<string, unknown>) {
  const r = await s.call(tool, args)
  expect(r.isError, JSON.stringify(r.doc)).toBe(false)
  return r.doc.plan as {confirm: string; requestDigests: string[]; idempotencyKey: string}
}

async function refused(s: McpSession, tool: string, args: Record<string, unknown>, code: string) {
  const r = await s.call(tool, args)
  expect(r.isError).toBe(true)
  expect(r.doc.error.code).toBe(code)
}

beforeAll(async () => {
  sbx = await startSandbox()
  payer = await fundedPayer(sbx)
  usd = payer.account('USD')
  bank = (await sbx.json(externalAddArgs(payer.id, ...CHASE_USD_FLAGS, '--beneficiary-name', 'Ada Lovelace'))).id
  const prod = {SVC_ENVIRONMENT: 'production'}
  ;[main, readOnly, production, allowed] = await Promise.all([
    mcpSession(sbx),
    mcpSession(sbx, ['--read-only']),
    mcpSession(sbx, [], prod),
    mcpSession(sbx, ['--allow-production', '--tools', 'quote_*,accounts_internal_get'], prod),
  ])
}, 90_000)

afterAll(async () => {
  const sessions = [main, readOnly, production, allowed].filter(Boolean)
  await Promise.all(sessions.map((s) => s.close()))
})

describe.each(NAMES)('%s', (tool) => {
  it('a plan sends nothing and shows the exact request', async () => {
    const args = await TOOLS[tool].args()
    await nothingMoves(async () => {
      const plan = await planOf(main, tool, args)
      expect(plan.requestDigests).toHaveLength(1)
      expect(plan.confirm).toMatch(/^plan_/)
    })
  })

  it('a made-up token is refused', async () => {
    const args = await TOOLS[tool].args()
    await nothingMoves(() =>
      refused(main, tool, {...args, confirm: 'plan_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'}, 'PLAN_UNKNOWN'),
    )
  })

  it('arguments tampered with after planning are refused, and the plan is used up', async () => {
    const args = await TOOLS[tool].args()
    const plan = await planOf(main, tool, args)
    await nothingMoves(async () => {
      await refused(main, tool, {...args, ...TOOLS[tool].tamper(), confirm: plan.confirm}, 'PLAN_ARGS_CHANGED')
      await refused(main, tool, {...args, confirm: plan.confirm}, 'PLAN_USED')
    })
  })

  it('a token planned for another tool is refused', async () => {
    const other = NAMES[(NAMES.indexOf(tool) + 1) % NAMES.length]
    const plan = await planOf(main, other, await TOOLS[other].args())
    const args = await TOOLS[tool].args()
    await nothingMoves(() => refused(main, tool, {...args, confirm: plan.confirm}, 'PLAN_OTHER_TOOL'))
  })

  it('a token padded or altered by one character is refused', async () => {
    const args = await TOOLS[tool].args()
    const plan = await planOf(main, tool, args)
    await nothingMoves(async () => {
      await refused(main, tool, {...args, confirm: plan.confirm + 'x'}, 'PLAN_UNKNOWN')
      await refused(main, tool, {...args, confirm: ` ${plan.confirm}`}, 'PLAN_UNKNOWN')
    })
  })

  it('an input the tool does not take is refused before anything runs', async () => {
    const args = await TOOLS[tool].args()
    await nothingMoves(async () => {
      const r = await main.call(tool, {...args, yes: true, 'dry-run': false, 'idempotency-key': 'mine'})
      expect(r.isError).toBe(true)
      expect(r.doc.error.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
        'dry-run',
        'idempotency-key',
        'yes',
      ])
    })
  })

  it('--read-only has no such tool, and a call to it is refused', async () => {
    const args = await TOOLS[tool].args()
    await nothingMoves(async () => {
      const tools = await readOnly.tools()
      expect(tools.map((t) => t.name)).not.toContain(tool)
      await refused(readOnly, tool, args, 'UNKNOWN_TOOL')
    })
  })

  it('a production profile refuses to plan or confirm without --allow-production', async () => {
    const args = await TOOLS[tool].args()
    const plan = await planOf(main, tool, args)
    await nothingMoves(async () => {
      await refused(production, tool, args, 'PRODUCTION_REFUSED')
      await refused(production, tool, {...args, confirm: plan.confirm}, 'PRODUCTION_REFUSED')
    })
  })
})

describe('whole-server rules', () => {
  it.each(['quote_execute', 'quote_send'])('a %s token from another server is unknown to this one', async (tool) => {
    const args = await TOOLS[tool].args()
    const plan = await planOf(main, tool, args)
    await nothingMoves(() => refused(allowed, tool, {...args, confirm: plan.confirm}, 'PLAN_UNKNOWN'))
  })

  it('--read-only lists reads only', async () => {
    const tools = await readOnly.tools()
    expect(tools.length).toBeGreaterThan(50)
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([])
    expect(tools.some((t) => 'confirm' in (t.inputSchema.properties ?? {}))).toBe(false)
  })

  it('--tools offers only the matching tools', async () => {
    const tools = await allowed.tools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'accounts_internal_get',
      'quote_authorize',
      'quote_create',
      'quote_execute',
      'quote_get',
      'quote_receiver',
      'quote_send',
      'quote_wait',
    ])
  })

  it('production reads still answer', async () => {
    const r = await production.call('accounts_internal_get', {accountId: usd})
    expect(r.isError).toBe(false)
    expect(r.doc.id).toBe(usd)
  })

  it('production with --allow-production plans, then pays exactly once on confirmation', async () => {
    const args = await TOOLS.quote_send.args()
    const start = balanceOf(sbx, usd)
    const plan = await planOf(allowed, 'quote_send', args)
    expect(balanceOf(sbx, usd)).toBe(start)
    const paid = await allowed.call('quote_send', {...args, confirm: plan.confirm})
    expect(paid.isError, JSON.stringify(paid.doc)).toBe(false)
    expect(balanceOf(sbx, usd)).toBe(start - 300)
    await refused(allowed, 'quote_send', {...args, confirm: plan.confirm}, 'PLAN_USED')
    expect(balanceOf(sbx, usd)).toBe(start - 300)
  })

  it('concurrent confirmations of one transfer move the money once', async () => {
    const args = await TOOLS.quote_send.args()
    const start = balanceOf(sbx, usd)
    const plan = await planOf(main, 'quote_send', args)
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(() => main.call('quote_send', {...args, confirm: plan.confirm})),
    )
    expect(results.filter((r) => !r.isError)).toHaveLength(1)
    expect(balanceOf(sbx, usd)).toBe(start - 300)
  })

  it("the server holds the profile's credentials only: a VIEW token plans, and its confirmed payment is refused by the Service", async () => {
    const view = await tokenWith(sbx, ['VIEW'])
    const [tokenId, secret] = Buffer.from(view.auth.slice('Basic '.length), 'base64').toString().split(':')
    const viewer = await mcpSession(sbx, [], {SVC_TOKEN_ID: tokenId, SVC_CLIENT_SECRET: secret})
    try {
      const args = await TOOLS.quote_execute.args()
      const plan = await planOf(viewer, 'quote_execute', args)
      const before = state()
      const r = await viewer.call('quote_execute', {...args, confirm: plan.confirm})
      expect(r.isError).toBe(true)
      expect(r.doc.error.status).toBe(403)
      // The one write that was sent is the planned one, refused by the authorization table: no balance moved.
      expect(state()).toEqual({...before, writes: before.writes + 1})
      expect(sbx.emu.requests.at(-1)).toMatchObject({method: 'POST', path: expect.stringMatching(/\/execute$/)})
      expect([...viewer.outputs, viewer.log()].join('\n')).not.toContain(secret)
    } finally {
      await viewer.close()
    }
  })

  it('an empty token is a made-up one', async () => {
    const args = await TOOLS.sandbox_fund.args()
    await nothingMoves(() => refused(main, 'sandbox_fund', {...args, confirm: ''}, 'PLAN_UNKNOWN'))
  })

  it('the transport itself refuses a write that is not the planned one, and sends the planned one', async () => {
    const plan = await planOf(main, 'sandbox_fund', {accountId: usd, 'amount-minor': '400'})
    const env = {SVC_PLANNED_REQUESTS: plan.requestDigests.join(','), SVC_PLAN_IDEMPOTENCY_KEY: plan.idempotencyKey}
    await nothingMoves(async () => {
      const r = await sbx.run(['sandbox', 'fund', usd, '--amount-minor', '500', '--json'], {env})
      expect(r.code).toBe(2)
      expect(r.json().error.code).toBe('PLAN_MISMATCH')
    })
    const start = balanceOf(sbx, usd)
    const ok = await sbx.run(['sandbox', 'fund', usd, '--amount-minor', '400', '--json'], {env})
    expect(ok.code, ok.stderr).toBe(0)
    expect(balanceOf(sbx, usd)).toBe(start + 400)
  })

  it('a read tool runs with an empty plan: its command could send nothing but GETs', async () => {
    await nothingMoves(async () => {
      const r = await sbx.run(['sandbox', 'fund', usd, '--amount-minor', '500', '--json'], {
        env: {SVC_PLANNED_REQUESTS: ''},
      })
      expect(r.code).toBe(2)
      expect(r.json().error.code).toBe('PLAN_MISMATCH')
    })
    const read = await main.call('accounts_internal_get', {accountId: usd})
    expect(read.doc.id).toBe(usd)
  })

  it('a confirmed delete deletes, and its replay is refused', async () => {
    const args = {accountId: bank}
    const plan = await planOf(main, 'accounts_external_delete', args)
    const done = await main.call('accounts_external_delete', {...args, confirm: plan.confirm})
    expect(done.isError, JSON.stringify(done.doc)).toBe(false)
    await nothingMoves(() => refused(main, 'accounts_external_delete', {...args, confirm: plan.confirm}, 'PLAN_USED'))
  })

  it('no answer of any server, nor any server log, carries the client secret', () => {
    const secret = sbx.emu.credentials.clientSecret
    const basic = Buffer.from(`${sbx.emu.credentials.tokenId}:${secret}`).toString('base64')
    const texts = [main, readOnly, production, allowed].flatMap((s) => [...s.outputs, s.log()])
    expect(texts.length).toBeGreaterThan(60)
    for (const text of texts) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(basic)
    }
  })
})
