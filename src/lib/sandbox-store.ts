import {rmSync} from 'node:fs'
import {join} from 'node:path'
import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import type {Output} from './output/output.js'
import {renderKeyValue} from './output/render.js'

/** The sandbox's database file operations (src/emulator/entry.ts provides them; src/lib never imports the sandbox). */
export interface SandboxStore {
  backupDatabase(dataDir: string, file: string, opts?: {force?: boolean}): {tables: number}
  checkDatabase(file: string): {tables: number}
  /** `checkDatabase`, and the schema check (every object not the sandbox's own refused, named). */
  checkSnapshot(file: string): {tables: number}
  /** `handOver`: someone else's snapshot (`snapshot load`), whose API and agent tokens are left behind. */
  restoreDatabase(dataDir: string, file: string, opts?: {handOver?: boolean}): Promise<RestoredState>
  freshDatabase(dataDir: string): void
  /** Card transactions in EXCEPTION, each holding `heldAmount` until it is settled or returned. */
  cardExceptions(file: string): Array<{id: string; heldAmount: number}>
}

/** What a restore or load put in place, took from the file besides data, and left behind. */
export interface RestoredState {
  kept?: string
  rows: number
  /** The file's settings that differ from a fresh sandbox's (and its webhook endpoint): the sandbox now has them. */
  inheritedSettings: Record<string, unknown>
  droppedCredentials: {apiTokens: number; agentTokens: number; agentDeviceCodes: number}
  agentsDisconnected: number
}

/** Loads the store module; commands pass `() => import('../emulator/entry.js')`. */
export type LoadSandboxStore = () => Promise<SandboxStore>

/**
 * Runs an operation on a sandbox database file from the CLI process (backup, check, restore). The
 * store module loads only when called, so commands that do not touch the file never load SQLite. A damaged
 * or missing file becomes an error that names it and says how to recover (exit 1).
 */
export async function sandboxStoreCall<T>(
  load: LoadSandboxStore,
  fn: (store: SandboxStore) => T | Promise<T>,
): Promise<T> {
  const store = await load()
  try {
    return await fn(store)
  } catch (e) {
    throw asSandboxDataError(e) ?? e
  }
}

/** The sandbox's own data errors (damaged database, unusable credentials or key file) as SvcErrors. */
export function asSandboxDataError(e: unknown): SvcError | undefined {
  const err = e as Error & {file?: string; recovery?: string; problems?: Array<{object: string; message: string}>}
  if (err?.name === 'InvalidSnapshotError')
    return new SvcError({
      code: 'INVALID_SNAPSHOT',
      exitCode: ExitCode.FAILED,
      message: err.message,
      details: {file: err.file, errors: (err.problems ?? []).map((p) => ({field: p.object, message: p.message}))},
      hint: 'Load only files written by `svc sandbox snapshot save` or `svc sandbox backup`; nothing was replaced.',
    })
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
    // Rotated logs (--log-keep, at most 9).
    ...Array.from({length: 9}, (_, i) => `emulator.log.${i + 1}`),
    'sandbox.out',
  ])
    rmSync(join(dataDir, name), {force: true})
}

/** The lines that say what a load, restore or branch took from its source besides data, and what it left behind. */
export function renderTakenFrom(
  out: Output,
  r: {
    inheritedSettings?: Record<string, unknown>
    droppedCredentials?: Record<string, number>
    agentsDisconnected?: number
  },
): void {
  const settings = Object.entries(r.inheritedSettings ?? {})
  const dropped = Object.entries(r.droppedCredentials ?? {}).filter(([, n]) => n > 0)
  renderKeyValue(out, [
    [
      'inheritedSettings',
      settings.length ? settings.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ') : 'none (defaults)',
    ],
    ['droppedCredentials', dropped.length ? dropped.map(([k, n]) => `${n} ${k}`).join(', ') : 'none'],
    ['agentsDisconnected', r.agentsDisconnected ? String(r.agentsDisconnected) : undefined],
  ])
}
