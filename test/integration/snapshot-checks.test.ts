import {createHash} from 'node:crypto'
import {copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {backupDatabase} from '../../src/emulator/store/files.js'
import {SCHEMA_VERSION} from '../../src/emulator/store/migrations.js'
import {declaredSchema} from '../../src/emulator/store/snapshot-schema.js'
import {openConnection} from '../../src/emulator/store/sqlite.js'
import {readConfig} from '../../src/lib/config.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {httpPayer} from '../helpers/money.js'
import {as, http, removeDir, startMulti, type Creds, type TestMulti} from '../helpers/multi-sandbox.js'

/**
 * Issue 29 (F5, F6, F16): a snapshot or branch brings documents only. Its schema must be exactly the
 * sandbox's (anything else refused, named); its API and agent tokens stay behind; its settings are listed.
 */
let t: TestMulti
let src: Creds
let payer: {id: string; usd: string}
let token: {clientId: string; clientSecret: string}
let agentToken: string
const work = mkdtempSync(join(tmpdir(), 'svc-snapcheck-'))
const fixture = join(work, 'fixture.db')
let env: Record<string, string>
let base: string[]

beforeAll(async () => {
  t = await startMulti()
  src = await t.create('fx')
  const api = as(src)
  payer = await httpPayer(api, 'Fixture payer', 1_234_56)
  expect((await api('PATCH', '/config', {sandbox: {legacySignatures: true}})).status).toBe(200)
  token = (await api('POST', '/tokens', {name: 'fixture-token', permissions: ['VIEW', 'TRANSACT', 'MANAGE']})).body
  const policy = {
    permissions: ['VIEW_TRANSACTIONS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: {currency: 'USD', perTransactionLimit: 1_000},
  }
  const agent = await api('POST', '/agents', {
    name: 'fixture-agent',
    customerId: payer.id,
    policy,
  })
  expect(agent.status).toBe(201)
  agentToken = (await api('POST', `/agents/device-codes/${agent.body.deviceCode.code}/redeem`)).body.accessToken
  // A second, unredeemed device code: a credential too.
  expect((await api('POST', '/agents', {name: 'idle', customerId: payer.id, policy})).status).toBe(201)
  backupDatabase(join(t.dir, 'sandboxes', 'fx'), fixture)
  env = {
    HOME: work,
    SVC_CONFIG_DIR: join(work, 'cfg'),
    SVC_SANDBOX_ADMIN_SECRET: t.multi.admin.clientSecret,
    NO_COLOR: '1',
  }
  base = ['--base-url', t.multi.url]
}, 60_000)
afterAll(async () => {
  await t.close()
  removeDir(t.dir)
  removeDir(work)
})

const basic = (id: string, secret: string) => ({tokenId: id, clientSecret: secret})
const bearer = (tok: string) => ({authorization: `Bearer ${tok}`})
const balanceOf = async (c: Creds) =>
  (await as(c)('GET', `/internal-account?customerId=${payer.id}`)).body.data.find(
    (a: {id: string}) => a.id === payer.usd,
  )?.balance.amount as number | undefined

/** The fixture with `sql` run on it (a fixture someone doctored), as a file of its own. */
function doctored(name: string, sql: string[], from = fixture): string {
  const file = join(work, `${name}.db`)
  copyFileSync(from, file)
  const conn = openConnection(file, {check: 'none'})
  for (const s of sql) conn.exec(s)
  conn.exec('PRAGMA journal_mode = DELETE')
  conn.close()
  return file
}

/** The F5 trigger: sets a balance to 777,777,777 after any update of an account. */
const EVIL_TRIGGER = `CREATE TRIGGER fx_evil AFTER UPDATE ON internalAccounts BEGIN UPDATE internalAccounts SET doc = json_set(doc, '$.balance.amount', 777777777) WHERE id = NEW.id; END`

/** F16: a SQLite file of someone else's, with a schema version as a sandbox's has. */
function foreignFile(): string {
  const file = join(work, 'foreign.db')
  rmSync(file, {force: true})
  const conn = openConnection(file, {check: 'none'})
  conn.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT)')
  conn.exec('PRAGMA user_version = 1')
  conn.exec('PRAGMA journal_mode = DELETE')
  conn.close()
  return file
}

/** A trigger the current code declares on `table`. */
const declaredTrigger = (table: string): string =>
  [...declaredSchema()].find(([, d]) => d.type === 'trigger' && d.sql.includes(` ON "${table}" `))![0]

describe('a snapshot that is a backup of a sandbox is taken, without the credentials of its source', () => {
  it('svc sandbox create --from-snapshot: customers and balances come along, settings are listed, tokens stay behind', async () => {
    const r = await svc(
      ['sandbox', 'create', 'fx-copy', '--from-snapshot', fixture, '--show-secret', ...base, '--json'],
      {
        env,
      },
    )
    expect(r.code, r.stderr + r.stdout).toBe(0)
    const made = r.json()
    expect(made.inheritedSettings).toMatchObject({legacySignatures: true})
    expect(made.droppedCredentials).toEqual({apiTokens: 1, agentTokens: 1, agentDeviceCodes: 2})
    expect(made.agentsDisconnected).toBe(2)
    const br: Creds = {url: made.url, tokenId: made.tokenId, clientSecret: made.clientSecret}
    expect(br.tokenId).not.toBe(src.tokenId)
    expect((await as(br)('GET', `/customers/${payer.id}`)).body.fullName).toBe('Fixture payer')
    expect(await balanceOf(br)).toBe(1_234_56)
    expect((await as(br)('GET', '/config')).body.sandbox.legacySignatures).toBe(true)

    // The fixture's token and agent token work on the fixture's sandbox, and on the branch not at all.
    expect((await http(`${src.url}/customers`, basic(token.clientId, token.clientSecret), 'GET')).status).toBe(200)
    expect((await http(`${br.url}/customers`, basic(token.clientId, token.clientSecret), 'GET')).status).toBe(401)
    const minted = await http(`${br.url}/tokens`, basic(token.clientId, token.clientSecret), 'POST', {
      name: 'x',
      permissions: ['VIEW'],
    })
    expect(minted.status).toBe(401)
    expect((await http(`${src.url}/agents/me`, undefined, 'GET', undefined, bearer(agentToken))).status).toBe(200)
    expect((await http(`${br.url}/agents/me`, undefined, 'GET', undefined, bearer(agentToken))).status).toBe(401)
    const agents = (await as(br)('GET', `/agents?customerId=${payer.id}`)).body.data
    expect(agents.map((a: {isConnected: boolean}) => a.isConnected)).toEqual([false, false])
    expect((await as(br)('GET', '/tokens')).body.data).toEqual([])

    // The human form says the same.
    const human = await svc(['sandbox', 'create', 'fx-copy2', '--from', 'fx', ...base], {env})
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toMatch(/inheritedSettings\s+.*legacySignatures=true/)
    expect(human.stdout).toMatch(/droppedCredentials\s+1 apiTokens, 1 agentTokens, 2 agentDeviceCodes/)
  }, 60_000)
})

describe('a snapshot with schema objects of its own is refused (422 INVALID_SNAPSHOT), naming each, and nothing is created', () => {
  const cases: Array<[string, () => string, string[]]> = [
    ['an extra trigger', () => doctored('extra-trigger', [EVIL_TRIGGER]), ['trigger "fx_evil"']],
    [
      "a declared trigger's name with another body",
      () => {
        const name = declaredTrigger('customers')
        return doctored('other-body', [
          `DROP TRIGGER "${name}"`,
          `CREATE TRIGGER "${name}" AFTER INSERT ON customers BEGIN UPDATE counts SET n = 777777777; END`,
        ])
      },
      [`trigger "${declaredTrigger('customers')}"`],
    ],
    ['an extra table', () => doctored('extra-table', ['CREATE TABLE loot (x TEXT)']), ['table "loot"']],
    ['a view', () => doctored('view', ['CREATE VIEW everything AS SELECT doc FROM customers']), ['view "everything"']],
    [
      'an extra index',
      () => doctored('extra-index', ['CREATE INDEX customers_by_doc ON customers (doc)']),
      ['index "customers_by_doc"'],
    ],
    [
      'an extra column',
      () => doctored('extra-column', ["ALTER TABLE customers ADD COLUMN note TEXT DEFAULT 'x'"]),
      ['table "customers"'],
    ],
    [
      'an extra trigger in a file that says it is older',
      () =>
        doctored('old-trigger', [
          'CREATE TRIGGER fx_old AFTER DELETE ON apiTokens BEGIN SELECT 1; END',
          'PRAGMA user_version = 2',
        ]),
      ['trigger "fx_old"'],
    ],
    ['a foreign SQLite file with user_version 1', foreignFile, ['table "notes"', 'table "config"']],
  ]
  it.each(cases)(
    '%s: svc sandbox create --from-snapshot exits 1 naming it',
    async (label, make, objects) => {
      const name = `bad-${label.replace(/\W+/g, '-').slice(0, 40)}`.replace(/-$/, '')
      const file = make()
      const r = await svc(['sandbox', 'create', name, '--from-snapshot', file, ...base, '--json'], {env})
      expect(r.code, r.stdout + r.stderr).toBe(1)
      const error = r.json().error
      expect(error.code).toBe('INVALID_SNAPSHOT')
      expect(error.status).toBe(422)
      expect(error.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([...objects].sort())
      for (const o of objects) expect(error.reason).toContain(o)
      // Nothing was created: no sandbox, no directory, no staging left over, no profile.
      expect((await t.admin('GET', `/${name}`)).status).toBe(404)
      expect(existsSync(join(t.dir, 'sandboxes', name))).toBe(false)
      expect(readdirSync(join(t.dir, 'sandboxes')).filter((f) => f.startsWith('.'))).toEqual([])
      expect(readConfig(env).profiles?.[name]).toBeUndefined()
    },
    30_000,
  )

  it('an index an older version declared and this one retired is left behind; at the current version it is refused', async () => {
    const retired = 'CREATE INDEX customers_is_deleted_created_at_id ON customers (is_deleted, created_at, id)'
    const upload = (file: string, name: string) =>
      t.admin('POST', `?name=${name}`, new Uint8Array(readFileSync(file)), {'content-type': 'application/vnd.sqlite3'})
    const old = await upload(doctored('retired-old', [retired, 'PRAGMA user_version = 3']), 'retired-old')
    expect(old.status).toBe(201)
    const conn = openConnection(join(t.dir, 'sandboxes', 'retired-old', 'sandbox.db'), {readonly: true, check: 'none'})
    const has = conn
      .prepare("SELECT 1 FROM sqlite_master WHERE name = 'customers_is_deleted_created_at_id'")
      .raw()
      .get()
    expect(Number((conn.prepare('PRAGMA user_version').raw().get() as unknown as unknown[])[0])).toBe(SCHEMA_VERSION)
    conn.close()
    expect(has).toBeUndefined()
    expect(await balanceOf(old.body)).toBe(1_234_56)
    const now = await upload(doctored('retired-now', [retired]), 'retired-now')
    expect(now.status).toBe(422)
    expect(now.body.details.errors).toEqual([
      {field: 'index "customers_is_deleted_created_at_id"', message: 'is not part of the sandbox schema'},
    ])
  })
})

describe('svc sandbox snapshot load: the same checks for a local sandbox', () => {
  const dataDir = join(work, 'local')
  const db = join(dataDir, 'sandbox.db')
  const digest = () => createHash('sha256').update(readFileSync(db)).digest('hex')
  const load = (file: string, verb = ['snapshot', 'load']) =>
    svc(['sandbox', ...verb, file, '--data-dir', dataDir, '--yes', '--json'], {env})
  const count = (table: string) => {
    const conn = openConnection(db, {readonly: true, check: 'none'})
    try {
      return Number((conn.prepare(`SELECT count(*) FROM "${table}"`).raw().get() as unknown as unknown[])[0])
    } finally {
      conn.close()
    }
  }

  it('refuses a doctored or foreign file naming the object, replacing nothing; takes a backup without its tokens', async () => {
    // One's own backup restored keeps its tokens (it is not a hand-over).
    const restored = await load(fixture, ['restore'])
    expect(restored.code, restored.stderr).toBe(0)
    expect(restored.json().droppedCredentials).toEqual({apiTokens: 0, agentTokens: 0, agentDeviceCodes: 0})
    expect([count('apiTokens'), count('agentTokens'), count('customers')]).toEqual([1, 1, 1])
    const before = digest()
    for (const [file, object] of [
      [doctored('local-trigger', [EVIL_TRIGGER]), 'trigger "fx_evil"'],
      [foreignFile(), 'table "notes"'],
      [doctored('local-view', ['CREATE VIEW everything AS SELECT doc FROM customers']), 'view "everything"'],
    ] as const) {
      const r = await load(file)
      expect(r.code, r.stdout + r.stderr).toBe(1)
      const error = r.json().error
      expect(error.code).toBe('INVALID_SNAPSHOT')
      expect(error.details.errors.map((e: {field: string}) => e.field)).toContain(object)
      expect(digest()).toBe(before)
      expect(existsSync(`${db}.before-restore`)).toBe(false)
      expect(existsSync(`${db}.restoring`)).toBe(false)
    }

    const ok = await load(fixture)
    expect(ok.code, ok.stdout + ok.stderr).toBe(0)
    expect(ok.json()).toMatchObject({
      droppedCredentials: {apiTokens: 1, agentTokens: 1, agentDeviceCodes: 2},
      agentsDisconnected: 2,
      inheritedSettings: {legacySignatures: true},
    })
    expect([count('apiTokens'), count('agentTokens'), count('agentDeviceCodes'), count('customers')]).toEqual([
      0, 0, 0, 1,
    ])
    expect(existsSync(`${db}.before-restore`)).toBe(true) // the state it replaced
  }, 60_000)
})
