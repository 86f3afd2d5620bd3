// What the bench scripts share: reaching a sandbox (a `svc sandbox serve` child, HTTP calls to it) and the payer
// their money moves start from.
import {spawn} from 'node:child_process'

/** A valid CLABE (3-7-1 check digit) whose last digits hit no failure pattern. */
export function clabe() {
  const first = '00201000000012345'
  const w = [3, 7, 1]
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (Number(first[i]) * w[i % 3]) % 10
  return first + ((10 - (sum % 10)) % 10)
}

/** JSON over HTTP to the sandbox at `url` with `authorization`; an answer of 400 or above throws (setup must work). */
export function sandboxCall(url, authorization) {
  return async (method, path, body) => {
    const res = await fetch(url + path, {
      method,
      headers: {authorization, 'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
}

/**
 * An APPROVED individual (`customer`: extra fields of POST /customers, fullName at least) whose USD account holds
 * USD 1,000,000.00, and a CLABE account of `receiver` to pay. The platform must be regulated while this runs (only
 * then may a customer be created APPROVED). Ids: {customer, source, dest}.
 */
export async function payerWithPayee(call, customer, receiver) {
  const created = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    kycStatus: 'APPROVED',
    currencies: ['USD', 'MXN'],
    ...customer,
  })
  const accounts = await call('GET', `/internal-account?customerId=${encodeURIComponent(created.id)}&currency=USD`)
  const source = accounts.data[0].id
  await call('POST', `/sandbox/internal-accounts/${encodeURIComponent(source)}/fund`, {amount: 100_000_000})
  const dest = await call('POST', '/customers/external-accounts', {
    customerId: created.id,
    currency: 'MXN',
    accountInfo: {
      accountType: 'CLABE',
      clabeNumber: clabe(),
      beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: receiver},
    },
  })
  return {customer: created.id, source, dest: dest.id}
}

/**
 * `svc sandbox serve …args --json` as a child process, as a user runs it; resolves once it printed its ready line:
 * {child, ready, stderr()}. `what` names it in the error when it exits before that.
 */
export function serveChild(bin, args, env, what) {
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', ...args], {env, stdio: ['ignore', 'pipe', 'pipe']})
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr.on('data', (c) => (err += c))
    child.stdout.on('data', (c) => {
      out += c
      const nl = out.indexOf('\n')
      if (nl >= 0) resolve({child, ready: JSON.parse(out.slice(0, nl)), stderr: () => err})
    })
    child.once('exit', (code) => reject(new Error(`${what} exited ${code} before it was ready:\n${err}`)))
  })
}
