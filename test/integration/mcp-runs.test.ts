// How `svc mcp` runs a tool's command: in its own process (src/lib/mcp/runner.ts), with the same
// argv, environment and path as `svc <command> --json`, so a confirmed write is in `svc history`
// exactly as the CLI records it; a call that comes while another runs gets a child `svc`. And
// tools/list in pages with cursors, through the SDK's own Client. Build first (`npm run build`).
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ErrorCode, McpError} from '@modelcontextprotocol/sdk/types.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {balanceOf, fundedPayer} from '../helpers/money.js'
import {mcpSession, type McpSession} from '../helpers/mcp.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

const RECORDER = new URL('../helpers/spawn-recorder.mjs', import.meta.url).href

let sbx: TestSandbox
let mcp: McpSession
let usd: string
let spawnLog: string
/** The argv of every child process the server spawned so far. */
const spawned = (): string[][] =>
  existsSync(spawnLog)
    ? readFileSync(spawnLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : []

beforeAll(async () => {
  sbx = await startSandbox()
  usd = (await fundedPayer(sbx)).account('USD')
  spawnLog = join(sbx.env.HOME, 'spawned.jsonl')
  mcp = await mcpSession(sbx, [], {NODE_OPTIONS: `--import ${RECORDER}`, SVC_SPAWN_LOG: spawnLog})
}, 60_000)

afterAll(async () => {
  await mcp?.close()
})

describe('svc mcp runs the commands of its tools in its own process', () => {
  it('a read, a plan and its confirmation spawn no child, and the write is in svc history as the CLI records it', async () => {
    const read = await mcp.call('accounts_internal_get', {accountId: usd})
    expect(read.isError, JSON.stringify(read.doc)).toBe(false)
    const start = read.doc.balance.amount
    const args = {accountId: usd, 'amount-minor': '250'}
    const plan = (await mcp.call('sandbox_fund', args)).doc.plan
    expect(balanceOf(sbx, usd)).toBe(start)
    const paid = await mcp.call('sandbox_fund', {...args, confirm: plan.confirm})
    expect(paid.isError, JSON.stringify(paid.doc)).toBe(false)
    expect(balanceOf(sbx, usd)).toBe(start + 250)
    expect(spawned()).toEqual([])

    const history = (await sbx.run(['history', '--json'])).json() as Array<Record<string, unknown>>
    // The record `svc sandbox fund <account> --amount-minor=250 --json` run by hand would leave.
    const mine = history.filter((r) =>
      String(r.path).endsWith(`/sandbox/internal-accounts/${encodeURIComponent(usd)}/fund`),
    )
    expect(mine).toEqual([
      expect.objectContaining({
        method: 'POST',
        outcome: 'ok',
        status: 200,
        profile: 'local',
        command: `svc sandbox fund ${usd} --amount-minor=250 --json`,
      }),
    ])
  })

  it('a bad argument and a refusal come back as the CLI gives them, from the same process', async () => {
    const bad = await mcp.call('customers_get', {customerId: 'Quote:nope'})
    expect(bad.isError).toBe(true)
    expect(bad.doc.error.code).toBe('INVALID_INPUT')
    const missing = await mcp.call('customers_get', {customerId: 'Customer:nope'})
    expect(missing.isError).toBe(true)
    expect(missing.doc.error.status).toBe(404)
    expect(spawned()).toEqual([])
  })

  it('calls that overlap run one in the process and the others as child svc processes, all answered', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => mcp.call('accounts_internal_get', {accountId: usd})))
    expect(answers.map((a) => a.isError)).toEqual([false, false, false])
    expect(new Set(answers.map((a) => a.doc.id))).toEqual(new Set([usd]))
    const children = spawned()
    expect(children.length).toBeGreaterThanOrEqual(1)
    expect(children.length).toBeLessThanOrEqual(2)
    for (const argv of children) expect(argv.slice(1, 5)).toEqual(['accounts', 'internal', 'get', usd])
  })
})

describe('tools/list pages with cursors', () => {
  it('gives every tool once, in pages of at most 50, the last without a cursor', async () => {
    const pages = []
    let cursor: string | undefined
    do {
      const page = await mcp.client.listTools(cursor === undefined ? undefined : {cursor})
      pages.push(page.tools.map((t) => t.name))
      cursor = page.nextCursor
    } while (cursor !== undefined)
    const names = pages.flat()
    expect(pages.length).toBeGreaterThanOrEqual(3)
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(50)
    expect(pages.at(-1)!.length).toBeLessThanOrEqual(50)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual([...names].sort())
    expect(names).toEqual((await mcp.tools()).map((t) => t.name))
  })

  it('refuses a cursor it did not give (invalid params)', async () => {
    for (const cursor of ['nope', '', Buffer.from('no_such_tool').toString('base64url')]) {
      const error = await mcp.client.listTools({cursor}).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(McpError)
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams)
    }
  })
})
