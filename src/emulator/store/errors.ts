/**
 * Why the store could not do what a unit asked, in terms the server can answer with: another
 * process holds the write lock past the wait (`busy`), the disk is full (`full`), or SQLite found the
 * file damaged (`damaged`). Anything else is a bug.
 */
export type StoreFault = 'busy' | 'full' | 'damaged'

const FAULT_OF_CODE: Array<[RegExp, StoreFault]> = [
  [/^SQLITE_(BUSY|LOCKED)/, 'busy'],
  [/^SQLITE_FULL/, 'full'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'damaged'],
]

/** The fault a driver error stands for, from its code (`SQLITE_BUSY`, `SQLITE_FULL`, `SQLITE_IOERR_*` on ENOSPC …). */
export function storeFaultOf(e: unknown): StoreFault | undefined {
  if (e instanceof StoreUnavailableError) return e.fault
  const err = e as {code?: unknown; message?: unknown}
  const code = typeof err?.code === 'string' ? err.code : ''
  for (const [re, fault] of FAULT_OF_CODE) if (re.test(code)) return fault
  const message = typeof err?.message === 'string' ? err.message : ''
  // An I/O error whose cause is a full disk (the WAL could not grow) is a full disk to the caller.
  if (/^SQLITE_IOERR/.test(code) && /full|space/i.test(message)) return 'full'
  if (/database or disk is full|No space left on device|ENOSPC/i.test(message)) return 'full'
  return undefined
}

/** A unit the store could not run or commit for a reason outside the sandbox (lock, disk). */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError'
  constructor(
    readonly fault: StoreFault,
    message: string,
    options?: {cause?: unknown},
  ) {
    super(message, options)
  }
}

/** True for a fault that goes away on its own (a lock released, space freed): retry, never drop. */
export const isTransient = (e: unknown): boolean => {
  const f = storeFaultOf(e)
  return f === 'busy' || f === 'full'
}

/** A database written by a newer svc (a higher schema version): this one cannot know what it holds. */
export class StoreTooNewError extends Error {
  override readonly name = 'StoreTooNewError'
  readonly recovery = 'Upgrade svc to the version that wrote it, or serve another --data-dir.'
  constructor(
    readonly file: string,
    readonly version: number,
    readonly supported: number,
  ) {
    super(
      `${file} has schema version ${version}: it was written by a newer svc (this one understands up to ${supported}). Nothing was changed in it.`,
    )
  }
}
