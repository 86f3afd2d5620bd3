import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'
import {Db, DB_FILE} from '../../../src/emulator/store/db.js'
import {importSnapshot} from '../../../src/emulator/store/snapshot-import.js'
import {importOffThread, snapshotWorkerEntry} from '../../../src/emulator/store/snapshot-offload.js'
import {openConnection} from '../../../src/emulator/store/sqlite.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-snapoffload-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** A sandbox database with `n` customers and one API token (a credential a hand-over leaves behind). */
async function source(name: string, n: number): Promise<string> {
  const d = join(dir, name)
  mkdirSync(d)
  const db = Db.open(d)
  await db.unit(() => {
    for (let i = 0; i < n; i++)
      db.put('customers', `Customer:${i}`, {
        id: `Customer:${i}`,
        customerType: 'INDIVIDUAL',
        fullName: `Person ${i} ${'x'.repeat(200)}`,
        currencies: ['USD'],
        isDeleted: false,
        createdAt: '2026-01-01T00:00:00.000Z',
      })
    db.put('apiTokens', 'Token:1', {id: 'Token:1', permissions: ['VIEW'], clientId: 'c', secretSha256: 's'})
  })
  await db.close()
  return join(d, DB_FILE)
}

// Issue 29: a team server's import (branch, upload) runs on a worker thread, so the other sandboxes'
// requests are served meanwhile (test/bench/stall.mjs measures the stall).
describe('snapshot import on a worker thread', () => {
  it('from the TypeScript sources the worker entry is the built bundle (dist/snapshot-worker.cjs)', () => {
    const entry = snapshotWorkerEntry()
    expect(entry, 'npm run build makes dist/snapshot-worker.cjs').toBeDefined()
    expect(fileURLToPath(entry!)).toMatch(/dist[/\\]snapshot-worker\.cjs$/)
  })

  it('makes the same database as the import on this thread, and the event loop keeps turning meanwhile', async () => {
    const src = await source('big', 5_000)
    let ticks = 0
    let ticking = true
    const tick = () => {
      ticks++
      if (ticking) setImmediate(tick)
    }
    tick()
    const off = await importOffThread(src, join(dir, 'off.db'))
    ticking = false
    const here = await importSnapshot(src, join(dir, 'here.db'))
    expect(off).toEqual(here)
    expect(off.rows).toBe(5_000)
    expect(off.droppedCredentials.apiTokens).toBe(1)
    const conn = openConnection(join(dir, 'off.db'), {readonly: true})
    expect(conn.prepare("SELECT n FROM counts WHERE name = 'customers'").raw().get()).toEqual([5_000])
    conn.close()
    // The copy, its index builds and its checks are the worker's: this thread turned all along (an
    // import here without a `pause` would not let one setImmediate run until its final fsync).
    expect(ticks).toBeGreaterThan(20)
  })

  it("a snapshot's own trigger is refused by the worker as on this thread: InvalidSnapshotError naming it", async () => {
    const src = await source('doctored', 3)
    const conn = openConnection(src, {check: 'none'})
    conn.exec('CREATE TRIGGER sneaky AFTER INSERT ON customers BEGIN SELECT 1; END')
    conn.close()
    const e = await importOffThread(src, join(dir, 'refused.db')).catch((x: unknown) => x)
    expect(e).toMatchObject({name: 'InvalidSnapshotError', problems: [{object: 'trigger "sneaky"'}]})
  })

  it('a file that is not a database comes back as StoreDamagedError (an upload: 422)', async () => {
    const junk = join(dir, 'junk.db')
    writeFileSync(junk, 'not a database at all'.repeat(500))
    const e = await importOffThread(junk, join(dir, 'junk-out.db')).catch((x: unknown) => x)
    expect((e as Error).name).toBe('StoreDamagedError')
    expect((e as Error).message).toMatch(/is damaged \(.+\)\. Nothing/)
  })
})
