import {closeSync, openSync, statSync, writeSync} from 'node:fs'

/** A file's permission bits, e.g. 0o600. */
export const fileMode = (path: string) => statSync(path).mode & 0o777

/** Writes `bytes` over a file's content at `position`, in place (how a test tears a page, as a crash would). */
export function overwriteAt(path: string, bytes: Buffer, position: number): void {
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, bytes, 0, bytes.length, position)
  } finally {
    closeSync(fd)
  }
}
