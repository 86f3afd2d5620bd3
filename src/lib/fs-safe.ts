import {closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync, chmodSync} from 'node:fs'
import {dirname} from 'node:path'
import {randomBytes} from 'node:crypto'

/** A 0700 directory, created if needed (and tightened if it already exists). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, {recursive: true, mode: 0o700})
  chmodSync(dir, 0o700)
}

/** Writes a 0600 file atomically: temp file, fsync, rename. A reader never sees half a file. */
export function writePrivateFileAtomic(path: string, data: string | Uint8Array): void {
  ensurePrivateDir(dirname(path))
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(tmp, 'wx', 0o600)
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
}
