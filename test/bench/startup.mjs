// The start-up of each topic's most used command, against one local sandbox, interleaved.
// Called by test/bench/bench.mjs: benchStartup({url, tokenId, clientSecret, bin, env, runs, baseline}).
//
// Each command gets the floor of the work it does (issue 20): a first run goes through a recording
// proxy, and the requests it sent (method, path, headers, body) become a bare `node -e` script that
// makes the same requests with node:http, one after another; a command that sends none is held to
// `node -e 0`. The floors run in the same round-robin as the commands. Targets: `customers get`
// <= 1.5x its floor, every other command that makes one request <= 1.6x its floor, and the
// local-only commands `wallet keys list`, `profiles list` and `help` <= 1.5x `node -e 0`.
//
// With `--baseline <checkout>` (a built checkout of an earlier commit, e.g. a git worktree), every
// command also runs from that checkout's bin/run.js in the same round-robin, so the table shows
// what a change did to each command's start-up (issue 14: no command may regress).
import {spawn, spawnSync} from 'node:child_process'
import {createServer, request} from 'node:http'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {payerWithPayee, sandboxCall} from './common.mjs'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Objects the commands read: an approved, funded customer with an external account. */
async function seed(url, auth) {
  const call = sandboxCall(url, auth)
  const config = await call('GET', '/config')
  await call('PATCH', '/config', {isRegulatedFinancialInstitution: true})
  try {
    // Consent to the current end-user terms, which a payment needs once the platform setting is restored.
    const terms = await call('GET', '/customers/end-user-terms')
    const endUserTermsConsent = {
      acceptedAt: new Date().toISOString(),
      ipAddress: '127.0.0.1',
      termsVersion: terms.version,
      acceptanceMethod: 'CHECKBOX',
    }
    return await payerWithPayee(call, {fullName: 'Startup Bench', endUserTermsConsent}, 'Startup Receiver')
  } finally {
    await call('PATCH', '/config', {isRegulatedFinancialInstitution: config.isRegulatedFinancialInstitution ?? false})
  }
}

/** One command per topic: the one scripts and shells call most. */
function topicCommands(ids, flowFile) {
  return [
    ['customers get', ['customers', 'get', ids.customer, '--json']],
    ['customers list', ['customers', 'list', '--limit', '10', '--json']],
    ['kyc status', ['kyc', 'status', ids.customer, '--json']],
    ['accounts internal list', ['accounts', 'internal', 'list', '--customer', ids.customer, '--json']],
    ['accounts external list', ['accounts', 'external', 'list', '--customer', ids.customer, '--json']],
    ['quote create', ['quote', 'create', '--from', ids.source, '--to', ids.dest, '--amount-minor', '100', '--json']],
    ['transactions list', ['transactions', 'list', '--limit', '10', '--json']],
    ['cards list', ['cards', 'list', '--json']],
    ['agents list', ['agents', 'list', '--json']],
    ['stablecoins list', ['stablecoins', 'list', '--json']],
    ['tokens list', ['tokens', 'list', '--json']],
    ['webhooks events list', ['webhooks', 'events', 'list', '--json']],
    ['wallet keys list', ['wallet', 'keys', 'list', '--json']],
    ['profiles list', ['profiles', 'list', '--json']],
    // The bench platform does not require SCA, so the Service answers 409 (exit 6): start-up, request and error output all the same.
    ['sca factors list (exit 6)', ['sca', 'factors', 'list', ids.customer, '--json'], 6],
    ['sandbox fund', ['sandbox', 'fund', ids.source, '--amount-minor', '100', '--json']],
    ['reference banks', ['reference', 'banks', '--country', 'MX', '--json']],
    ['rates', ['rates', '--json']],
    ['api GET', ['api', 'GET', `/customers/${ids.customer}`, '--json']],
    ['whoami', ['whoami', '--json']],
    // The bench's sandbox keeps its data in a directory of its own, which doctor reports (exit 1).
    ['doctor (exit 1)', ['doctor', '--json'], 1],
    ['flow run (one API step)', ['flow', 'run', flowFile, '--json']],
    ['customers get --help', ['customers', 'get', '--help']],
    ['help', ['help']],
  ]
}

/** Issue 20's targets, by label; a command that makes one request and is not named here gets ONE_REQUEST. */
const TARGETS = {'customers get': 1.5, 'wallet keys list': 1.5, 'profiles list': 1.5, help: 1.5}
const ONE_REQUEST = 1.6

export async function benchStartup(opts) {
  // A one-step flow: the start-up of `svc flow run` and its file check, not of the steps it could run.
  const flowDir = mkdtempSync(join(tmpdir(), 'svc-startup-flow-'))
  try {
    return await measure(opts, join(flowDir, 'one-step.yaml'))
  } finally {
    rmSync(flowDir, {recursive: true, force: true})
  }
}

