import {closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync, chmodSync} from 'node:fs'
import {dirname, join} from 'node:path'

/** A 0700 directory, created if needed (and tightened if it already exists). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, {recursive: true, mode: 0o700})
  chmodSync(dir, 0o700)
}

/** Writes a 0600 file atomically: temp file, fsync, rename. A reader never sees half a file. */
export function writePrivateFileAtomic(path: string, data: string | Uint8Array): void {
  ensurePrivateDir(dirname(path))
  // node:crypto is loaded here, on use: most commands never write a file and skip its ~3 ms load.
  const tmp = `${path}.${process.pid}.${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(tmp, 'wx', 0o600)
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
}

/**
 * Runs `fn` holding an exclusive lock on `dir` (a lock directory made with mkdir, which is atomic),
 * so two svc processes cannot interleave a read-decide-write. A lock left by a process that died
 * is taken over once it is older than `staleMs`.
 */
export function withDirLock<T>(dir: string, fn: () => T, opts: {timeoutMs?: number; staleMs?: number} = {}): T {
  const lock = join(dir, '.lock')
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  ensurePrivateDir(dir)
  for (;;) {
    try {
      mkdirSync(lock, {mode: 0o700})
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      try {
        if (Date.now() - statSync(lock).mtimeMs > (opts.staleMs ?? 15_000)) rmSync(lock, {recursive: true, force: true})
      } catch {
        // released meanwhile
      }
      if (Date.now() > deadline) throw new Error(`${dir} stayed locked for ${opts.timeoutMs ?? 10_000} ms (is another svc writing to it?)`)
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 10))
    }
  }
  try {
    return fn()
  } finally {
    rmSync(lock, {recursive: true, force: true})
  }
}
