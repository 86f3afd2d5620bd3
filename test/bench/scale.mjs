// The sandbox at scale (run by bench.mjs, or alone: node test/bench/scale.mjs [--customers 1000000]).
//
// Levels: an empty sandbox, then 1,000, 100,000 and 1,000,000 customers (up to --customers), each
// with as many transactions, all measured in the same run. The levels are filled directly through
// the store (store/bulk-load.ts: Db.put's upserts in one unit, counters recomputed at the end, then a
// count check), from documents the real API created, not over HTTP: 1M customers take minutes. At each level, against a real
// `svc sandbox serve` process:
//   1. restart: a clean stop, then spawn to the ready line (warm page cache);
//   2. the p50 of every filter of GET /customers and GET /transactions (and a page after a cursor);
//   3. GET /customers/{id} p50, sandbox RSS;
//   4. durable POST /customers per second (32 connections; after the lists, so they see the level).
// Targets (issue 20): every list filter's p50 at the largest level <= 2x its p50 on the empty
// sandbox; POST at the largest level >= 80% of empty; restart <= 1 s.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {loadavg as osLoadavg, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {Pool} from 'undici'
import {serveChild} from './common.mjs'

const TARGETS = {listRatio: 2, postRatio: 0.8, restartMs: 1000}
const LEVELS = [1000, 100_000, 1_000_000]
const BASE_MS = Date.parse('2025-01-01T00:00:00.000Z')
const REGIONS = ['US', 'MX', 'GB', 'DE', 'BR', 'IN', 'PH', 'NG']
const STATUSES = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'PENDING', 'PROCESSING', 'FAILED']

