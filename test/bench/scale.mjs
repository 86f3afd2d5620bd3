// The sandbox at scale (run by bench.mjs, or alone: node test/bench/scale.mjs [--customers 100000]).
//
// One fresh `svc sandbox serve` process on its own data dir, filled over HTTP the way a user fills
// it, measuring on the way:
//   1. durable POST /customers per second on the empty sandbox, and again at N customers;
//   2. the p50 of a customers list page at 1,000 customers and at N;
//   3. GET /customers/{id} per second at N;
//   4. the sandbox's RSS after N creates;
//   5. restart with N customers, from spawn to the ready line;
//   6. `svc customers list --all --output ndjson` over all N: the CLI's peak RSS, and that it
//      printed every customer once.
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Pool} from 'undici'

const TARGETS = {postRatio: 0.8, postPerSec: 1000, getPerSec: 5000, listRatio: 1.5, cliRssMb: 120, sandboxRssMb: 250, restartMs: 2000}

export async function benchScale({bin, env, customers = 100_000, seconds = 3}) {
  const work = mkdtempSync(join(tmpdir(), 'svc-scale-'))
  const dataDir = join(work, 'sandbox')
  const out = {}
  const verdicts = []
  const check = (label, ok) => (verdicts.push({label, ok}), ok ? 'ok' : 'MISSED')
  let sbx = await serve(bin, dataDir, work)
  try {
    let {pool, base, auth} = connect(sbx.ready)
    let n = 0
    const create = () => ({
      method: 'POST',
      path: `${base.pathname}/customers`,
      headers: {authorization: auth, 'content-type': 'application/json'},
      body: JSON.stringify({customerType: 'INDIVIDUAL', platformCustomerId: `scale-${n++}`, fullName: 'Scale Person', currencies: ['USD']}),
    })
    // Warm the sandbox's code paths first (JIT, page cache): a few hundred customers is still empty.
    await load(pool, 1, 32, create, 201)
    const emptyPost = await load(pool, seconds, 32, create, 201)
    await fill(pool, 1000, () => n, create)
    const list = () => ({method: 'GET', path: `${base.pathname}/customers?limit=20`, headers: {authorization: auth}})
    const list1k = await sequential(pool, 300, list)
    const t0 = performance.now()
    await fill(pool, customers, () => n, create)
    const fillSec = (performance.now() - t0) / 1000
    const fullPost = await load(pool, seconds, 32, create, 201)
    const listN = await sequential(pool, 300, list)
    const someId = (await (await pool.request(list())).body.json()).data[0].id
    const get = await load(pool, seconds, 32, () => ({method: 'GET', path: `${base.pathname}/customers/${encodeURIComponent(someId)}`, headers: {authorization: auth}}), 200)
    const rss = procStatus(sbx.child.pid)
    await pool.close()

    const stopped = new Promise((r) => sbx.child.once('exit', r))
    sbx.child.kill('SIGTERM')
    await stopped
    const t1 = performance.now()
    sbx = await serve(bin, dataDir, work)
    const restartMs = performance.now() - t1
    ;({pool, base, auth} = connect(sbx.ready))
    const total = (await (await pool.request(list())).body.json()).totalCount
    await pool.close()

    const cli = await cliList(bin, env, sbx.ready, work)

    const postRatio = fullPost.perSec / emptyPost.perSec
    const listRatio = listN.p50 / list1k.p50
    const lines = [
      `filled to ${total} customers over HTTP in ${fillSec.toFixed(0)} s (${((total - 1000) / fillSec).toFixed(0)}/s with 32 connections)`,
      `durable POST /customers: near empty (< 3,000) ${emptyPost.perSec.toFixed(0)}/s, at ${total} ${fullPost.perSec.toFixed(0)}/s = ${(postRatio * 100).toFixed(0)}%  target >= 80% and >= ${TARGETS.postPerSec}/s  ${check('post at scale', postRatio >= TARGETS.postRatio && fullPost.perSec >= TARGETS.postPerSec)}`,
      `GET /customers/{id} at ${total}: ${get.perSec.toFixed(0)}/s (p99 ${get.p99.toFixed(1)} ms)  target >= ${TARGETS.getPerSec}/s  ${check('get', get.perSec >= TARGETS.getPerSec)}`,
      `list page p50: ${list1k.p50.toFixed(2)} ms at 1,000, ${listN.p50.toFixed(2)} ms at ${total} = ${listRatio.toFixed(2)}x  target <= ${TARGETS.listRatio}x  ${check('list', listRatio <= TARGETS.listRatio)}`,
      `sandbox RSS after ${total} creates: ${(rss.VmRSS / 1024).toFixed(0)} MB (peak ${(rss.VmHWM / 1024).toFixed(0)} MB)  target <= ${TARGETS.sandboxRssMb} MB  ${check('sandbox rss', rss.VmHWM / 1024 <= TARGETS.sandboxRssMb)}`,
      `restart with ${total} customers to ready: ${restartMs.toFixed(0)} ms  target <= ${TARGETS.restartMs} ms  ${check('restart', restartMs <= TARGETS.restartMs)}`,
      `svc customers list --all --output ndjson: ${cli.lines} lines (${cli.unique} distinct ids) in ${(cli.ms / 1000).toFixed(1)} s, CLI peak RSS ${cli.rssMb.toFixed(0)} MB  target <= ${TARGETS.cliRssMb} MB  ${check('cli ndjson', cli.code === 0 && cli.unique === total && cli.rssMb <= TARGETS.cliRssMb)}`,
    ]
    for (const l of lines) console.log(`  ${l}`)
    Object.assign(out, {emptyPost: emptyPost.perSec, fullPost: fullPost.perSec, get: get.perSec, list1k: list1k.p50, listN: listN.p50, restartMs, sandboxRssMb: rss.VmHWM / 1024, cliRssMb: cli.rssMb})
  } finally {
    sbx.child.kill('SIGTERM')
    await new Promise((r) => (sbx.child.exitCode !== null ? r() : sbx.child.once('exit', r)))
    rmSync(work, {recursive: true, force: true})
  }
  const missed = verdicts.filter((v) => !v.ok).map((v) => v.label)
  if (missed.length) throw new Error(`missed: ${missed.join(', ')}`)
  return undefined
}

