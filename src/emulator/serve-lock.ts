import {closeSync, openSync, readFileSync, rmSync, writeSync} from 'node:fs'
import {join} from 'node:path'

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

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the data dir for this server: `serve.lock` is created exclusively (O_EXCL) and holds the
 * pid, so of two servers started together only one gets it. A lock whose process is gone (kill -9)
 * is taken over. Returns the release, which `url` can be recorded through once known.
 */
export function lockDataDir(dataDir: string): {setUrl(url: string): void; release(): void} {
  const path = join(dataDir, LOCK)
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      const write = (url?: string) => {
        writeSync(fd, JSON.stringify({pid: process.pid, ...(url ? {url} : {})}), 0)
      }
      write()
      return {
        setUrl: (url) => write(url),
        release: () => {
          closeSync(fd)
          rmSync(path, {force: true})
        },
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw e
      let held: {pid?: unknown; url?: unknown} = {}
      try {
        held = JSON.parse(readFileSync(path, 'utf8')) as typeof held
      } catch {
        // a lock being written right now, or torn by a crash: its pid decides below
      }
      const pid = typeof held.pid === 'number' ? held.pid : 0
      if (pid && alive(pid))
        throw new SandboxInUseError(dataDir, pid, typeof held.url === 'string' ? held.url : undefined)
      rmSync(path, {force: true})
    }
  }
}
