// Cross-sandbox stall (issue 29, F5): how long sandbox B's requests wait while sandbox A of the same
// `serve --multi` process spends time in SQLite. One server is one event loop, so a synchronous
// statement of A holds B's requests until it returns.
//
//   node test/bench/stall.mjs [--bin <built checkout>/bin/run.js] [--customers 40000]
//
// 1. A snapshot with a slow trigger of its own (F5: a cross join in an AFTER INSERT trigger, with a
//    table of its own to join) is uploaded as A; then A creates a customer while B is polled.
// 2. A large snapshot (--customers, made by SQL from a real backup) is uploaded while B is polled:
//    the branch's copy and checks run on a worker thread (store/snapshot-offload.ts; before, in the
//    server's event loop, sliced). --bin of an earlier build gives the before.
// 3. A new empty sandbox is created while B is polled (its schema is made on the worker thread too).
// Prints B's latency (median, p99, max) during each, and A's own times.
import {spawnSync} from 'node:child_process'
import {copyFileSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {serveChild} from './common.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : dflt
}
const bin = arg('bin', join(root, 'bin', 'run.js'))
const CUSTOMERS = Number(arg('customers', 40_000))
const Database = createRequire(join(root, 'package.json'))('libsql')

const work = mkdtempSync(join(tmpdir(), 'svc-bench-stall-'))
const dataDir = join(work, 'multi')
const env = {PATH: process.env.PATH, HOME: work, SVC_CONFIG_DIR: join(work, 'config')}
const server = await serveChild(bin, ['--multi', '--port', '0', '--json', '--data-dir', dataDir], env, 'serve --multi')
const admin = basic('admin', server.ready.adminSecret)
const out = {bin}
try {
  const src = await adminCall('POST', '', {name: 'src'})
  const b = await adminCall('POST', '', {name: 'b'})
  for (let i = 0; i < 20; i++) await call(src, 'POST', '/customers', customer(`src-${i}`))
  const backup = join(work, 'backup.db')
  const saved = spawnSync(
    process.execPath,
    [bin, 'sandbox', 'backup', backup, '--data-dir', join(dataDir, 'sandboxes', 'src')],
    {env},
  )
  if (saved.status !== 0) throw new Error(`backup: ${saved.stderr}`)

  // --- 1. a slow trigger of the snapshot's own ------------------------------------------------
  const slow = doctor(backup, 'slow.db', [
    'CREATE TABLE pad (x INTEGER)',
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2500) INSERT INTO pad SELECT x FROM c',
    'CREATE TRIGGER slow_after_insert AFTER INSERT ON customers BEGIN SELECT count(*) FROM pad AS p1, pad AS p2; END',
  ])
  const up = await upload('a-slow', slow)
  out.slowTriggerSnapshot =
    up.status === 201
      ? 'accepted (201)'
      : `refused (${up.status} ${up.body.code}: ${up.body.details?.errors?.map((e) => e.field).join(', ')})`
  // Either way A then creates a customer: in the slow branch if it was taken, else in an ordinary one.
  const a = up.status === 201 ? up.body : await upload('a-plain', backup).then((r) => r.body)
  const during = await whilePolling(b, () => call(a, 'POST', '/customers', customer('a-1')))
  out.aCreateMs = round(during.ms)
  out.bDuringACreate = during.b

  // --- 2. a large snapshot uploaded while B serves ------------------------------------------------
  const big = doctor(backup, 'big.db', [
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${CUSTOMERS}),
       d(x, at) AS (SELECT x, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || x || ' seconds') FROM c)
     INSERT INTO customers (id, doc, platform_customer_id, customer_type, region, is_deleted, created_at, updated_at)
     SELECT 'Customer:bench-' || x, json_object('id', 'Customer:bench-' || x, 'customerType', 'INDIVIDUAL',
       'platformCustomerId', 'bench-' || x, 'fullName', 'Bench Person ' || x, 'region', 'US',
       'currencies', json_array('USD', 'EUR'), 'isDeleted', json('false'), 'createdAt', at, 'updatedAt', at),
       'bench-' || x, 'INDIVIDUAL', 'US', 0, at, at FROM d`,
    'VACUUM',
  ])
  out.bigSnapshotMB = round(readFileSync(big).length / 1024 / 1024)
  // Read before B is polled: this process's own 37 MB read and copy would otherwise count as B's wait.
  const bigBody = new Uint8Array(readFileSync(big))
  const bigUp = await whilePolling(b, () => upload('big', bigBody))
  out.bigUploadStatus = bigUp.result.status
  out.bigUploadMs = round(bigUp.ms)
  out.bDuringBigUpload = bigUp.b

  // --- 3. a new empty sandbox while B serves (its whole schema made: a few hundred ms of SQLite) --
  const fresh = await whilePolling(b, () => adminCall('POST', '', {name: 'fresh'}))
  out.freshCreateMs = round(fresh.ms)
  out.bDuringFreshCreate = fresh.b
} finally {
  server.child.kill('SIGTERM')
  await new Promise((r) => server.child.once('exit', r))
  rmSync(work, {recursive: true, force: true})
}
console.log(JSON.stringify(out, null, 2))

/** Runs `fn` while B is asked GET /customers?limit=1 back to back; B's latencies while it ran. */
async function whilePolling(b, fn) {
  let done = false
  const lat = []
  const poller = (async () => {
    while (!done) {
      const t = performance.now()
      await call(b, 'GET', '/customers?limit=1')
      lat.push(performance.now() - t)
    }
  })()
  await new Promise((r) => setTimeout(r, 100))
  const t0 = performance.now()
  const result = await fn()
  const ms = performance.now() - t0
  await new Promise((r) => setTimeout(r, 100))
  done = true
  await poller
  const s = [...lat].sort((x, y) => x - y)
  const q = (p) => round(s[Math.min(s.length - 1, Math.floor(p * s.length))])
  return {
    ms,
    result,
    b: `median ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${round(s[s.length - 1])} ms over ${s.length} requests`,
  }
}

function doctor(from, name, sql) {
  const file = join(work, name)
  copyFileSync(from, file)
  const db = new Database(file)
  for (const s of sql) db.exec(s)
  db.exec('PRAGMA journal_mode = DELETE')
  db.close()
  return file
}

/** Uploads a snapshot: a file's path, or its bytes already read. */
async function upload(name, file) {
  const res = await fetch(`${server.ready.url}/sandbox/sandboxes?name=${name}`, {
    method: 'POST',
    headers: {authorization: admin, 'content-type': 'application/vnd.sqlite3'},
    body: typeof file === 'string' ? new Uint8Array(readFileSync(file)) : file,
  })
  return {status: res.status, body: await res.json()}
}

async function adminCall(method, path, body) {
  const res = await fetch(`${server.ready.url}/sandbox/sandboxes${path}`, {
    method,
    headers: {authorization: admin, 'content-type': 'application/json'},
    body: body && JSON.stringify(body),
  })
  const json = await res.json()
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json)}`)
  return json
}

async function call(s, method, path, body) {
  const res = await fetch(s.url + path, {
    method,
    headers: {authorization: basic(s.tokenId, s.clientSecret), 'content-type': 'application/json'},
    body: body && JSON.stringify(body),
  })
  await res.text()
  return res.status
}

function customer(pcid) {
  return {customerType: 'INDIVIDUAL', platformCustomerId: pcid, fullName: 'Stall Person', currencies: ['USD']}
}

function basic(id, secret) {
  return 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64')
}

function round(v) {
  return Math.round(v * 10) / 10
}