function connect(ready) {
  const base = new URL(ready.url)
  return {base, pool: new Pool(base.origin, {connections: 32, keepAliveTimeout: 30_000}), auth: 'Basic ' + Buffer.from(`${ready.tokenId}:${ready.clientSecret}`).toString('base64')}
}

function serve(bin, dataDir, work) {
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '--json', '--data-dir', dataDir], {
    env: {PATH: process.env.PATH, HOME: work, SVC_CONFIG_DIR: join(work, 'config')},
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  return new Promise((resolve, reject) => {
    let buf = ''
    child.stdout.on('data', (c) => {
      buf += c
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve({child, ready: JSON.parse(buf.slice(0, nl))})
    })
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)))
  })
}

/** Creates until `count()` reaches `target`, 32 in flight. */
async function fill(pool, target, count, make) {
  const worker = async () => {
    while (count() < target) {
      const res = await pool.request(make())
      await res.body.text()
      if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}`)
    }
  }
  await Promise.all(Array.from({length: 32}, worker))
}

/** `count` requests one after another: the latency of one request on an otherwise idle sandbox. */
async function sequential(pool, count, make) {
  const times = []
  for (let i = 0; i < count; i++) {
    const t = performance.now()
    const res = await pool.request(make())
    await res.body.text()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return {p50: times[Math.floor(times.length / 2)]}
}

async function load(pool, seconds, concurrency, make, expected) {
  const until = performance.now() + seconds * 1000
  const latencies = []
  const started = performance.now()
  const worker = async () => {
    while (performance.now() < until) {
      const t = performance.now()
      const res = await pool.request(make())
      await res.body.text()
      if (res.statusCode === expected) latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({length: concurrency}, worker))
  latencies.sort((a, b) => a - b)
  return {perSec: latencies.length / ((performance.now() - started) / 1000), p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0}
}

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(text)?.[1] ?? 0)
  return {VmRSS: kb('VmRSS'), VmHWM: kb('VmHWM')}
}

/** Streams every customer through the real CLI, counting lines and distinct ids; peak RSS from /proc at exit. */
function cliList(bin, env, ready, work) {
  const hook = join(work, 'rss-hook.cjs')
  const rssFile = join(work, 'cli-rss.txt')
  writeFileSync(hook, `process.on('exit', () => { const m = /VmHWM:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8')); require('fs').writeFileSync(${JSON.stringify(rssFile)}, m ? m[1] : '0') })`)
  const child = spawn(process.execPath, [bin, 'customers', 'list', '--all', '--output', 'ndjson'], {
    env: {...env, SVC_BASE_URL: ready.url, SVC_TOKEN_ID: ready.tokenId, SVC_CLIENT_SECRET: ready.clientSecret, NODE_OPTIONS: `--require ${hook}`},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const t = performance.now()
  let lines = 0
  let rest = ''
  const ids = new Set()
  let err = ''
  child.stderr.on('data', (c) => (err += c))
  child.stdout.on('data', (c) => {
    const parts = (rest + c).split('\n')
    rest = parts.pop()
    for (const p of parts) {
      lines++
      ids.add(JSON.parse(p).id)
    }
  })
  return new Promise((resolve) =>
    child.once('close', (code) => {
      let rssMb = Infinity
      try {
        rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024
      } catch {
        // no exit hook ran
      }
      if (code !== 0) console.log(`  svc customers list failed (${code}): ${err.trim().split('\n')[0]}`)
      resolve({code, lines, unique: ids.size, rssMb, ms: performance.now() - t})
    }),
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
  const i = process.argv.indexOf('--customers')
  await benchScale({bin: join(root, 'bin', 'run.js'), env: {...process.env, HOME: tmpdir()}, customers: i > 0 ? Number(process.argv[i + 1]) : 100_000})
}
