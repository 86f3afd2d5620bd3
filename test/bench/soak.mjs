// Soak (issue 31 item 4): how fast the database grows under steady requests, without retention and
// with it. Called by `npm run bench -- --only soak`; alone: node test/bench/soak.mjs [--soak-seconds 60].
//
// Two sandboxes (`svc sandbox serve` children), one after the other, get the same load for
// --soak-seconds each: --soak-concurrency clients sharing a steady pace (--soak-pace, 24 req/s), in a loop, each creating a customer (its KYC
// decision lands at once: two webhook events, delivered to a local receiver) and asking a KYC link
// with a fresh Idempotency-Key (a stored answer). The sandbox clock is frozen and advanced one day
// per second of the run (the clients pause while it moves), so a 60 s run spans 60 sandbox days and
// both retentions (24 h, 30 days) are crossed mid-run. "before": retention 100 years (nothing is
// pruned, as before issue 31); "after": the defaults.
//
// Measured every 2 s from a read-only connection (dbstat): the bytes of the records under retention
// (the events and idempotency tables with their indexes) and of everything else (live objects).
// Growth = bytes added per request over the last 40% of each run (days 36 to 60 of a 60 s run: past
// the 30-day retention in "after", so the steady state), extrapolated to an hour at --soak-rate requests a second (78: the soak of
// issue 31), so both runs are compared at one rate whatever this machine managed. With a real clock
// the "after" steady state comes 30 days in (until then events grow as before); the plateau they
// then hold is reported from the bytes a retained event takes.
import {existsSync, mkdtempSync, rmSync, statSync} from 'node:fs'
import {createServer} from 'node:http'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {Pool} from 'undici'
import {serveChild} from './common.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const Database = createRequire(join(root, 'package.json'))('libsql')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const RETAINED = ['events', 'idempotency']
const RETAINED_SQL = `SELECT
  sum(CASE WHEN ${RETAINED.map((t) => `name = '${t}' OR name LIKE '${t}\\_%' ESCAPE '\\' OR name = 'sqlite_autoindex_${t}_1'`).join(' OR ')} THEN pgsize ELSE 0 END),
  sum(pgsize) FROM dbstat`

