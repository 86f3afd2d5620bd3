import {rmSync} from 'node:fs'
import {join} from 'node:path'
import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'

/** The sandbox's database file operations (src/emulator/entry.ts provides them; src/lib never imports the sandbox). */
export interface SandboxStore {
  backupDatabase(dataDir: string, file: string, opts?: {force?: boolean}): {tables: number}
  checkDatabase(file: string): {tables: number}
  restoreDatabase(dataDir: string, file: string): {kept?: string}
  freshDatabase(dataDir: string): void
  /** Card transactions in EXCEPTION, each holding `heldAmount` until it is settled or returned. */
  cardExceptions(file: string): Array<{id: string; heldAmount: number}>
}

/** Loads the store module; commands pass `() => import('../emulator/entry.js')`. */
export type LoadSandboxStore = () => Promise<SandboxStore>

/**
 * Runs an operation on a sandbox database file from the CLI process (backup, check, restore). The
 * store module loads only when called, so commands that do not touch the file never load SQLite. A damaged
 * or missing file becomes an error that names it and says how to recover (exit 1).
 */
export async function sandboxStoreCall<T>(load: LoadSandboxStore, fn: (store: SandboxStore) => T): Promise<T> {
  const store = await load()
  try {
    return fn(store)
  } catch (e) {
    throw asSandboxDataError(e) ?? e
  }
}

/** The sandbox's own data errors (damaged database, unusable credentials or key file) as SvcErrors. */
export function asSandboxDataError(e: unknown): SvcError | undefined {
  const err = e as Error & {file?: string; recovery?: string}
  if (err?.name === 'StoreDamagedError' || err?.name === 'DataFileError' || err?.name === 'StoreTooNewError') {
    return new SvcError({
      code: err.name === 'StoreTooNewError' ? 'SANDBOX_DATA_TOO_NEW' : 'SANDBOX_DATA_DAMAGED',
      exitCode: ExitCode.FAILED,
      message: err.message,
      details: {file: err.file},
      hint:
        err.recovery ?? 'Restore a backup with `svc sandbox restore <file>`, or start afresh with `svc sandbox reset`.',
    })
  }
  if (/no sandbox database/i.test(err?.message ?? ''))
    return new SvcError({
      code: 'SANDBOX_NO_DATA',
      exitCode: ExitCode.NOT_FOUND,
      message: err.message,
      hint: 'Start it once with `svc sandbox serve`, or pass --data-dir.',
    })
  return undefined
}

/** Deletes the files that hold a local sandbox's state; its credentials and keys stay in the data dir. */
export function removeStateFiles(dataDir: string): void {
  for (const name of [
    'sandbox.db',
    'sandbox.db-wal',
    'sandbox.db-shm',
    'journal.ndjson',
    'journal.ndjson.compact',
    'emulator.log',
    'sandbox.out',
  ])
    rmSync(join(dataDir, name), {force: true})
}