export async function benchScale({bin, customers = 100_000, seconds = 3}) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
  const {Db} = await import(pathToFileURL(join(root, 'dist', 'emulator', 'store', 'db.js')).href)
  const {bulkLoad} = await import(pathToFileURL(join(root, 'dist', 'emulator', 'store', 'bulk-load.js')).href)
  const levels = [...LEVELS.filter((n) => n < customers), customers]
  const work = mkdtempSync(join(tmpdir(), 'svc-scale-'))
  const rows = []
  const verdicts = []
  const check = (label, ok) => (verdicts.push({label, ok}), ok ? 'ok' : 'MISSED')
  let sbx
  let empty
  try {
    // --- the empty sandbox: real documents to copy, then up for the whole run ---------------------
    // Every level is measured request by request in turn with it (same moment, same load on the
    // machine), and each ratio is against the empty sandbox's numbers from those same rounds.
    const emptyDir = join(work, 'empty')
    empty = await serve(bin, emptyDir, work)
    const seed = await seedByHttp(empty.ready)
    await stop(empty)
    const tpl = await readTemplates(Db, emptyDir, seed)
    const emptyRestart = await restarts(bin, emptyDir, work)
    empty = await serve(bin, emptyDir, work)
    const emptyConn = {...connect(empty.ready), seed}

    // --- the levels: one data dir, grown between measurements ------------------------------------
    const dir = join(work, 'levels')
    sbx = await serve(bin, dir, work)
    const levelSeed = await seedByHttp(sbx.ready)
    await stop(sbx)
    sbx = undefined
    let filled = 0
    for (const n of levels) {
      const t0 = performance.now()
      filled = await fill(Db, bulkLoad, dir, tpl, filled, n)
      const fillSec = (performance.now() - t0) / 1000
      console.log(
        `  filled to ${n.toLocaleString('en')} customers and as many transactions through the store's bulk load in ${fillSec.toFixed(1)} s, count check ok (database ${(statSync(join(dir, 'sandbox.db')).size / 2 ** 20).toFixed(0)} MB; load ${loadavg()})`,
      )
      // The fill's gigabytes are written back by the OS now, not during the measurements' fsyncs.
      spawnSync('sync')
      const restartMs = await restarts(bin, dir, work)
      sbx = await serve(bin, dir, work)
      const levelConn = {
        ...connect(sbx.ready),
        seed: {...levelSeed, pcid: `fill-${Math.floor(n / 2)}`, mid: iso(Math.floor(n / 2))},
      }
      const r = await measure(levelConn, emptyConn, sbx, seconds, n.toLocaleString('en'))
      await levelConn.pool.close()
      rows.push({label: n.toLocaleString('en'), restartMs, ...r})
      const worst = Math.max(...Object.values(r.lists).map((l) => l.p50 / l.empty))
      console.log(
        `  at ${n.toLocaleString('en')}: restart ${restartMs.toFixed(0)} ms (empty ${emptyRestart.toFixed(0)}), POST ${(r.post.ratio * 100).toFixed(0)}% of empty, worst list ratio ${worst.toFixed(2)}x (load ${loadavg()})`,
      )
      await stop(sbx)
      sbx = undefined
    }
    await emptyConn.pool.close()
    rows.unshift({label: 'empty', restartMs: emptyRestart})
  } finally {
    if (sbx) await stop(sbx)
    if (empty) await stop(empty)
    rmSync(work, {recursive: true, force: true})
  }

  // --- the table -----------------------------------------------------------------------------------
  const levelRows = rows.slice(1)
  const last = rows.at(-1)
  const col = (v) => String(v).padStart(10)
  console.log(
    `\n  p50 ms per request (sequential, keep-alive;    ${col('empty')}${levelRows.map((r) => col(r.label)).join('')}   ${last.label} / empty`,
  )
  console.log(`  each level in turn with the empty sandbox)`)
  for (const name of Object.keys(last.lists)) {
    const l = last.lists[name]
    const ratio = l.p50 / l.empty
    console.log(
      `  ${name.padEnd(48)} ${col(l.empty.toFixed(2))}${levelRows.map((r) => col(r.lists[name].p50.toFixed(2))).join('')}   ${ratio.toFixed(2)}x  ${check(name, ratio <= TARGETS.listRatio)}`,
    )
  }
  console.log(
    `  ${'GET /customers/{id}'.padEnd(48)} ${col(last.get.empty.toFixed(2))}${levelRows.map((r) => col(r.get.p50.toFixed(2))).join('')}   ${(last.get.p50 / last.get.empty).toFixed(2)}x`,
  )
  const postRatio = last.post.ratio
  console.log(
    `  ${'POST /customers (durable), req/s (median of 8)'.padEnd(48)} ${col(last.post.empty.toFixed(0))}${levelRows.map((r) => col(r.post.level.toFixed(0))).join('')}   ${(postRatio * 100).toFixed(0)}%  target >= ${TARGETS.postRatio * 100}%  ${check('post at scale', postRatio >= TARGETS.postRatio)}`,
  )
  console.log(
    `  ${'restart to ready, ms (median of 5, warm cache)'.padEnd(48)} ${rows.map((r) => col(r.restartMs.toFixed(0))).join('')}   target <= ${TARGETS.restartMs} ms  ${check('restart', last.restartMs <= TARGETS.restartMs)}`,
  )
  console.log(
    `  ${'sandbox RSS, MB (peak)'.padEnd(48)} ${col('')}${levelRows.map((r) => col(r.rssMb.toFixed(0))).join('')}`,
  )
  console.log(`  load average at the end: ${loadavg()} (2 cores shared with other work)`)
  const missed = verdicts.filter((v) => !v.ok).map((v) => v.label)
  if (missed.length) throw new Error(`missed: ${missed.join(', ')}`)
  return undefined
}

const loadavg = () =>
  osLoadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
const iso = (i) => new Date(BASE_MS + i * 1000).toISOString()

