import {readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {isAlive} from './sandbox-process.js'

/**
 * `svc sandbox backup` / `snapshot save` write their copy to `<file>.<pid>.partial` (SQLite adds
 * `-journal` beside it) and rename it into place. A save that is killed leaves those behind, and
 * nothing else would remove them: so each save notes its partial file in the data dir while it
 * runs, and the next save (of any file) or `svc doctor` removes what a dead save left, by that note
 * and beside the file being saved.
 */
const NOTE = /^partial-copy\.(\d+)$/
const SQLITE_SIDES = ['', '-journal', '-wal', '-shm']

/** The partial file of a save by this process, noted in the data dir until `done` is called. */
export function startPartialCopy(dataDir: string, file: string): {tmp: string; done(): void} {
  const tmp = `${file}.${process.pid}.partial`
  const note = join(dataDir, `partial-copy.${process.pid}`)
  writeFileSync(note, tmp, {mode: 0o600})
  return {
    tmp,
    done: () => {
      for (const side of SQLITE_SIDES) rmSync(tmp + side, {force: true})
      rmSync(note, {force: true})
    },
  }
}

/** Removes what saves that died left: the partial files their notes name, and any beside `file`. Returns what was removed. */
export function cleanPartialCopies(dataDir: string, file?: string): string[] {
  const removed: string[] = []
  const remove = (path: string) => {
    for (const side of SQLITE_SIDES) {
      try {
        rmSync(path + side)
        removed.push(path + side)
      } catch {
        // not there
      }
    }
  }
  for (const name of list(dataDir)) {
    const pid = Number(NOTE.exec(name)?.[1])
    if (!pid || pid === process.pid || isAlive(pid)) continue
    const note = join(dataDir, name)
    try {
      const tmp = readFileSync(note, 'utf8').trim()
      if (tmp.endsWith(`.${pid}.partial`)) remove(tmp)
    } catch {
      // an unreadable note: dropped below
    }
    rmSync(note, {force: true})
  }
  if (file) {
    const escaped = basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const beside = new RegExp(`^${escaped}\\.(\\d+)\\.partial(?:-journal|-wal|-shm)?$`)
    for (const name of list(dirname(file))) {
      const pid = Number(beside.exec(name)?.[1])
      if (pid && pid !== process.pid && !isAlive(pid))
        remove(join(dirname(file), name.replace(/-(journal|wal|shm)$/, '')))
    }
  }
  return removed
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
