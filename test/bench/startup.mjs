// The start-up of each topic's most used command, against one local sandbox, interleaved.
// Called by test/bench/bench.mjs: benchStartup({url, tokenId, clientSecret, bin, env, runs, baseline}).
//
// With `--baseline <checkout>` (a built checkout of an earlier commit, e.g. a git worktree), every
// command also runs from that checkout's bin/run.js in the same round-robin, so the table shows
// what a change did to each command's start-up (issue 14: no command may regress).
import {spawnSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {clabe} from './quotes.mjs'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Objects the commands read: an approved, funded customer with an external account. */
async function seed(url, auth) {
  const call = async (method, path, body) => {
    const res = await fetch(url + path, {
      method,
      headers: {authorization: auth, 'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
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
    const customer = await call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Startup Bench',
      kycStatus: 'APPROVED',
      currencies: ['USD', 'MXN'],
      endUserTermsConsent,
    })
    const accounts = await call('GET', `/internal-account?customerId=${encodeURIComponent(customer.id)}&currency=USD`)
    const source = accounts.data[0].id
    await call('POST', `/sandbox/internal-accounts/${encodeURIComponent(source)}/fund`, {amount: 100_000_000})
    const dest = await call('POST', '/customers/external-accounts', {
      customerId: customer.id,
      currency: 'MXN',
      accountInfo: {
        accountType: 'CLABE',
        clabeNumber: clabe(),
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Startup Receiver'},
      },
    })
    return {customer: customer.id, source, dest: dest.id}
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
  ]
}

export async function benchStartup({url, tokenId, clientSecret, bin, env, runs = 11, baseline}) {
  const auth = 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')
  const ids = await seed(url, auth)
  const bins = [{key: 'svc', bin}, ...(baseline ? [{key: 'baseline', bin: join(baseline, 'bin', 'run.js')}] : [])]
  // A one-step flow: the start-up of `svc flow run` and its file check, not of the steps it could run.
  const flowFile = join(mkdtempSync(join(tmpdir(), 'svc-startup-flow-')), 'one-step.yaml')
  writeFileSync(
    flowFile,
    `name: one step\nsteps:\n  - name: read the customer\n    api: {method: GET, path: /customers/${ids.customer}}\n`,
  )
  const cases = topicCommands(ids, flowFile)
  const run = (argv, expected = 0) => {
    const t = process.hrtime.bigint()
    const r = spawnSync(process.execPath, argv, {env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'})
    if (r.status !== expected) {
      const again = spawnSync(process.execPath, argv, {env, encoding: 'utf8'})
      throw new Error(`${argv.join(' ')} exited ${r.status}: ${again.stdout}${again.stderr}`)
    }
    return Number(process.hrtime.bigint() - t) / 1e6
  }
  const times = new Map()
  for (const [label] of cases) for (const b of bins) times.set(`${label}|${b.key}`, [])
  const floor = []
  for (const [, argv, expected] of cases) for (const b of bins) run([b.bin, ...argv], expected) // code caches, disk cache
  for (let i = 0; i < runs; i++) {
    floor.push(run(['-e', '0']))
    for (const [label, argv, expected] of cases)
      for (const b of bins) times.get(`${label}|${b.key}`).push(run([b.bin, ...argv], expected))
  }
  const f = median(floor)
  const rows = cases.map(([label]) => {
    const svc = median(times.get(`${label}|svc`))
    const row = {command: `svc ${label}`, ms: Math.round(svc * 10) / 10, ratio: Math.round((svc / f) * 100) / 100}
    if (baseline) {
      const base = median(times.get(`${label}|baseline`))
      Object.assign(row, {baselineMs: Math.round(base * 10) / 10, deltaMs: Math.round((svc - base) * 10) / 10})
    }
    return row
  })
  return {floorMs: Math.round(f * 10) / 10, rows}
}
