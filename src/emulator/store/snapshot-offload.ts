import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Worker} from 'node:worker_threads'
import {importSnapshot, type ImportOptions, type ImportResult} from './snapshot-import.js'
import {InvalidSnapshotError, type SnapshotProblem} from './snapshot-schema.js'
import {StoreDamagedError} from './sqlite.js'

/**
 * Where the worker's entry is, wherever this code runs: beside the sandbox bundle (dist/emulator.cjs
 * -> dist/snapshot-worker.cjs, build/emulator-bundle.mjs), beside this file in the tsc output
 * (dist/emulator/store/snapshot-worker.js), or, from the TypeScript sources (tests), the built
 * bundle's. None (sources never built): undefined.
 */
export function snapshotWorkerEntry(): URL | undefined {
  for (const rel of ['./snapshot-worker.cjs', './snapshot-worker.js', '../../../dist/snapshot-worker.cjs']) {
    const url = new URL(rel, import.meta.url)
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url
  }
  return undefined
}

interface Answer {
  ok: boolean
  result?: ImportResult
  error?: {name?: string; message: string; file?: string; problems?: SnapshotProblem[]}
}

/** The worker's failure as the error the callers tell apart by name (422 INVALID_SNAPSHOT, a damaged upload, ours). */
function asError(e: NonNullable<Answer['error']>): Error {
  if (e.name === 'InvalidSnapshotError' && e.file && e.problems) return new InvalidSnapshotError(e.file, e.problems)
  const detail = /is damaged \((.*)\)\. Nothing/s.exec(e.message)?.[1]
  if (e.name === 'StoreDamagedError' && e.file && detail !== undefined) return new StoreDamagedError(e.file, detail)
  return new Error(e.message)
}

/**
 * importSnapshot on a worker thread (issue 29: the time one sandbox's import spends in SQLite must not
 * stall another sandbox's requests; the sliced copy still held the loop for each index build and
 * check). Without a worker entry (sources never built) it runs here, sliced by `pause` as before.
 */
export function importOffThread(source: string, target: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const entry = snapshotWorkerEntry()
  if (!entry) return importSnapshot(source, target, opts)
  return new Promise<ImportResult>((resolve, reject) => {
    let answered = false
    const worker = new Worker(entry, {workerData: {source, target, keepCredentials: opts.keepCredentials}})
    worker.once('message', (m: Answer) => {
      answered = true
      if (m.ok) resolve(m.result!)
      else reject(asError(m.error!))
    })
    worker.once('error', (e) => {
      answered = true
      reject(e)
    })
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the snapshot import worker ended (exit code ${code}) without an answer`))
    })
  })
}
