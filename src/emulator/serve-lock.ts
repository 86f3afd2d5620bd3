import {linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {maybeSandbox} from '../lib/sandbox-process.js'

/** A data dir another live process is serving: a second server on it would fight it for the database. */
export class SandboxInUseError extends Error {
  override readonly name = 'SandboxInUseError'
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly url: string | undefined,
  ) {
    super(`A sandbox is already serving ${dataDir} (pid ${pid}${url ? `, ${url}` : ''})`)
  }
}

const LOCK = 'serve.lock'
/** A lock file that cannot be read as a holder is only called stale after this many looks, 50 ms apart. */
const TORN_LOOKS = 40

interface Holder {
  pid: number
  url?: string
  /** When the lock file was written (its mtime): a process younger than that did not write it. */
  writtenAt: number
}

/** The holder still serves: its pid lives and is a sandbox that could have written the lock (sandbox-process.ts). */
const serving = (held: Holder): boolean => maybeSandbox(held.pid, held.writtenAt)

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** The holder a lock file names; null when it is gone, 'torn' when it cannot be read as one. */
function readHolder(path: string): Holder | 'torn' | null {
  try {
    const writtenAt = statSync(path).mtimeMs
    const held = JSON.parse(readFileSync(path, 'utf8')) as {pid?: unknown; url?: unknown}
    if (typeof held.pid !== 'number') return 'torn'
    return {pid: held.pid, writtenAt, ...(typeof held.url === 'string' ? {url: held.url} : {})}
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'torn'
  }
}

/**
 * Takes the data dir for this server. The lock file only ever appears whole: its content is written
 * to a file of this process's own and hard-linked to `serve.lock` (link fails if the name exists),
 * so a second server started at the same instant never reads a half-written lock and takes it for
 * a dead one. A lock whose process is gone (kill -9) is moved aside before it is removed, and what
 * was moved is checked: a live holder's lock moved by mistake is put back and the start refused.
 * Returns the release, which `url` can be recorded through once known (again written whole).
 */
export function lockDataDir(dataDir: string): {setUrl(url: string): void; release(): void} {
  const path = join(dataDir, LOCK)
  const mine = (suffix: string) => `${path}.${process.pid}.${suffix}`
  const writeWhole = (target: string, holder: Omit<Holder, 'writtenAt'>, replace: boolean) => {
    const tmp = mine('tmp')
    writeFileSync(tmp, JSON.stringify(holder), {mode: 0o600})
    try {
      if (replace) renameSync(tmp, target)
      else linkSync(tmp, target)
    } finally {
      rmSync(tmp, {force: true})
    }
  }
  let tornLooks = 0
  for (let attempt = 0; ; attempt++) {
    try {
      writeWhole(path, {pid: process.pid}, false)
      return {
        setUrl: (url) => writeWhole(path, {pid: process.pid, url}, true),
        release: () => rmSync(path, {force: true}),
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > TORN_LOOKS + 20) throw e
    }
    const held = readHolder(path)
    if (held === null) continue
    if (held !== 'torn' && serving(held)) throw new SandboxInUseError(dataDir, held.pid, held.url)
    if (held === 'torn' && ++tornLooks < TORN_LOOKS) {
      pause(50)
      continue
    }
    takeOverStale(path, mine('stale'), dataDir)
  }
}

/** Moves a dead holder's lock aside and removes it; a live lock moved meanwhile goes back and the start is refused. */
function takeOverStale(path: string, aside: string, dataDir: string): void {
  try {
    renameSync(path, aside)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
    throw e
  }
  const moved = readHolder(aside)
  if (moved !== null && moved !== 'torn' && serving(moved)) {
    try {
      linkSync(aside, path)
    } catch {
      // another server took the name in between; it holds the dir now
    }
    rmSync(aside, {force: true})
    throw new SandboxInUseError(dataDir, moved.pid, moved.url)
  }
  rmSync(aside, {force: true})
}
