import {createRequire} from 'node:module'
import {readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {maybeSandbox} from '../lib/sandbox-process.js'
import type {Connection} from './store/sqlite.js'

/** A data dir another live process is serving: a second server on it would fight it for the database. */
export class SandboxInUseError extends Error {
  override readonly name = 'SandboxInUseError'
  constructor(
    readonly dataDir: string,
    /** 0 when the holder has not said who it is yet. */
    readonly pid: number,
    readonly url: string | undefined,
  ) {
    super(
      `A sandbox is already serving ${dataDir}` +
        (pid ? ` (pid ${pid}${url ? `, ${url}` : ''})` : ' (it is still starting)'),
    )
  }
}

/** Holds the lock: an exclusive SQLite transaction, kept open for as long as the server runs. */
const LOCK_DB = 'serve.lock.db'
/** Says who holds it: {pid, url}, for the servers that are refused and for `svc sandbox status`. */
const HOLDER = 'serve.lock'
/** A refused server waits this many looks, 50 ms apart, for the holder to write its name. */
const NAME_LOOKS = 40

interface Holder {
  pid: number
  url?: string
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** The live sandbox a holder file names, or undefined (gone, half-written, or left by a process that died). */
function liveHolder(path: string): Holder | undefined {
  try {
    const writtenAt = statSync(path).mtimeMs
    const held = JSON.parse(readFileSync(path, 'utf8')) as {pid?: unknown; url?: unknown}
    if (typeof held.pid !== 'number' || !maybeSandbox(held.pid, writtenAt)) return undefined
    return {pid: held.pid, ...(typeof held.url === 'string' ? {url: held.url} : {})}
  } catch {
    return undefined
  }
}

/** Opens the lock database and begins the exclusive transaction; false when another connection holds it. */
function takeKernelLock(file: string): Connection | false {
  const Database = createRequire(import.meta.url)('libsql') as new (path: string, o?: {timeout?: number}) => Connection
  for (let attempt = 0; ; attempt++) {
    const db = new Database(file, {timeout: 0})
    try {
      db.exec('PRAGMA busy_timeout = 0')
      db.exec('BEGIN EXCLUSIVE')
      return db
    } catch (e) {
      db.close()
      const code = (e as {code?: string}).code
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return false
      // The lock database holds no data and is never written: a file that is not one was damaged.
      // Nobody can hold a lock on it, and emptying it in place keeps every contender on the same file.
      if (code === 'SQLITE_NOTADB' && attempt < 3) {
        truncateSync(file, 0)
        continue
      }
      throw e
    }
  }
}

/**
 * Takes the data dir for this server. The kernel holds the lock: SQLite's exclusive lock (fcntl) on
 * `serve.lock.db`, kept by a transaction left open until release. A process killed with -9 drops it
 * with its file descriptors, so a dead server's lock is never judged stale and never taken over:
 * of several servers started together exactly one gets it, whatever state the last one left.
 * `serve.lock` beside it names the holder (pid, then url), always written whole (rename).
 * Returns the release, which `url` can be recorded through once known.
 */
export function lockDataDir(dataDir: string): {setUrl(url: string): void; release(): void} {
  const holderPath = join(dataDir, HOLDER)
  const db = takeKernelLock(join(dataDir, LOCK_DB))
  if (!db) {
    let held: Holder | undefined
    for (let look = 0; look < NAME_LOOKS && !(held = liveHolder(holderPath)); look++) pause(50)
    throw new SandboxInUseError(dataDir, held?.pid ?? 0, held?.url)
  }
  const writeHolder = (holder: Holder) => {
    const tmp = `${holderPath}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(holder), {mode: 0o600})
    renameSync(tmp, holderPath)
  }
  try {
    writeHolder({pid: process.pid})
  } catch (e) {
    db.close()
    throw e
  }
  return {
    setUrl: (url) => writeHolder({pid: process.pid, url}),
    release: () => {
      // The name goes first: once the lock is dropped the next holder writes its own.
      rmSync(holderPath, {force: true})
      db.close()
    },
  }
}