export async function benchSoak({bin = join(root, 'bin', 'run.js'), env = process.env} = {}) {
  const seconds = arg('soak-seconds', 60)
  const concurrency = arg('soak-concurrency', 8)
  const rate = arg('soak-rate', 78)
  // The load's own pace (requests a second, 2 per client iteration): steady, so what is retained (the last 30
  // days' requests) is flat once retention is reached, whatever else the machine does meanwhile.
  const pace = arg('soak-pace', 24)
  const receiver = await startReceiver()
  const work = mkdtempSync(join(tmpdir(), 'svc-bench-soak-'))
  try {
    const before = await soak('before', ['--idempotency-retention', '36500d', '--event-retention', '36500d'])
    const after = await soak('after', [])
    const hour = (perRequest) => (perRequest * rate * 3600) / 1e6
    const events30d = (after.bytesPerEvent * after.eventsPerRequest * rate * 30 * 86_400) / 1e9
    return {
      load: `${concurrency} clients paced at ${pace} req/s, ${seconds} s a run, the sandbox clock +1 day a second; growth extrapolated to ${rate} req/s`,
      before: summary(before),
      after: summary(after),
      retainedGrowthPerHour: `${hour(before.retainedPerRequest).toFixed(1)} MB -> ${hour(after.retainedPerRequest).toFixed(1)} MB (events and idempotency records, indexes included)`,
      liveGrowthPerHour: `${hour(before.livePerRequest).toFixed(1)} MB -> ${hour(after.livePerRequest).toFixed(1)} MB (customers, accounts, links ...: never pruned)`,
      totalGrowthPerHour: `${hour(before.retainedPerRequest + before.livePerRequest).toFixed(1)} MB -> ${hour(after.retainedPerRequest + after.livePerRequest).toFixed(1)} MB`,
      realClock: `the event log stops growing 30 days in, at ~${events30d.toFixed(1)} GB at ${rate} req/s of this load (${after.bytesPerEvent.toFixed(0)} bytes an event); --event-retention shortens it`,
    }
  } finally {
    await new Promise((r) => receiver.close(r))
    rmSync(work, {recursive: true, force: true})
  }

  async function soak(name, flags) {
    const dataDir = join(work, name)
    const s = await serveChild(
      bin,
      ['--port', '0', '--json', '--data-dir', dataDir, '--decision-delay', '0', ...flags],
      {...env, HOME: work, SVC_CONFIG_DIR: join(work, 'config')},
      `serve (${name})`,
    )
    const base = new URL(s.ready.url)
    const auth = 'Basic ' + Buffer.from(`${s.ready.tokenId}:${s.ready.clientSecret}`).toString('base64')
    const pool = new Pool(base.origin, {connections: concurrency + 2})
    const call = async (method, path, body, headers = {}) => {
      const res = await pool.request({
        method,
        path: base.pathname + path,
        headers: {authorization: auth, 'content-type': 'application/json', ...headers},
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.body.text()
      if (res.statusCode >= 400) throw new Error(`${method} ${path} -> ${res.statusCode} ${text}`)
      return text ? JSON.parse(text) : undefined
    }
    const dbFile = join(dataDir, 'sandbox.db')
    const read = (fn) => {
      const db = new Database(dbFile, {readonly: true})
      try {
        return fn((sql) => Object.values(db.prepare(sql).raw(false).get()).map(Number))
      } finally {
        db.close()
      }
    }
    try {
      await call('POST', '/sandbox/clock/freeze')
      await call('PATCH', '/config', {webhookEndpoint: receiver.url, sandbox: {skipVerificationPaperwork: true}})
      const t0 = performance.now()
      const end = t0 + seconds * 1000
      let requests = 0
      let errors = 0
      const samples = []
      // Each client's request pair, halved: whether pruning batches make requests wait (they run between them).
      const latencies = []
      const sample = () =>
        read((q) => {
          const [retained, all] = q(RETAINED_SQL)
          const [rows] = q('SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM idempotency)')
          const files = ['', '-wal'].reduce((n, x) => n + (existsSync(dbFile + x) ? statSync(dbFile + x).size : 0), 0)
          samples.push({s: (performance.now() - t0) / 1000, requests, retained, rows, live: all - retained, files})
        })
      const sampler = setInterval(sample, 2000)
      sample()
      // One sandbox day per second of the run. An advance runs every job due on its way, each with a bounded
      // wait for its webhooks, and jobs keep coming under load: the clients pause (`gate`) while it runs.
      let days = 0
      let gate = Promise.resolve()
      const clock = async () => {
        while (performance.now() < end) {
          await new Promise((r) => setTimeout(r, Math.max(0, t0 + (days + 1) * 1000 - performance.now())))
          let open
          gate = new Promise((r) => (open = r))
          await call('POST', '/sandbox/clock/advance', {by: '1d'}).catch(() => errors++)
          requests++
          days++
          open()
        }
      }
      let slot = 0
      const client = async (c) => {
        for (let i = 0; performance.now() < end; i++) {
          const at = t0 + (slot++ * 2 * 1000) / pace
          await new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())))
          await gate
          try {
            const t = performance.now()
            const cu = await call('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: `Soak ${c}-${i}`})
            await call(
              'POST',
              `/customers/${encodeURIComponent(cu.id)}/kyc-link`,
              {},
              {'idempotency-key': `k-${c}-${i}`},
            )
            requests += 2
            latencies.push((performance.now() - t) / 2)
          } catch {
            errors++
          }
        }
      }
      await Promise.all([clock(), ...Array.from({length: concurrency}, (_, c) => client(c))])
      clearInterval(sampler)
      sample()
      const elapsed = (performance.now() - t0) / 1000
      // Past their retention at the end (the sandbox clock's now): what pruning left behind, if it fell behind.
      const now = Date.parse((await call('GET', '/sandbox/clock')).now)
      const [expiredEvents, expiredKeys] = read((q) =>
        q(
          `SELECT (SELECT count(*) FROM events WHERE settled_at < ${now - 30 * 86_400_000}), (SELECT count(*) FROM idempotency WHERE stored_at < ${now - 86_400_000})`,
        ),
      )
      const [events, keys, customers, eventBytes] = read((q) => [
        ...['events', 'idempotency', 'customers'].map((t) => q(`SELECT count(*) FROM "${t}"`)[0]),
        q(
          "SELECT sum(pgsize) FROM dbstat WHERE name = 'events' OR name LIKE 'events\\_%' ESCAPE '\\' OR name = 'sqlite_autoindex_events_1'",
        )[0],
      ])
      const [mid, last] = [samples.find((x) => x.s >= elapsed * 0.6), samples.at(-1)]
      const perRequest = (k) => (last[k] - mid[k]) / (last.requests - mid.requests)
      return {
        days,
        rate: requests / elapsed,
        errors,
        rows: {customers, events, keys},
        expired: {events: expiredEvents, keys: expiredKeys},
        mb: last.files / 1e6,
        retainedPerRequest: perRequest('retained'),
        livePerRequest: perRequest('live'),
        // Rows under retention at the start and the end of the measured window: flat once it is in steady state.
        retainedRows: [mid.rows, last.rows],
        bytesPerEvent: events ? eventBytes / events : 0,
        latencyMs: [0.5, 0.99, 1].map(
          (p) => latencies.sort((a, b) => a - b)[Math.min(latencies.length - 1, Math.floor(p * latencies.length))],
        ),
        eventsPerRequest: (customers * 2) / requests,
      }
    } finally {
      await pool.close()
      s.child.kill('SIGTERM')
      await new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once('exit', r)))
    }
  }
}

function summary(r) {
  return `${r.rate.toFixed(0)} req/s here (latency p50/p99/max ${r.latencyMs.map((x) => x.toFixed(0)).join('/')} ms), ${r.errors} errors, ${r.days} sandbox days; at the end ${r.rows.customers} customers, ${r.rows.events} events, ${r.rows.keys} idempotency records (${r.expired.events} events and ${r.expired.keys} records past 30 days / 24 h), ${r.mb.toFixed(1)} MB of files; events + idempotency rows ${r.retainedRows[0]} -> ${r.retainedRows[1]} over the measured window; per request ${(r.retainedPerRequest / 1000).toFixed(2)} KB retained records + ${(r.livePerRequest / 1000).toFixed(2)} KB live objects`
}

function startReceiver() {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200).end())
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      server.url = `http://127.0.0.1:${server.address().port}/hooks`
      resolve(server)
    }),
  )
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await benchSoak()
  for (const [k, v] of Object.entries(out)) console.log(`${k}: ${v}`)
}
