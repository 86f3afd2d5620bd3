// Wallet benchmarks for `npm run bench` (called from test/bench/bench.mjs):
// stamps per second (pure crypto), and the wall time of `svc wallet login` and `svc wallet export`
// as a user runs them (the built binary as a child process) against a running sandbox.
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

function run(bin, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [bin, ...args], {env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = performance.now() - started
      if (code !== 0) reject(new Error(`svc ${args.join(' ')} exited ${code}: ${stderr}`))
      else resolve({ms, stdout})
    })
  })
}

async function api(url, auth, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: {authorization: auth, 'content-type': 'application/json'},
    body: body && JSON.stringify(body),
  })
  const json = await res.json()
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`)
  return json
}

/** Stamps over distinct payloads for about `ms` milliseconds. */
async function stampRate(ms = 1000) {
  const {stamp, generateP256KeyPair} = await import(join(ROOT, 'dist/lib/wallet/index.js'))
  const {privateKey} = generateP256KeyPair()
  let n = 0
  const started = performance.now()
  while (performance.now() - started < ms) {
    stamp(`{"operation":"bench","n":${n}}`, privateKey)
    n++
  }
  return Math.round(n / ((performance.now() - started) / 1000))
}

export async function benchWallet({url, tokenId, clientSecret, bin = join(ROOT, 'bin/run.js'), env: baseEnv}) {
  const auth = 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')
  const stampsPerSecond = await stampRate()
  const customer = await api(url, auth, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Bench Holder',
    email: `bench-${Date.now()}@example.com`,
  })
  const accounts = await api(
    url,
    auth,
    'GET',
    `/customers/internal-accounts?type=EMBEDDED_WALLET&customerId=${encodeURIComponent(customer.id)}`,
  )
  const wallet = accounts.data.find((a) => a.customerId === customer.id)
  if (!wallet) throw new Error('the sandbox provisioned no embedded wallet for the bench customer')
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-wallet-'))
  const env = {
    ...(baseEnv ?? {PATH: process.env.PATH}),
    HOME: home,
    SVC_BASE_URL: url,
    SVC_TOKEN_ID: tokenId,
    SVC_CLIENT_SECRET: clientSecret,
    SVC_CONFIG_DIR: join(home, 'config'),
    CI: '1',
    SVC_NO_INPUT: '1',
    NO_COLOR: '1',
  }
  try {
    const login = await run(bin, ['wallet', 'login', wallet.id, '--json'], env)
    const exp = await run(bin, ['wallet', 'export', wallet.id, '--verify-only', '--json'], env)
    if (JSON.parse(exp.stdout).wordCount < 12) throw new Error('the bench export did not decrypt to a mnemonic')
    return {stampsPerSecond, loginMs: Math.round(login.ms), exportMs: Math.round(exp.ms)}
  } finally {
    rmSync(home, {recursive: true, force: true})
  }
}
