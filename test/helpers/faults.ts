// Faults from outside the sandbox, as the chaos tests provoke them for real: another process's
// write lock on its database, and a disk full to the last block.
import {closeSync, openSync, writeSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'

/** An outside process's write lock on the sandbox's database (as sqlite3 or a backup tool would hold it). */
export function holdWriteLock(file: string): {release(): void} {
  const Database = createRequire(import.meta.url)('libsql') as new (path: string) => {
    exec(sql: string): void
    close(): void
  }
  const conn = new Database(file)
  conn.exec('BEGIN IMMEDIATE')
  conn.exec('CREATE TABLE IF NOT EXISTS outside_lock (x)')
  return {
    release: () => {
      conn.exec('ROLLBACK')
      conn.close()
    },
  }
}

/** Fills the filesystem holding `dir` to the last block with one file; returns its path (remove it to free the space). */
export function fillDisk(dir: string): string {
  const filler = join(dir, 'filler')
  const fd = openSync(filler, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
  }
  try {
    for (;;) writeSync(fd, chunk.subarray(0, 512))
  } catch {
    // full to the last block
  }
  closeSync(fd)
  return filler
}
