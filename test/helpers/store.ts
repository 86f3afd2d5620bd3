import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll} from 'vitest'
import {Db} from '../../src/emulator/store/db.js'

/** A sandbox store (no server) in a fresh temp dir. */
export interface TempStore {
  readonly dir: string
  /** The open store (from the file's beforeAll on). */
  readonly db: Db
  /** Opens the dir again, after a test closed the store (e.g. to change the file underneath). */
  open(): Db
}

/** A store in a fresh temp dir named `prefix…`: opened before the file's tests, closed and removed after them. */
export function tempStore(prefix: string): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  let db: Db | undefined
  beforeAll(() => {
    db = Db.open(dir)
  })
  afterAll(async () => {
    await db?.close()
    rmSync(dir, {recursive: true, force: true})
  })
  return {
    dir,
    get db() {
      if (!db) throw new Error('the store opens in beforeAll')
      return db
    },
    open: () => (db = Db.open(dir)),
  }
}
