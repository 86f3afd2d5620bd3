import {statSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {SANDBOX_NAME} from '../../lib/schemas/sandboxes.js'
import {HttpError} from '../http-error.js'
import {DB_FILE} from '../store/db.js'
import {branchDatabase} from '../store/files.js'
import type {ImportResult} from '../store/snapshot-import.js'
import type {InvalidSnapshotError} from '../store/snapshot-schema.js'

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

/** Lets the server's other sandboxes be served between slices of a long copy. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The new sandbox's database in `dir`, imported from `source` (a snapshot upload or another
 * sandbox's database). A source whose schema is not the sandbox's is the caller's to fix (422,
 * every object named); so is an uploaded file that is damaged or not a sandbox database. A serving
 * sandbox's database failing to read is ours (500).
 */
export async function branchFrom(source: string, dir: string, uploaded: boolean): Promise<ImportResult> {
  try {
    return await branchDatabase(source, dir, {pause: yieldToOthers})
  } catch (e) {
    const name = (e as Error).name
    if (name === 'InvalidSnapshotError') {
      const problems = (e as InvalidSnapshotError).problems
      throw new HttpError(
        422,
        'INVALID_SNAPSHOT',
        `The ${uploaded ? 'snapshot' : 'source sandbox'} holds what a sandbox database does not: ${problems.map((p) => `${p.object} ${p.message}`).join('; ')}. Nothing was created`,
        {errors: problems.map((p) => ({field: p.object, message: p.message}))},
      )
    }
    if (!uploaded || name !== 'StoreDamagedError') throw e
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
