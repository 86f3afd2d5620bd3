import {createHash, randomBytes} from 'node:crypto'
import {connect} from 'node:net'
import {UPLOAD_MAX_BODY} from '../../src/emulator/router.js'
import {api} from './money.js'
import type {TestSandbox} from './sandbox.js'

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

/** An API token made with POST /tokens (by the sandbox's own credentials), as its Authorization header. */
export async function tokenWith(sbx: TestSandbox, permissions: string[]): Promise<{id: string; auth: string}> {
  const r = await api(sbx, 'POST', '/tokens', {name: `t-${permissions.join('-') || 'none'}`, permissions})
  if (r.status !== 201) throw new Error(`token create failed: ${JSON.stringify(r.body)}`)
  return {id: r.body.id, auth: basic(r.body.clientId, r.body.clientSecret)}
}

/** A token holding no permission at all. The API cannot make one (at least one permission), so it is written to the store: it shows the check is by permission, not by "has a token". */
export function tokenWithNoPermission(sbx: TestSandbox): {id: string; auth: string} {
  const secret = `sk_tok_${randomBytes(24).toString('hex')}`
  const clientId = randomBytes(16).toString('hex')
  const now = new Date().toISOString()
  const id = 'Token:00000000-0000-0000-0000-0000000000ee'
  sbx.emu.db.put('apiTokens', id, {
    id,
    name: 'no permission',
    permissions: [],
    clientId,
    secretSha256: createHash('sha256').update(secret).digest('hex'),
    createdAt: now,
    updatedAt: now,
  })
  return {id, auth: basic(clientId, secret)}
}

/** An agent of `customerId` with these policy permissions, connected: its id and Bearer header. */
export async function agentWith(
  sbx: TestSandbox,
  customerId: string,
  permissions: string[],
  policy: Record<string, unknown> = {},
): Promise<{id: string; auth: string}> {
  const r = await api(sbx, 'POST', '/agents', {
    name: `a-${permissions.length}`,
    customerId,
    policy: {
      permissions,
      defaultExecutionMode: 'AUTO',
      spendingLimits: {currency: 'USD', perTransactionLimit: 10_000_000},
      ...policy,
    },
  })
  if (r.status !== 201) throw new Error(`agent create failed: ${JSON.stringify(r.body)}`)
  const redeemed = await fetch(`${sbx.url}/agents/device-codes/${r.body.deviceCode.code}/redeem`, {
    method: 'POST',
  }).then((x) => x.json())
  return {id: r.body.agent.id, auth: `Bearer ${redeemed.accessToken}`}
}

/** Calls with an agent's (or any) Authorization header and a JSON body. */
export async function call(
  sbx: TestSandbox,
  auth: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(sbx.url + path, {
    method,
    headers: {
      ...(auth ? {authorization: auth} : {}),
      ...(body !== undefined ? {'content-type': 'application/json'} : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return {status: res.status, body: text ? JSON.parse(text) : undefined}
}

/**
 * A request that declares a body over every route's size cap and sends none of it. The server decides who
 * may call before it reads a body, so an admitted caller gets 413 PAYLOAD_TOO_LARGE (no handler
 * runs, nothing changes) and a refused one gets the 401/403 of the authorization table.
 */
export function probe(
  sbx: TestSandbox,
  method: string,
  path: string,
  auth?: string,
): Promise<{status: number; body: {code?: string; details?: Record<string, unknown>}}> {
  const url = new URL(sbx.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let raw = ''
    socket.setEncoding('latin1')
    socket.on('connect', () => {
      const head = [
        `${method} ${url.pathname}${path} HTTP/1.1`,
        `Host: ${url.host}`,
        ...(auth ? [`Authorization: ${auth}`] : []),
        'Content-Type: application/json',
        `Content-Length: ${UPLOAD_MAX_BODY + 1}`,
      ]
      socket.write(head.join('\r\n') + '\r\n\r\n')
    })
    socket.on('data', (c: string) => {
      raw += c
      const end = raw.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: (\d+)/i.exec(raw)
      if (end < 0 || !length || raw.length < end + 4 + Number(length[1])) return
      socket.destroy()
      const body = raw.slice(end + 4, end + 4 + Number(length[1]))
      resolve({status: Number(raw.slice(9, 12)), body: body ? JSON.parse(body) : {}})
    })
    socket.on('error', reject)
  })
}
