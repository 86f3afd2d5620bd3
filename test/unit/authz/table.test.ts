import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {authorize, entryFor} from '../../../src/emulator/authz/enforce.js'
import {AUTHZ_TABLE} from '../../../src/emulator/authz/table.js'
import {Emulator} from '../../../src/emulator/emulator.js'
import {HttpError} from '../../../src/emulator/http-error.js'
import {readContract} from '../../helpers/contract.js'

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
/** `:name` (router) and `{name}` (contract) are the same thing: a parameter. */
const shape = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') || /^\{.+\}$/.test(s) ? '*' : s))
    .join('/')
/** A concrete path for a pattern: every parameter becomes a value no literal segment has. */
const sample = (path: string) =>
  '/' +
  path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') || /^\{.+\}$/.test(s) ? 'Sample:1' : s))
    .join('/')

let emu: Emulator
let dir: string
let contractOps: Array<{method: string; path: string; operationId: string}>
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-authz-'))
  emu = await Emulator.start({dataDir: dir, port: 0})
  const doc = (await readContract()) as {paths: Record<string, Record<string, {operationId: string}>>}
  contractOps = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({method: m.toUpperCase(), path, operationId: item[m].operationId})),
  )
})
afterAll(async () => {
  await emu.close()
  rmSync(dir, {recursive: true, force: true})
})

describe('the authorization table', () => {
  it('names every operation of the contract, as the contract names it (method, path, operationId)', () => {
    expect(contractOps).toHaveLength(153)
    const missing = contractOps.filter(
      (o) => !AUTHZ_TABLE.some((e) => e.method === o.method && e.path === o.path && e.operationId === o.operationId),
    )
    expect(missing.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([])
    const stale = AUTHZ_TABLE.filter((e) => e.operationId && !contractOps.some((o) => o.operationId === e.operationId))
    expect(stale.map((e) => e.operationId)).toEqual([])
    const ids = AUTHZ_TABLE.flatMap((e) => (e.operationId ? [e.operationId] : []))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("names every route the sandbox registers, with the route's own shape (no route is left to a looser entry)", () => {
    const routes = emu.router.patterns()
    expect(routes.length).toBeGreaterThan(150)
    const unnamed = routes.filter((r) => {
      const e = entryFor(r.method, sample(r.pattern))
      return !e || shape(e.path) !== shape(r.pattern)
    })
    expect(unnamed.map((r) => `${r.method} ${r.pattern}`)).toEqual([])
  })

  it('has no entry of its own that no route serves', () => {
    const own = AUTHZ_TABLE.filter((e) => !e.operationId)
    const stale = own.filter(
      (e) => !emu.router.patterns().some((r) => r.method === e.method && shape(r.pattern) === shape(e.path)),
    )
    expect(stale.map((e) => `${e.method} ${e.path}`)).toEqual([])
  })

  it('a literal segment wins over a parameter, wherever the two differ', () => {
    expect(entryFor('GET', '/customers/internal-accounts')?.operationId).toBe('listCustomerInternalAccounts')
    expect(entryFor('GET', '/customers/Customer:1')?.operationId).toBe('getCustomerById')
    expect(entryFor('GET', '/agents/me')?.operationId).toBe('getAgentMe')
    expect(entryFor('GET', '/agents/Agent:1')?.operationId).toBe('getAgentById')
    expect(entryFor('POST', '/sandbox/cards/Card:1/simulate/clearing')?.operationId).toBe('sandboxSimulateCardClearing')
    expect(entryFor('POST', '/sandbox/cards/Card:1/simulate/authorization_expiry')?.path).toBe(
      '/sandbox/cards/{id}/simulate/{kind}',
    )
    expect(entryFor('GET', '/nothing/here')).toBeUndefined()
  })

  it('fails closed: a route without an entry is refused, whoever calls', () => {
    const all = {kind: 'platform' as const, tokenId: 'local', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] as const}
    let refusal: unknown
    try {
      authorize(emu, undefined, all, 'GET', '/new-route')
    } catch (e) {
      refusal = e
    }
    expect(refusal).toBeInstanceOf(HttpError)
    expect((refusal as HttpError).body()).toMatchObject({code: 'FORBIDDEN'})
    expect((refusal as HttpError).status).toBe(403)
  })
})
