/**
 * The unclean-shutdown marker: a file written (durably) when a process opens the sandbox database
 * and removed when it closes it cleanly. Found at open, it means the last process died holding the
 * database (a crash, a kill -9), so the open runs the full integrity check instead of the header check.
 */

import {closeSync, existsSync, fsyncSync, openSync, rmSync, writeSync} from 'node:fs'
import {dirname, join} from 'node:path'

export const OPEN_MARKER = 'sandbox.db.open'

/** Whether the last process to open the database in `dir` did not close it. */
export const closedUncleanly = (dir: string): boolean => existsSync(join(dir, OPEN_MARKER))

/** Marks the database in `dir` open by this process; on disk before the database is written to. */
export function markOpen(dir: string): string {
  const marker = join(dir, OPEN_MARKER)
  writeDurably(marker, `${process.pid}\n`)
  return marker
}

/** Marks a clean close. */
export const markClosed = (marker: string): void => rmSync(marker, {force: true})

/** A small file that is on disk (file and directory entry) before the database is written to. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, 'w')
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    const dirFd = openSync(dirname(file), 'r')
    try {
      fsyncSync(dirFd)
    } finally {
      closeSync(dirFd)
    }
  } catch {
    // some filesystems refuse to fsync a directory: the file's own fsync is what they offer
  }
}
