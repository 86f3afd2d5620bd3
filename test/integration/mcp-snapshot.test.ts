// A snapshot over MCP: `sandbox snapshot save/load` send no request and are not tools (docs/mcp.md,
// Snapshots); what a snapshot does over the wire, `sandbox create --from-snapshot` against a team
// server, is the tool sandbox_create, planned and confirmed like every write. The plan is bound to
// the file's bytes (their SHA-256 is in the described request), so a file changed after planning is
// refused. Build first (`npm run build`).
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {backupDatabase} from '../../src/emulator/store/files.js'
import {mcpSession, type McpSession} from '../helpers/mcp.js'
import {as, startMulti, type TestMulti} from '../helpers/multi-sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

let t: TestMulti
let mcp: McpSession
let snap: string
const home = tempDir('svc-mcp-snap-')

beforeAll(async () => {
  t = await startMulti()
  const src = await t.create('snap-src')
  const made = await as(src)('POST', '/customers', {
    platformCustomerId: 'from-snapshot',
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
  })
  expect(made.status).toBe(201)
  snap = join(home, 'snap.db')
  backupDatabase(join(t.dir, 'sandboxes', 'snap-src'), snap)
  mcp = await mcpSession({
    env: {
      HOME: home,
      SVC_CONFIG_DIR: join(home, 'config'),
      SVC_DATA_DIR: join(home, 'data'),
      SVC_BASE_URL: t.main.url,
      SVC_TOKEN_ID: t.main.tokenId,
      SVC_CLIENT_SECRET: t.main.clientSecret,
      SVC_SANDBOX_ADMIN_SECRET: t.multi.admin.clientSecret,
      SVC_NO_INPUT: '1',
    },
  })
}, 60_000)

afterAll(async () => {
  await mcp?.close()
  await t?.close()
})

const exists = async (name: string) => (await t.admin('GET', `/${name}`)).status === 200

describe('sandbox_create from a snapshot', () => {
  it('plans without creating, shows the file by size and SHA-256, creates once on confirmation', async () => {
    const args = {name: 'snap-a', 'from-snapshot': snap}
    const planned = await mcp.call('sandbox_create', args)
    expect(planned.isError, JSON.stringify(planned.doc)).toBe(false)
    const size = readFileSync(snap).length
    expect(planned.doc.plan.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        body: expect.stringMatching(new RegExp(`^${size} bytes, sha256 [0-9a-f]{64}$`)),
      }),
    ])
    expect(await exists('snap-a')).toBe(false)
    const done = await mcp.call('sandbox_create', {...args, confirm: planned.doc.plan.confirm})
    expect(done.isError, JSON.stringify(done.doc)).toBe(false)
    expect(done.doc).toMatchObject({name: 'snap-a'})
    expect(JSON.stringify(done.doc)).not.toContain(t.multi.admin.clientSecret)
    expect(await exists('snap-a')).toBe(true)
  })

  it('a snapshot file changed after planning (same name, same size) is refused, and nothing is created', async () => {
    const file = join(home, 'changing.db')
    writeFileSync(file, readFileSync(snap))
    const args = {name: 'snap-b', 'from-snapshot': file}
    const planned = await mcp.call('sandbox_create', args)
    expect(planned.isError, JSON.stringify(planned.doc)).toBe(false)
    const bytes = readFileSync(file)
    bytes[bytes.length - 1] ^= 0xff // the same size, other bytes
    writeFileSync(file, bytes)
    const r = await mcp.call('sandbox_create', {...args, confirm: planned.doc.plan.confirm})
    expect(r.isError).toBe(true)
    expect(r.doc.error.code).toBe('PLAN_MISMATCH')
    expect(await exists('snap-b')).toBe(false)
    expect(existsSync(join(t.dir, 'sandboxes', 'snap-b'))).toBe(false)
  })

  it('the snapshot commands themselves are not tools: they send no request', async () => {
    const names = (await mcp.tools()).map((tool) => tool.name)
    expect(names).toContain('sandbox_create')
    expect(names).not.toContain('sandbox_snapshot_save')
    expect(names).not.toContain('sandbox_snapshot_load')
  })
})
