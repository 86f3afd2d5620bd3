import {randomBytes, timingSafeEqual} from 'node:crypto'
import {closeSync, existsSync, openSync, readFileSync, rmSync, writeSync} from 'node:fs'
import type {IncomingMessage} from 'node:http'
import {join} from 'node:path'
import {writePrivateFileAtomic} from '../../lib/fs-safe.js'
import {sandboxCreateRequest, sandboxName, SNAPSHOT_CONTENT_TYPE} from '../../lib/schemas/sandboxes.js'
import {HttpError, validate} from '../http-error.js'
import type {EmuResponse} from '../context.js'
import {readBody, tooLarge} from '../listener.js'
import type {Tenants} from './tenants.js'

/** The admin credential of a multi-sandbox server: HTTP Basic `admin:<secret>`, kept 0600 in <data dir>/admin.json. */
export interface AdminCredential {
  tokenId: 'admin'
  clientSecret: string
}

export function loadAdminCredential(root: string): AdminCredential {
  const path = join(root, 'admin.json')
  if (existsSync(path)) {
    const c = JSON.parse(readFileSync(path, 'utf8')) as Partial<AdminCredential>
    if (typeof c.clientSecret === 'string' && c.clientSecret) return {tokenId: 'admin', clientSecret: c.clientSecret}
  }
  const made: AdminCredential = {tokenId: 'admin', clientSecret: `sk_admin_${randomBytes(24).toString('hex')}`}
  writePrivateFileAtomic(path, JSON.stringify(made, null, 2))
  return made
}

/** Where the admin routes live, under the API version prefix (not inside any one sandbox). */
export const ADMIN_PATH = '/sandbox/sandboxes'
const JSON_LIMIT = 64 * 1024
/** A snapshot upload's cap: far above any fixture a CI job hands over, far below the disk. */
export const SNAPSHOT_LIMIT = 1024 * 1024 * 1024

/**
 * Who may manage sandboxes: only the admin credential. A sandbox's own credentials are recognised
 * and refused (403: they are valid, for something else); anything else is 401.
 */
export function checkAdmin(admin: AdminCredential, tenants: Tenants, authorization: string | undefined): void {
  const m = /^Basic\s+(.+)$/i.exec(authorization ?? '')
  const given = m ? Buffer.from(m[1], 'base64') : Buffer.alloc(0)
  const own = Buffer.from(`admin:${admin.clientSecret}`)
  if (given.length === own.length && timingSafeEqual(given, own)) return
  const tokenId = given.subarray(0, Math.max(0, given.indexOf(':'))).toString('utf8')
  if (tokenId && tenants.isSandboxToken(tokenId))
    throw new HttpError(
      403,
      'FORBIDDEN',
      "A sandbox's credentials cannot manage sandboxes; use the admin credential from the server's ready line",
      {operation: 'manageSandboxes'},
    )
  throw new HttpError(401, 'UNAUTHORIZED', 'The sandbox admin routes take HTTP Basic admin:<admin secret>', undefined, {
    'www-authenticate': 'Basic realm="svc sandbox admin"',
  })
}

/** One admin request, already admitted: `path` is under ADMIN_PATH. */
export async function adminRoute(
  tenants: Tenants,
  method: string,
  path: string,
  query: URLSearchParams,
  req: IncomingMessage,
  spool: string,
): Promise<EmuResponse> {
  const rest = path.slice(ADMIN_PATH.length).split('/').filter(Boolean).map(decodeURIComponent)
  if (rest.length === 0 && method === 'GET') return {status: 200, body: {data: tenants.list()}}
  if (rest.length === 0 && method === 'POST') return create(tenants, query, req, spool)
  if (rest.length >= 1) validate(sandboxName, rest[0], 'name')
  if (rest.length === 1 && method === 'GET') {
    const info = tenants.list().find((t) => t.name === rest[0])
    if (!info) throw new HttpError(404, 'NOT_FOUND', `No sandbox named "${rest[0]}"`)
    return {status: 200, body: info}
  }
  if (rest.length === 1 && method === 'DELETE') {
    await tenants.delete(rest[0])
    return {status: 200, body: {name: rest[0], deleted: true}}
  }
  if (rest.length === 2 && rest[1] === 'reset' && method === 'POST') {
    await tenants.reset(rest[0])
    return {status: 200, body: {name: rest[0], reset: true}}
  }
  throw new HttpError(404, 'NOT_FOUND', `No route ${method} ${path}`)
}

async function create(
  tenants: Tenants,
  query: URLSearchParams,
  req: IncomingMessage,
  spool: string,
): Promise<EmuResponse> {
  const type = String(req.headers['content-type'] ?? '')
  let made
  if (type.startsWith(SNAPSHOT_CONTENT_TYPE) || type.startsWith('application/octet-stream')) {
    // A snapshot: the raw database file as the body, its name in the query (checked before a byte is read).
    const name = validate(sandboxName, query.get('name') ?? undefined, 'name')
    if (tenants.get(name)) throw new HttpError(409, 'SANDBOX_EXISTS', `A sandbox named "${name}" already exists`)
    const file = join(spool, `.upload-${randomBytes(6).toString('hex')}.db`)
    try {
      await readToFile(req, file, SNAPSHOT_LIMIT)
      made = await tenants.create(name, {file})
    } finally {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, {force: true})
    }
  } else {
    let body: unknown
    try {
      body = JSON.parse((await readBody(req, JSON_LIMIT)).toString('utf8') || '{}')
    } catch {
      throw new HttpError(400, 'INVALID_INPUT', 'The request body is not valid JSON', {
        errors: [{field: '(body)', message: 'is not valid JSON'}],
      })
    }
    const input = validate(sandboxCreateRequest, body)
    made = await tenants.create(input.name, input.from ? {sandbox: input.from.sandbox} : undefined)
  }
  const {emu, report} = made
  const info = tenants.list().find((t) => t.url === emu.url)!
  return {
    status: 201,
    body: {
      name: info.name,
      url: emu.url,
      tokenId: emu.credentials.tokenId,
      clientSecret: emu.credentials.clientSecret,
      webhookPublicKey: emu.webhookPublicKeyPem,
      sizeBytes: info.sizeBytes,
      // A branch: the settings it has from its source, and the source's credentials it does not have.
      ...report,
    },
  }
}

/** Streams the body into a new 0600 file, never holding it whole. */
function readToFile(req: IncomingMessage, file: string, limit: number): Promise<void> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(tooLarge(limit))
  const fd = openSync(file, 'wx', 0o600)
  return new Promise<void>((resolve, reject) => {
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) {
        req.removeAllListeners('data')
        reject(tooLarge(limit))
      } else writeSync(fd, c)
    })
    req.on('end', () => resolve())
    req.on('error', reject)
  }).finally(() => closeSync(fd))
}
