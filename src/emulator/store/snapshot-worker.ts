import {parentPort, workerData} from 'node:worker_threads'
import {importSnapshot} from './snapshot-import.js'

/**
 * The worker thread of snapshot-offload.ts: one import (a branch or an uploaded snapshot) on its own
 * thread and its own SQLite connections, so the server's event loop keeps serving the other
 * sandboxes however long the copy, its index builds and its checks take. It answers once and ends.
 */
const {source, target, keepCredentials} = workerData as {source: string; target: string; keepCredentials?: boolean}
importSnapshot(source, target, {keepCredentials}).then(
  (result) => parentPort!.postMessage({ok: true, result}),
  (e: unknown) => {
    const err = e as {name?: string; message?: string; file?: string; problems?: unknown}
    parentPort!.postMessage({
      ok: false,
      error: {name: err?.name, message: err?.message ?? String(e), file: err?.file, problems: err?.problems},
    })
  },
)
