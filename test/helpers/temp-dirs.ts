import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/**
 * Temp dirs of one test file, removed once the file is done (temp-dirs-setup.ts), not when the thing
 * using them stops: a test may read a stopped sandbox's dir or its CLI home (doctor, a damaged database).
 */
const dirs: string[] = []
/** What may still write into those dirs (a sandbox or a tmux server a test left running): closed first. */
const closers: (() => Promise<void> | void)[] = []

/** A fresh dir `<tmp>/<prefix>XXXXXX`, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** `close` runs before the file's temp dirs are removed; it must do nothing when already closed. */
export function closeBeforeRemoval(close: () => Promise<void> | void): void {
  closers.push(close)
}

export async function removeTempDirs(): Promise<void> {
  try {
    for (const close of closers.splice(0)) await close()
  } finally {
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  }
}
