import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {MultiServer} from '../../src/emulator/multi/server.js'
import type {SandboxSettings} from '../../src/emulator/settings.js'

export interface Creds {
  url: string
  tokenId: string
  clientSecret: string
}

/** One HTTP call with Basic credentials (or none): JSON in and out, no throw on 4xx/5xx. */
export async function http(
  url: string,
  creds: {tokenId: string; clientSecret: string} | undefined,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{status: number; body: any}> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(creds
        ? {authorization: 'Basic ' + Buffer.from(`${creds.tokenId}:${creds.clientSecret}`).toString('base64')}
        : {}),
      ...(body !== undefined && !(body instanceof Uint8Array) ? {'content-type': 'application/json'} : {}),
      ...headers,
    },
    body:
      body === undefined
        ? undefined
        : body instanceof Uint8Array
          ? (body as Uint8Array<ArrayBuffer>)
          : JSON.stringify(body),
  })
  const text = await res.text()
  const json = String(res.headers.get('content-type')).includes('json')
  return {status: res.status, body: text && json ? JSON.parse(text) : text || undefined}
}

/** A client for one sandbox: its own credentials, against `base` (its URL by default). */
export const as =
  (c: Creds, base = c.url) =>
  (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(base + path, c, method, body, headers)

export interface TestMulti {
  multi: MultiServer
  dir: string
  /** The default sandbox's credentials (the data dir's own). */
  main: Creds
  /** Admin routes: `admin('POST', '', {name})` is POST /sandbox/sandboxes. */
  admin: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ReturnType<typeof http>
  /** Creates a sandbox (optionally branched from another) and returns its credentials. */
  create: (name: string, from?: string) => Promise<Creds>
  close: () => Promise<void>
}

/** `serve --multi` in-process, on an ephemeral loopback port, with a fresh data dir unless one is given. */
export async function startMulti(
  opts: {dir?: string; idleMs?: number; settings?: Partial<SandboxSettings>} = {},
): Promise<TestMulti> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'svc-multi-'))
  const multi = await MultiServer.start({
    dataDir: dir,
    port: 0,
    idleMs: opts.idleMs ?? 600_000,
    settings: {decisionDelayMs: 50, webhookRetryBaseMs: 50, ...opts.settings},
  })
  const emu = await multi.defaultSandbox()
  const adminCreds = {tokenId: 'admin', clientSecret: multi.admin.clientSecret}
  const admin: TestMulti['admin'] = (method, path, body, headers) =>
    http(`${multi.url}/sandbox/sandboxes${path}`, adminCreds, method, body, headers)
  return {
    multi,
    dir,
    main: {url: emu.url, tokenId: emu.credentials.tokenId, clientSecret: emu.credentials.clientSecret},
    admin,
    async create(name, from) {
      const r = await admin('POST', '', {name, ...(from ? {from: {sandbox: from}} : {})})
      if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body as Creds
    },
    async close() {
      await multi.close()
    },
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, {recursive: true, force: true})
}
