// The sandbox's one operation table (issue 35 item 4): routing, authorization, idempotency, body caps
// and units all come from authz/table/, handlers are bound to its entries, and nothing else routes.
// Job kinds are one typed list (jobs.ts) the same way.
import {mkdtempSync, readFileSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {AUTHZ_TABLE, keyOf, type AuthzEntry} from '../../../src/emulator/authz/table.js'
import {Emulator} from '../../../src/emulator/emulator.js'
import {JOB_KINDS, type JobKind} from '../../../src/emulator/jobs.js'
import {Router, type Handler} from '../../../src/emulator/router.js'
import {registerRoutes} from '../../../src/emulator/routes/index.js'
import {Scheduler} from '../../../src/emulator/scheduler.js'
import type {Db} from '../../../src/emulator/store/db.js'

const emulator = fileURLToPath(new URL('../../../src/emulator/', import.meta.url))
const walk = (dir: string): string[] =>
  readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
const source = (f: string) => readFileSync(f, 'utf8')
const ok: Handler = () => ({status: 204})
/** Every route module's handlers, bound to a router over `table`. */
const wired = (table: readonly AuthzEntry[] = AUTHZ_TABLE) => {
  const router = new Router(table)
  registerRoutes(router)
  return router
}
const thrown = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    return (e as Error).message
  }
  return 'nothing thrown'
}

