import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  chmodSync,
  type Stats,
} from 'node:fs'
import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {dirname, join} from 'node:path'

/**
 * A directory for svc's private files: created 0700 when missing. One that exists is used as it
 * is, never chmod-ed (it may be a shared directory with its own mode and sticky bit), unless it is
 * unsafe to keep secrets in: writable by everyone, or owned by another user. That is refused.
 */
export function ensurePrivateDir(dir: string): void {
  let st: Stats | undefined
  try {
    st = statSync(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  if (!st) {
    mkdirSync(dir, {recursive: true, mode: 0o700})
    chmodSync(dir, 0o700) // ours: made just now, whatever the umask
    return
  }
  const problem = !st.isDirectory()
    ? 'is not a directory'
    : st.mode & 0o002
      ? `is writable by every user (mode ${(st.mode & 0o7777).toString(8)})`
      : typeof process.getuid === 'function' && st.uid !== process.getuid()
        ? `belongs to another user (uid ${st.uid})`
        : undefined
  if (problem) {
    throw new SvcError({
      code: 'UNSAFE_DIRECTORY',
      exitCode: ExitCode.FAILED,
      message: `${dir} ${problem}, so svc will not keep credentials or keys in it (and will not change its mode)`,
      details: {dir},
      hint: `Use a directory of your own inside it, e.g. ${join(dir, 'svc')} (svc creates it 0700), via --data-dir or SVC_DATA_DIR / SVC_CONFIG_DIR.`,
    })
  }
}

/** Writes a 0600 file atomically: temp file, fsync, rename. A reader never sees half a file. */
export function writePrivateFileAtomic(path: string, data: string | Uint8Array): void {
  ensurePrivateDir(dirname(path))
  // node:crypto is loaded here, on use: most commands never write a file and skip its load.
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
      if (Date.now() > deadline)
        throw new SvcError({
          code: 'DIRECTORY_LOCKED',
          exitCode: ExitCode.FAILED,
          message: `${dir} stayed locked for ${opts.timeoutMs ?? 10_000} ms: another svc process is writing to it`,
          details: {dir, lock},
          hint: `Run the command again. If no other svc is running, the lock is left from a crash and is taken over after ${Math.round((opts.staleMs ?? 15_000) / 1000)} s (or remove ${lock}).`,
        })
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 10))
    }
  }
  try {
    return fn()
  } finally {
    rmSync(lock, {recursive: true, force: true})
  }
}