async function measure({url, tokenId, clientSecret, bin, env, runs = 11, baseline}, flowFile) {
  const auth = 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')
  const ids = await seed(url, auth)
  const bins = [{key: 'svc', bin}, ...(baseline ? [{key: 'baseline', bin: join(baseline, 'bin', 'run.js')}] : [])]
  writeFileSync(
    flowFile,
    `name: one step\nsteps:\n  - name: read the customer\n    api: {method: GET, path: /customers/${ids.customer}}\n`,
  )
  const cases = topicCommands(ids, flowFile)
  const run = (argv, expected = 0) => {
    const t = process.hrtime.bigint()
    const r = spawnSync(process.execPath, argv, {env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'})
    if (expected !== undefined && r.status !== expected) {
      const again = spawnSync(process.execPath, argv, {env, encoding: 'utf8'})
      throw new Error(`${argv.join(' ')} exited ${r.status}: ${again.stdout}${again.stderr}`)
    }
    return Number(process.hrtime.bigint() - t) / 1e6
  }
  // What each command sends: one run through the recording proxy (also its disk-cache warm-up).
  const recorder = await recordingProxy(url)
  const sent = new Map()
  try {
    for (const [label, argv, expected] of cases) {
      recorder.requests.length = 0
      // Not spawnSync: the proxy answers from this process's event loop.
      const child = spawn(process.execPath, [bin, ...argv], {
        env: {...env, SVC_BASE_URL: recorder.url},
        stdio: 'ignore',
      })
      const code = await new Promise((resolve, reject) => child.on('exit', resolve).on('error', reject))
      if (code !== (expected ?? 0)) throw new Error(`${argv.join(' ')} through the recording proxy exited ${code}`)
      sent.set(label, [...recorder.requests])
    }
  } finally {
    await recorder.close()
  }
  const floorArgv = (label) => {
    const requests = sent.get(label)
    return requests.length ? ['-e', replay(new URL(url).origin, requests)] : ['-e', '0']
  }
  const times = new Map()
  for (const [label] of cases) for (const key of ['floor', ...bins.map((b) => b.key)]) times.set(`${label}|${key}`, [])
  const floor = []
  for (const [label, argv, expected] of cases) {
    run(floorArgv(label), undefined)
    for (const b of bins) run([b.bin, ...argv], expected) // code caches, disk cache
  }
  for (let i = 0; i < runs; i++) {
    floor.push(run(['-e', '0']))
    for (const [label, argv, expected] of cases) {
      if (sent.get(label).length) times.get(`${label}|floor`).push(run(floorArgv(label), undefined))
      for (const b of bins) times.get(`${label}|${b.key}`).push(run([b.bin, ...argv], expected))
    }
  }
  const f = median(floor)
  const round = (v, d = 1) => Math.round(v * 10 ** d) / 10 ** d
  const rows = cases.map(([label]) => {
    const svc = median(times.get(`${label}|svc`))
    const requests = sent.get(label).length
    const own = requests ? median(times.get(`${label}|floor`)) : f
    const target = TARGETS[label] ?? (requests === 1 ? ONE_REQUEST : undefined)
    const row = {
      command: `svc ${label}`,
      requests: sent.get(label).map((r) => `${r.method} ${r.path.split('?')[0]}`),
      ms: round(svc),
      floorMs: round(own),
      ratio: round(svc / own, 2),
      ...(target === undefined ? {} : {target, ok: svc / own <= target}),
    }
    if (baseline) {
      const base = median(times.get(`${label}|baseline`))
      Object.assign(row, {baselineMs: round(base), deltaMs: round(svc - base)})
    }
    return row
  })
  return {floorMs: round(f), rows}
}

/** A proxy in front of the sandbox that keeps every request it forwards (method, path, headers, body). */
async function recordingProxy(target) {
  const upstream = new URL(target)
  const requests = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({
        method: req.method,
        path: req.url,
        headers: req.headers,
        body: body.length ? body.toString() : undefined,
      })
      const out = request(
        {host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers},
        (answer) => {
          res.writeHead(answer.statusCode, answer.headers)
          answer.pipe(res)
        },
      )
      out.on('error', (e) => res.destroy(e))
      out.end(body)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    requests,
    url: `http://127.0.0.1:${server.address().port}${upstream.pathname}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/**
 * A `node -e` script that makes the recorded requests with node:http, one after another, printing
 * each body: the floor of a command's work. Headers are the command's own (connection and length
 * aside); an Idempotency-Key is made fresh per run the way the command makes one (Web Crypto's
 * randomUUID), so a POST is not answered from the sandbox's replay store.
 */
function replay(origin, requests) {
  const skip = new Set(['host', 'connection', 'content-length', 'transfer-encoding'])
  const specs = requests.map((r) => ({
    url: origin + r.path,
    method: r.method,
    headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => !skip.has(k))),
    body: r.body,
  }))
  const fresh = specs.some((r) => 'idempotency-key' in r.headers)
  return `const http = require('node:http')
const specs = ${JSON.stringify(specs)}
const next = (i) => {
  if (i === specs.length) return
  const {url, method, headers, body} = specs[i]
  ${fresh ? `if (headers['idempotency-key']) headers['idempotency-key'] = crypto.randomUUID()` : ''}
  const req = http.request(url, {method, headers}, (res) => {
    let b = ''
    res.on('data', (c) => (b += c))
    res.on('end', () => { process.stdout.write(b); next(i + 1) })
  })
  req.end(body)
}
next(0)`
}