/** One approved customer with USD and EUR, funded once: a customer, its accounts and a transaction, made by the real API. */
async function seedByHttp(ready) {
  const {pool, base, auth} = connect(ready)
  const call = async (method, path, body) => {
    const res = await pool.request({
      method,
      path: base.pathname + path,
      headers: {authorization: auth, ...(body ? {'content-type': 'application/json'} : {})},
      body: body ? JSON.stringify(body) : undefined,
    })
    const json = await res.body.json()
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`)
    return json
  }
  try {
    await call('PATCH', '/config', {isRegulatedFinancialInstitution: true}) // so the seed may be APPROVED at create
    const terms = {
      acceptedAt: '2026-01-01T00:00:00Z',
      ipAddress: '127.0.0.1',
      termsVersion: '2025-10-01',
      acceptanceMethod: 'CHECKBOX',
    }
    const c = await call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'scale-seed',
      fullName: 'Scale Seed',
      currencies: ['USD', 'EUR'],
      kycStatus: 'APPROVED',
      endUserTermsConsent: terms,
    })
    const accounts = await call('GET', `/internal-account?customerId=${encodeURIComponent(c.id)}`)
    const usd = accounts.data.find((a) => a.balance.currency.code === 'USD').id
    await call('POST', `/sandbox/internal-accounts/${encodeURIComponent(usd)}/fund`, {amount: 1000})
    const tx = (await call('GET', '/transactions?limit=1')).data[0]
    return {customerId: c.id, accountId: usd, transactionId: tx.id, pcid: 'scale-seed', mid: iso(0)}
  } finally {
    await pool.close()
  }
}

/** The stored documents the API wrote for the seed: what the fill copies, varied. */
async function readTemplates(Db, dir, seed) {
  const db = Db.open(dir)
  try {
    return {
      customer: db.get('customers', seed.customerId),
      transaction: db.get('transactions', seed.transactionId),
      accountId: seed.accountId,
    }
  } finally {
    await db.close()
  }
}

/**
 * Grows the store from `from` to `to` customers (and transactions) through the store's bulk load
 * (store/bulk-load.ts): the same upserts as Db.put in one unit, with the counters and the currency
 * side table computed again from all rows at the end instead of by triggers row by row. Then a
 * count check: every counter the lists read must equal a plain count of the rows.
 */
async function fill(Db, bulkLoad, dir, tpl, from, to) {
  const db = Db.open(dir)
  try {
    await bulkLoad(db, (put) => {
      for (let i = from; i < to; i++) {
        const createdAt = iso(i)
        const id = `Customer:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
        const business = i % 5 === 0
        put('customers', id, {
          ...tpl.customer,
          id,
          platformCustomerId: `fill-${i}`,
          customerType: business ? 'BUSINESS' : 'INDIVIDUAL',
          region: REGIONS[i % REGIONS.length],
          currencies: i % 20 === 0 ? ['USD', 'EUR'] : ['USD'],
          fullName: `Fill Person ${i}`,
          umaAddress: `$fill${i}@sandbox.example`,
          createdAt,
          updatedAt: createdAt,
        })
        const txId = `Transaction:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
        const outgoing = i % 2 === 0
        put('transactions', txId, {
          ...tpl.transaction,
          id: txId,
          customerId: id,
          platformCustomerId: `fill-${i}`,
          type: outgoing ? 'OUTGOING' : 'INCOMING',
          status: STATUSES[i % STATUSES.length],
          ...(outgoing
            ? {source: {...tpl.transaction.source, accountId: `InternalAccount:fill-${i % 1000}`}}
            : {destination: {...tpl.transaction.destination, accountId: `InternalAccount:fill-${i % 1000}`}}),
          createdAt,
          updatedAt: createdAt,
        })
      }
    })
    countCheck(db)
  } finally {
    await db.close()
  }
  return to
}

/** Every counter the bench's lists read, against a plain count of the rows (throws on a difference). */
function countCheck(db) {
  const one = (sql, ...p) => Number(db.sql.row(sql, ...p)[0])
  const counter = (name) => one('SELECT coalesce((SELECT n FROM counts WHERE name = ?), 0)', name)
  const buckets = (name) => one('SELECT coalesce(sum(n), 0) FROM timeCounts WHERE name = ?', name)
  const checks = [
    ['customers.active', one('SELECT count(*) FROM customers WHERE is_deleted = 0')],
    [
      'customers.active.type:BUSINESS',
      one("SELECT count(*) FROM customers WHERE is_deleted = 0 AND customer_type = 'BUSINESS'"),
    ],
    ['customers.active.region:MX', one("SELECT count(*) FROM customers WHERE is_deleted = 0 AND region = 'MX'")],
    [
      'customers.active.typeRegion:BUSINESS|MX',
      one("SELECT count(*) FROM customers WHERE is_deleted = 0 AND customer_type = 'BUSINESS' AND region = 'MX'"),
    ],
    [
      'customers.active.currency:EUR',
      one(
        "SELECT count(*) FROM customers AS c, json_each(c.doc, '$.currencies') AS j WHERE c.is_deleted = 0 AND j.value = 'EUR'",
      ),
    ],
    ['transactions', one('SELECT count(*) FROM transactions')],
    ['transactions.status:PENDING', one("SELECT count(*) FROM transactions WHERE status = 'PENDING'")],
  ]
  const wrong = checks.filter(([name, n]) => counter(name) !== n).map(([name, n]) => `${name} ${counter(name)} != ${n}`)
  for (const [name, table, where] of [
    ['customers.active', 'customers', 'is_deleted = 0'],
    ['transactions', 'transactions', '1'],
  ]) {
    const rows = one(`SELECT count(*) FROM ${table} WHERE ${where} AND created_at IS NOT NULL`)
    for (const level of [7, 10, 13, 16])
      if (buckets(`${name}/${level}`) !== rows) wrong.push(`${name}/${level} ${buckets(`${name}/${level}`)} != ${rows}`)
  }
  if (wrong.length) throw new Error(`count check after the fill failed: ${wrong.join('; ')}`)
}

/** Clean stop and start to the ready line, 5 times (warm page cache): the median, ms. */
async function restarts(bin, dir, work, times = 5) {
  const ms = []
  for (let i = 0; i < times; i++) {
    const t = performance.now()
    const s = await serve(bin, dir, work)
    ms.push(performance.now() - t)
    await stop(s)
  }
  return ms.sort((a, b) => a - b)[Math.floor(times / 2)]
}

/** The filters of both lists, with the seed's values: [name, path]. */
function filtersOf(seed) {
  const enc = encodeURIComponent
  return [
    ['customers (no filter)', '/customers'],
    ['customers ?platformCustomerId=X', `/customers?platformCustomerId=${enc(seed.pcid)}`],
    ['customers ?customerType=INDIVIDUAL', '/customers?customerType=INDIVIDUAL'],
    ['customers ?customerType=BUSINESS', '/customers?customerType=BUSINESS'],
    ['customers ?region=MX', '/customers?region=MX'],
    ['customers ?currency=EUR', '/customers?currency=EUR'],
    ['customers ?umaAddress=X', `/customers?umaAddress=${enc('$fill7@sandbox.example')}`],
    ['customers ?createdAfter=<middle>', `/customers?createdAfter=${enc(seed.mid)}`],
    ['customers ?createdBefore=<middle>', `/customers?createdBefore=${enc(seed.mid)}`],
    [
      'customers ?updatedAfter=<now - 1 min>',
      `/customers?updatedAfter=${enc(new Date(Date.now() - 60_000).toISOString())}`,
    ],
    ['customers ?isIncludingDeleted=true', '/customers?isIncludingDeleted=true'],
    ['customers ?customerType=BUSINESS&region=MX', '/customers?customerType=BUSINESS&region=MX'],
    ['transactions (no filter)', '/transactions'],
    ['transactions ?sortOrder=asc', '/transactions?sortOrder=asc'],
    ['transactions ?customerId=X', `/transactions?customerId=${enc(seed.customerId)}`],
    ['transactions ?platformCustomerId=X', `/transactions?platformCustomerId=${enc(seed.pcid)}`],
    ['transactions ?accountIdentifier=X', `/transactions?accountIdentifier=${enc('InternalAccount:fill-7')}`],
    ['transactions ?status=PENDING', '/transactions?status=PENDING'],
    ['transactions ?type=OUTGOING', '/transactions?type=OUTGOING'],
    ['transactions ?reference=X', `/transactions?reference=${enc(seed.transactionId)}`],
    ['transactions ?startDate=<middle>', `/transactions?startDate=${enc(seed.mid)}`],
    ['transactions ?endDate=<middle>', `/transactions?endDate=${enc(seed.mid)}`],
    [
      'transactions ?startDate=<middle>&endDate=<end>',
      `/transactions?startDate=${enc(seed.mid)}&endDate=${enc('2099-01-01T00:00:00Z')}`,
    ],
  ]
}

/** Pages after the first: the keyset range continues, the count is read or carried in the cursor. */
const PAGE_TWO = [
  ['customers ?createdAfter=<middle>, page 2', (s) => `/customers?createdAfter=${encodeURIComponent(s.mid)}`],
  ['customers ?region=MX, page 2', () => '/customers?region=MX'],
  ['transactions ?startDate=<middle>, page 2', (s) => `/transactions?startDate=${encodeURIComponent(s.mid)}`],
]

/**
 * Every measurement of one level, each request in turn with the same request to the empty
 * sandbox (`peer`): p50s of both, so a ratio compares the two under the same load.
 */
async function measure(level, peer, sbx, seconds, label) {
  const get = (c, path) => () => ({method: 'GET', path: c.base.pathname + path, headers: {authorization: c.auth}})
  const lists = {}
  const pair = async (name, levelPath, peerPath, count = 150) => {
    const [a, b] = await alternating(level.pool, get(level, levelPath), peer.pool, get(peer, peerPath), count)
    lists[name] = {p50: a, empty: b}
  }
  const levelFilters = filtersOf(level.seed)
  const peerFilters = filtersOf(peer.seed)
  for (let i = 0; i < levelFilters.length; i++)
    await pair(levelFilters[i][0], levelFilters[i][1], peerFilters[i][1], 300)
  const nextOf = async (c, path) => {
    const cursor = (await (await c.pool.request(get(c, path)())).body.json()).nextCursor
    return cursor ? `${path}&cursor=${encodeURIComponent(cursor)}` : path
  }
  for (const [name, pathOf] of PAGE_TWO)
    await pair(name, await nextOf(level, pathOf(level.seed)), await nextOf(peer, pathOf(peer.seed)))
  const byId = (c) => `/customers/${encodeURIComponent(c.seed.customerId)}`
  const [getLevel, getEmpty] = await alternating(
    level.pool,
    get(level, byId(level)),
    peer.pool,
    get(peer, byId(peer)),
    300,
  )
  let n = 0
  const create = (c, who) => () => ({
    method: 'POST',
    path: `${c.base.pathname}/customers`,
    headers: {authorization: c.auth, 'content-type': 'application/json'},
    body: JSON.stringify({
      customerType: 'INDIVIDUAL',
      platformCustomerId: `post-${label}-${who}-${n++}`,
      fullName: 'Scale Person',
      currencies: ['USD'],
    }),
  })
  await load(level.pool, 1, 32, create(level, 'l'), 201) // warm-up
  await load(peer.pool, 1, 32, create(peer, 'e'), 201)
  // In turn, in 8 slices each. Durable POSTs wait on fsync, which other work on the machine (test
  // suites syncing their own files) delays in bursts: the ratio is the median of the 8 pairs' ratios,
  // so a burst that hits one slice does not decide it.
  const rates = {level: [], empty: []}
  for (let i = 0; i < 8; i++) {
    rates.level.push((await load(level.pool, seconds / 4, 32, create(level, 'l'), 201)).perSec)
    rates.empty.push((await load(peer.pool, seconds / 4, 32, create(peer, 'e'), 201)).perSec)
  }
  const post = {
    level: median(rates.level),
    empty: median(rates.empty),
    ratio: median(rates.level.map((l, i) => l / rates.empty[i])),
  }
  const rss = procStatus(sbx.child.pid)
  return {lists, get: {p50: getLevel, empty: getEmpty}, post, rssMb: rss.VmHWM / 1024}
}

function connect(ready) {
  const base = new URL(ready.url)
  return {
    base,
    pool: new Pool(base.origin, {connections: 32, keepAliveTimeout: 30_000}),
    auth: 'Basic ' + Buffer.from(`${ready.tokenId}:${ready.clientSecret}`).toString('base64'),
  }
}

function serve(bin, dataDir, work) {
  const env = {PATH: process.env.PATH, HOME: work, SVC_CONFIG_DIR: join(work, 'config')}
  return serveChild(bin, ['--port', '0', '--json', '--data-dir', dataDir], env, 'sandbox')
}

async function stop(sbx) {
  if (sbx.child.exitCode !== null || sbx.child.signalCode) return
  const exited = new Promise((r) => sbx.child.once('exit', r))
  sbx.child.kill('SIGTERM')
  await exited
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** `count` requests to each of two sandboxes, one after another in turn: the p50 of each, ms. */
async function alternating(poolA, makeA, poolB, makeB, count) {
  const times = [[], []]
  for (let i = 0; i < count; i++) {
    for (const [k, pool, make] of [
      [0, poolA, makeA],
      [1, poolB, makeB],
    ]) {
      const t = performance.now()
      const res = await pool.request(make())
      await res.body.text()
      if (res.statusCode !== 200) throw new Error(`${make().path} answered ${res.statusCode}`)
      times[k].push(performance.now() - t)
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)])
}

async function load(pool, seconds, concurrency, make, expected) {
  const until = performance.now() + seconds * 1000
  let ok = 0
  const started = performance.now()
  const worker = async () => {
    while (performance.now() < until) {
      const res = await pool.request(make())
      await res.body.text()
      if (res.statusCode === expected) ok++
    }
  }
  await Promise.all(Array.from({length: concurrency}, worker))
  return {perSec: ok / ((performance.now() - started) / 1000)}
}

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(text)?.[1] ?? 0)
  return {VmRSS: kb('VmRSS'), VmHWM: kb('VmHWM')}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
  const i = process.argv.indexOf('--customers')
  const s = process.argv.indexOf('--seconds')
  await benchScale({
    bin: join(root, 'bin', 'run.js'),
    customers: i > 0 ? Number(process.argv[i + 1]) : 100_000,
    seconds: s > 0 ? Number(process.argv[s + 1]) : 3,
  }).catch((e) => {
    console.log(`  ${e.message}`)
    process.exitCode = 1
  })
}
