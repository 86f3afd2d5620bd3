import {existsSync, statSync} from 'node:fs'
import {join} from 'node:path'

/**
 * A file of the sandbox's data dir that cannot be used as it is (credentials.json, webhook-key.pem):
 * named with what is wrong and how to recover, instead of surfacing as an internal error.
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError'
  constructor(
    readonly file: string,
    problem: string,
    readonly recovery: string,
    cause?: unknown,
  ) {
    super(`${file} ${problem}: ${recovery}`, {cause})
  }
}

/**
 * Called for a data dir that had credentials at start: it had a database, so one now missing or empty was lost (a truncated
 * copy, a deleted file), not a first start. Serving an empty sandbox under the old credentials would
 * look like every customer vanished, so it is refused, naming the file. (`svc sandbox reset` leaves a
 * fresh database behind, and a journal-era dir is imported from journal.ndjson.)
 */
export function checkDatabaseNotLost(dataDir: string, dbFile: string): void {
  if (existsSync(join(dataDir, 'journal.ndjson'))) return
  const path = join(dataDir, dbFile)
  const size = existsSync(path) ? statSync(path).size : -1
  if (size > 0) return
  throw new DataFileError(
    path,
    size < 0
      ? 'is missing, though this data dir has credentials (its state was lost)'
      : 'is empty (0 bytes), though this data dir has credentials (its state was lost)',
    'Restore it with `svc sandbox restore <backup file>`, or start afresh on purpose with `svc sandbox reset`.',
  )
}

/**
 * A data dir others may read or enter (e.g. a pre-existing 0755 one) is used, not changed: its files
 * are 0600 anyway, but their names and sizes show. The warning names the fix (issue 29 F11).
 */
export function dataDirWarning(dataDir: string): string | undefined {
  const mode = statSync(dataDir).mode & 0o777
  if ((mode & 0o077) === 0) return undefined
  return `warning: the data dir ${dataDir} is open to ${mode & 0o070 ? 'its group' : ''}${mode & 0o070 && mode & 0o007 ? ' and ' : ''}${mode & 0o007 ? 'other users' : ''} (mode ${mode.toString(8).padStart(3, '0')}); its files are 0600, but run \`chmod 700 ${dataDir}\` to keep their names private too`
}
