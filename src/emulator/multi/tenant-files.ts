import {statSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {SANDBOX_NAME} from '../../lib/schemas/sandboxes.js'
import {HttpError} from '../http-error.js'
import {DB_FILE} from '../store/db.js'
import {adoptDatabase, branchDatabase} from '../store/files.js'

/** The file-level helpers of tenants.ts: names, branching, sizes. */

/** A name that is not one is refused naming the field, before anything touches the disk. */
export function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !SANDBOX_NAME.test(name))
    throw new HttpError(400, 'INVALID_INPUT', 'The sandbox name must be letters, digits, - and _ (up to 63)', {
      errors: [
        {field: 'name', message: 'must be letters, digits, - and _, starting with a letter or digit (up to 63)'},
      ],
    })
}

/** A snapshot that fails its checks is the caller's to fix (422); a serving sandbox's copy failing is ours (500). */
export function branchFrom(source: string, dir: string, uploaded: boolean): void {
  try {
    // An upload is a private copy already; a sandbox's file is copied consistently (it may be serving).
    if (uploaded) adoptDatabase(source, dir)
    else branchDatabase(source, dir)
  } catch (e) {
    if (!uploaded || (e as Error).name !== 'StoreDamagedError') throw e
    const detail = /is damaged \((.*)\)\. Nothing/s.exec((e as Error).message)?.[1] ?? 'it is not a sandbox database'
    throw new HttpError(
      422,
      'INVALID_SNAPSHOT',
      `The snapshot is not a usable sandbox database (${detail}); nothing was created`,
      {
        errors: [{field: '(body)', message: detail}],
      },
    )
  }
}

export function sizeOf(dir: string): number {
  let total = 0
  for (const f of [DB_FILE, `${DB_FILE}-wal`])
    try {
      total += statSync(join(dir, f)).size
    } catch {
      // no WAL: a closed sandbox is one file
    }
  return total
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch {
    return undefined
  }
}
