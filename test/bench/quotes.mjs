// Quote throughput of the local sandbox and the start-up cost of `svc quote create --json`.
// Called by test/bench/bench.mjs: benchQuotes({url, tokenId, clientSecret, bin}) -> numbers.
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {payerWithPayee, sandboxCall} from './common.mjs'

const MAX_QUOTES = 300
const MAX_MS = 5000
const CLI_RUNS = 7

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

export async function benchQuotes({url, tokenId, clientSecret, bin, env: baseEnv}) {
  const host = new URL(url).hostname
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    throw new Error(`benchQuotes runs against a loopback sandbox only (got ${host})`)
  const auth = 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')
  const call = sandboxCall(url, auth)

  // Setup: an APPROVED customer needs a regulated platform (it may set kycStatus); restored afterwards.
  const config = await call('GET', '/config')
  await call('PATCH', '/config', {isRegulatedFinancialInstitution: true})
  try {
    const {source, dest} = await payerWithPayee(call, {fullName: 'Bench Mark'}, 'Bench Receiver')
    const body = {
      source: {sourceType: 'ACCOUNT', accountId: source},
      destination: {destinationType: 'ACCOUNT', accountId: dest},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
    }

    // Throughput: create + execute, sequentially (what one client sees), bounded in count and time.
    let done = 0
    const started = performance.now()
    while (done < MAX_QUOTES && performance.now() - started < MAX_MS) {
      const q = await call('POST', '/quotes', body)
      await call('POST', `/quotes/${encodeURIComponent(q.id)}/execute`)
      done++
    }
    const elapsed = performance.now() - started

    // CLI wall time: `svc quote create --json` against `node -e 0` (the floor of any Node CLI).
    const home = mkdtempSync(join(tmpdir(), 'svc-bench-'))
    // Same environment as the floor it is compared with (bench.mjs passes the caller's).
    const env = {
      ...(baseEnv ?? {PATH: process.env.PATH}),
      HOME: home,
      SVC_CONFIG_DIR: join(home, 'config'),
      SVC_BASE_URL: url,
      SVC_TOKEN_ID: tokenId,
      SVC_CLIENT_SECRET: clientSecret,
      CI: '1',
      SVC_NO_INPUT: '1',
      NO_COLOR: '1',
    }
    const args = ['quote', 'create', '--from', source, '--to', dest, '--amount-minor', '100', '--json']
    // Asynchronous spawn: the sandbox may live in this very process and must keep answering.
    const time = (argv) =>
      new Promise((resolve, reject) => {
        const t = performance.now()
        const child = spawn(process.execPath, argv, {env, stdio: ['ignore', 'ignore', 'pipe']})
        let stderr = ''
        child.stderr.on('data', (c) => (stderr += c))
        child.on('error', reject)
        child.on('close', (code) =>
          code === 0
            ? resolve(performance.now() - t)
            : reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`)),
        )
      })
    await time([bin, ...args]) // warm the code cache
    const cli = []
    const base = []
    for (let i = 0; i < CLI_RUNS; i++) {
      cli.push(await time([bin, ...args]))
      base.push(await time(['-e', '0']))
    }
    rmSync(home, {recursive: true, force: true})
    const quoteCreateMedianMs = median(cli)
    const nodeBaselineMedianMs = median(base)
    return {
      quotesExecuted: done,
      quotesPerSecond: Math.round((done / elapsed) * 1000 * 10) / 10,
      quoteCreateMedianMs: Math.round(quoteCreateMedianMs),
      nodeBaselineMedianMs: Math.round(nodeBaselineMedianMs),
      quoteCreateOverheadMs: Math.round(quoteCreateMedianMs - nodeBaselineMedianMs),
      quoteCreateVsNodeRatio: Math.round((quoteCreateMedianMs / nodeBaselineMedianMs) * 100) / 100,
    }
  } finally {
    await call('PATCH', '/config', {isRegulatedFinancialInstitution: Boolean(config.isRegulatedFinancialInstitution)})
  }
}