describe('the operation table', () => {
  it('every entry has exactly one handler once the route modules are wired, and every route is an entry', () => {
    const router = wired().complete()
    expect(router.patterns()).toHaveLength(AUTHZ_TABLE.length)
    expect(router.patterns()).toEqual(AUTHZ_TABLE.map((e) => ({method: e.method, pattern: e.path})))
  })

  it('refuses an operation registered outside the table: an unknown key, or a path spelled otherwise', () => {
    const router = new Router()
    expect(thrown(() => router.handle('GET /not/in/the/table', ok))).toMatch(
      /GET \/not\/in\/the\/table is not in the operation table/,
    )
    expect(thrown(() => router.handle('makeMoneyFromNothing', ok))).toMatch(
      /makeMoneyFromNothing is not in the operation table/,
    )
    // The router's own parameter syntax is no way in either: a key is the table's spelling.
    expect(thrown(() => router.handle('GET /customers/:customerId', ok))).toMatch(/not in the operation table/)
    expect(router.match('GET', '/not/in/the/table')).toBeUndefined()
  })

  it('refuses a second handler for an operation, by operationId or by its METHOD /path', () => {
    const router = wired()
    expect(thrown(() => router.handle('getCustomerById', ok))).toMatch(/getCustomerById has two handlers/)
    expect(thrown(() => router.handle('GET /customers/{customerId}', ok))).toMatch(/getCustomerById has two handlers/)
    expect(thrown(() => router.handle('GET /sandbox/clock', ok))).toMatch(/GET \/sandbox\/clock has two handlers/)
  })

  it('refuses a table entry that no handler serves, naming it (the sandbox does not start)', () => {
    const extra: AuthzEntry = {method: 'POST', path: '/sandbox/unserved', who: {kind: 'public'}, note: 'test'}
    expect(thrown(() => wired([...AUTHZ_TABLE, extra]).complete())).toBe(
      'Operations with no handler: POST /sandbox/unserved',
    )
    expect(thrown(() => new Router([extra, extra]))).toMatch(/names POST \/sandbox\/unserved twice/)
  })

  it('no source file routes any other way: no per-method registration, and only route modules bind handlers', () => {
    const files = walk(emulator)
    const perMethod = files.filter((f) => /\brouter\.(get|post|put|patch|delete|add)\(/.test(source(f)))
    expect(perMethod).toEqual([])
    const binders = files.filter((f) => /\.handle\(\s*['`]/.test(source(f))).map((f) => f.slice(emulator.length))
    expect(binders.length).toBeGreaterThan(20)
    expect(binders.filter((f) => !f.startsWith('routes/'))).toEqual([])
  })

  it('routes the most specific template first, whatever order the table or the route modules come in', () => {
    for (const router of [wired(), wired([...AUTHZ_TABLE].reverse())]) {
      const op = (method: string, path: string) => {
        const m = router.match(method, path)
        return m && 'op' in m ? keyOf(m.op) : m
      }
      expect(op('GET', '/customers/internal-accounts')).toBe('listCustomerInternalAccounts')
      expect(op('GET', '/customers/external-accounts')).toBe('listCustomerExternalAccounts')
      expect(op('GET', '/customers/Customer:1')).toBe('getCustomerById')
      expect(op('GET', '/agents/me')).toBe('getAgentMe')
      expect(op('GET', '/agents/Agent:1')).toBe('getAgentById')
      expect(op('POST', '/sandbox/cards/Card:1/simulate/clearing')).toBe('sandboxSimulateCardClearing')
      expect(op('POST', '/sandbox/cards/Card:1/simulate/authorization_expiry')).toBe(
        'POST /sandbox/cards/{id}/simulate/{kind}',
      )
      expect(op('PUT', '/customers/internal-accounts')).toEqual({allow: ['DELETE', 'GET', 'HEAD', 'PATCH']})
    }
    // Parameters carry the table's names, URL-decoded.
    const m = wired().match('GET', '/transactions/Transaction%3A7')
    expect(m && 'params' in m ? m.params : m).toEqual({transactionId: 'Transaction:7'})
  })

  it('idempotency, body caps and units are declared in the table only, never in a handler', () => {
    const keyed = AUTHZ_TABLE.filter((e) => e.idempotency)
    expect(keyed.map(keyOf).sort()).toEqual(
      [
        'agentCreateQuote',
        'agentCreateTransferIn',
        'agentCreateTransferOut',
        'agentExecuteQuote',
        'createCard',
        'createCustomerKycLink',
        'createQuote',
        'createStablecoinBurn',
        'createStablecoinMint',
        'createTransferIn',
        'createTransferOut',
        'executeQuote',
        'linkStablecoinProviderAccount',
        'registerStablecoin',
      ].sort(),
    )
    // A scope's {param} is one of the path's, so every key is scoped to the object it acts on.
    for (const e of keyed)
      for (const [, name] of e.idempotency!.scope.matchAll(/\{(\w+)\}/g)) expect(e.path).toContain(`{${name}}`)
    const handlers = walk(emulator).filter((f) => /^(routes|domain)\//.test(f.slice(emulator.length)))
    const spelled = handlers.filter((f) => /idempoten(t\(|cy-key)|\bmaxBody\b|\bunit: false\b/i.test(source(f)))
    expect(spelled.map((f) => f.slice(emulator.length))).toEqual([])
  })

  it('has one front door: only the listener writes an HTTP answer or makes a server', () => {
    const writers = walk(emulator).filter((f) => /\.writeHead\(|\bcreateServer\(/.test(source(f)))
    expect(writers.map((f) => f.slice(emulator.length))).toEqual(['listener.ts'])
  })
})

describe('the job kinds', () => {
  const clock = {now: () => 0, ticking: () => false}
  const scheduler = () => new Scheduler({} as Db, clock, () => {})

  it('a kind has one handler, and a kind left without one is named', () => {
    const s = scheduler()
    s.on('quote.expire', () => {})
    expect(thrown(() => s.on('quote.expire', () => {}))).toMatch(/quote\.expire has two handlers/)
    const message = thrown(() => s.complete())
    for (const kind of Object.keys(JOB_KINDS).filter((k) => k !== 'quote.expire')) expect(message).toContain(kind)
    expect(message).not.toContain('quote.expire')
  })

  it('a started sandbox has a handler for every declared kind, one each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-jobs-'))
    const emu = await Emulator.start({dataDir: dir, port: 0})
    try {
      const kinds = Object.keys(JOB_KINDS) as JobKind[]
      expect(kinds).toHaveLength(17)
      expect(() => emu.scheduler.complete()).not.toThrow()
      for (const kind of kinds) expect(thrown(() => emu.scheduler.on(kind, () => {}))).toMatch(/has two handlers/)
    } finally {
      await emu.close()
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
