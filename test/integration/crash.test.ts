import {spawn, type ChildProcess} from 'node:child_process'
import {appendFileSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Pool} from 'undici'
import {afterAll, describe, expect, it} from 'vitest'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
const home = mkdtempSync(join(tmpdir(), 'svc-crash-'))
const dataDir = join(home, 'sandbox')
const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
  rmSync(home, {recursive: true, force: true})
})

interface Ready {
  url: string
  tokenId: string
  clientSecret: string
}

/** `svc sandbox serve` as its own process (so it can be killed for real), resolved at its ready line. */
function serve(): Promise<{child: ChildProcess; ready: Ready; stderr: () => string}> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--data-dir', dataDir], {
    env: {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1'},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const nl = out.indexOf('\n')
      if (nl >= 0) resolve({child, ready: JSON.parse(out.slice(0, nl)), stderr: () => err})
    })
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)))
  })
}

const authOf = (r: Ready) => 'Basic ' + Buffer.from(`${r.tokenId}:${r.clientSecret}`).toString('base64')

describe('durability: kill -9 during a burst of creates', () => {
  it('keeps every acknowledged create, corrupts nothing, and ignores a torn last record', async () => {
    const first = await serve()
    const base = new URL(first.ready.url)
    const pool = new Pool(base.origin, {connections: 16})
    const acked: Array<{id: string; platformCustomerId: string}> = []
    let killed = false
    let sent = 0
    const createOne = async (i: number) => {
      const platformCustomerId = `crash-${i}`
      try {
        const res = await pool.request({
          method: 'POST',
          path: `${base.pathname}/customers`,
          headers: {authorization: authOf(first.ready), 'content-type': 'application/json'},
          body: JSON.stringify({customerType: 'INDIVIDUAL', platformCustomerId, fullName: `Crash Test ${i}`, currencies: ['USD']}),
        })
        const body = (await res.body.json()) as {id: string}
        if (res.statusCode === 201) acked.push({id: body.id, platformCustomerId})
      } catch {
        // In flight when the process died: not acknowledged, so nothing is promised.
      }
    }
    // 16 concurrent writers until the sandbox dies; it is killed once 150 creates are acknowledged.
    const writers = Array.from({length: 16}, async () => {
      while (!killed && sent < 5000) await createOne(sent++)
    })
    const killer = (async () => {
      while (acked.length < 150) await new Promise((r) => setTimeout(r, 2))
      first.child.kill('SIGKILL')
      killed = true
    })()
    await Promise.all([killer, ...writers])
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode ? r(undefined) : first.child.once('exit', r)))
    await pool.destroy()
    expect(first.child.signalCode).toBe('SIGKILL')
    expect(sent).toBeGreaterThan(acked.length) // some were in flight at the kill

    // What a kill -9 in the middle of a write leaves: half a JSON line at the end of the journal.
    appendFileSync(join(dataDir, 'journal.ndjson'), '{"c":"customers","k":"Customer:torn","v":{"id":"Custo')

    const second = await serve()
    expect(second.ready.tokenId).toBe(first.ready.tokenId) // same data dir, same credentials
    const pool2 = new Pool(new URL(second.ready.url).origin, {connections: 8})
    const prefix = new URL(second.ready.url).pathname
    try {
      for (const a of acked) {
        const res = await pool2.request({method: 'GET', path: `${prefix}/customers/${encodeURIComponent(a.id)}`, headers: {authorization: authOf(second.ready)}})
        const body = (await res.body.json()) as {id: string; platformCustomerId: string; customerType: string}
        expect(res.statusCode, a.id).toBe(200)
        expect(body).toMatchObject({id: a.id, platformCustomerId: a.platformCustomerId, customerType: 'INDIVIDUAL'})
      }
      // Every stored customer is whole and the torn record is not among them.
      const list = await pool2.request({method: 'GET', path: `${prefix}/customers?limit=100`, headers: {authorization: authOf(second.ready)}})
      const page = (await list.body.json()) as {totalCount: number; data: Array<{id: string; fullName: string}>}
      expect(page.totalCount).toBeGreaterThanOrEqual(acked.length)
      expect(page.data.every((c) => /^Customer:/.test(c.id) && c.fullName.startsWith('Crash Test'))).toBe(true)
      const missing = await pool2.request({method: 'GET', path: `${prefix}/customers/${encodeURIComponent('Customer:torn')}`, headers: {authorization: authOf(second.ready)}})
      await missing.body.text()
      expect(missing.statusCode).toBe(404)
      // The sandbox keeps taking writes after the repair, on a clean line.
      const after = await pool2.request({
        method: 'POST',
        path: `${prefix}/customers`,
        headers: {authorization: authOf(second.ready), 'content-type': 'application/json'},
        body: JSON.stringify({customerType: 'INDIVIDUAL', platformCustomerId: 'after-crash'}),
      })
      await after.body.text()
      expect(after.statusCode).toBe(201)
    } finally {
      await pool2.destroy()
    }
    expect(second.stderr()).toMatch(/dropped 1 torn record/)
    second.child.kill('SIGTERM')
    await new Promise((r) => second.child.once('exit', r))
    const lines = readFileSync(join(dataDir, 'journal.ndjson'), 'utf8').trim().split('\n')
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow()
  }, 60_000)
})
