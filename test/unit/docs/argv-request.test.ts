// argv -> ApiRequest for every command with --dry-run, without a sandbox (issue 35, gh's runF with httpmock).
// Walks oclif.manifest.json: each command's --help examples are run in this process (run-command.ts),
// first with --dry-run (no credentials: the request it describes, or its refusal naming the field), then
// for real against a recorder on port 0 that keeps every request and answers 404. What a dry run shows
// is exactly what the transport sent: method, path, query, the headers svc sets (credentials aside)
// and the body, byte for byte. The table of what each example asks for (or refuses) is
// argv-request.snap.json beside this file: a changed request is a failing diff to review.
//
// Where the sandbox sweep's assertions went (test/integration/dry-run-equivalence.test.ts before issue 35):
//  - "dry run prints the request the command then sends", per command: here, for every example of
//    every command with --dry-run, against the recorder (no fixtures, no sandbox state);
//  - "a dry run sends nothing" and "a dry run needs no credentials": here, per example;
//  - the one transport describes what it sends (ApiClient.describe vs call): test/unit/client/describe-equals-send.test.ts;
//  - what the sandbox received after a real run (ids it created, signed retries, lookups at send time,
//    keys with their scopes): still test/integration/dry-run-equivalence.test.ts, which keeps its
//    binary samples and in-process comparison of a real run.
import {createServer, type IncomingMessage} from 'node:http'
import type {AddressInfo} from 'node:net'
import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {API_VERSION} from '../../../src/lib/paths.js'
import {svcInProcess} from '../../helpers/run-command.js'
import {tempDir} from '../../helpers/temp-dirs.js'

const manifest = JSON.parse(readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, {flags: Record<string, unknown>; examples?: Array<string | {command: string}>}>
}
const withDryRun = Object.keys(manifest.commands)
  .filter((id) => 'dry-run' in manifest.commands[id].flags)
  .sort()
/** Credentials, and what a wallet stamp adds on a signed retry: not part of the described request. */
const AUTH = new Set(['authorization', 'service-wallet-signature', 'request-id'])
/** What the HTTP layer adds under the request (undici), not svc. */
const TRANSPORT = new Set(['host', 'connection', 'content-length', 'transfer-encoding'])

interface Received {
  method: string
  url: string
  headers: Record<string, string>
  body: string
}
const received: Received[] = []
let baseUrl = ''
const server = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) headers[k] = String(v)
    received.push({method: req.method!, url: req.url!, headers, body: Buffer.concat(chunks).toString('utf8')})
    res.writeHead(404, {'content-type': 'application/json'})
    res.end(JSON.stringify({code: 'NOT_FOUND', message: 'recorded by argv-request.test.ts'}))
  })
})
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${API_VERSION}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

/** An id the help elides (`Customer:0b6f...`, `Card:…`), made whole: one per type, the same in every example. */
function wholeIds(line: string): string {
  const types: string[] = []
  return line.replace(/\b([A-Z][A-Za-z]+):(?:…|[0-9a-f-]*\.\.\.)/g, (_, type: string) => {
    if (!types.includes(type)) types.push(type)
    return `${type}:019a1b2c-3d4e-7f00-8000-${String(types.indexOf(type) + 1).padStart(12, '0')}`
  })
}

/** The words of a printed example (`svc customers create --full-name "Ada Lovelace"`), or undefined when it needs a shell. */
function exampleArgv(example: string): string[] | undefined {
  const line = wholeIds(example.replace(/^<%= config\.bin %>\s+/, '').trim())
  if (/[|<>$`;&]|\\\n/.test(line)) return undefined
  const out: string[] = []
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1]?.replace(/\\(.)/g, '$1') ?? m[2] ?? m[3])
  return out
}

interface Shown {
  method: string
  url: string
  headers: Record<string, string>
  body?: unknown
}
type Printed = {dryRun: true} & ({request: Shown} | {requests: Shown[]})

function env(home: string, credentials: boolean): Record<string, string | undefined> {
  return {
    SVC_BASE_URL: baseUrl,
    SVC_ENVIRONMENT: 'sandbox',
    SVC_TOKEN_ID: credentials ? 'token-argv-request' : undefined,
    SVC_CLIENT_SECRET: credentials ? 'secret-argv-request-do-not-print' : undefined,
    // The team sandbox server's admin routes (sandbox create, reset --name ...).
    SVC_SANDBOX_ADMIN_SECRET: credentials ? 'admin-argv-request-do-not-print' : undefined,
    SVC_CONFIG_DIR: `${home}/config`,
    SVC_DATA_DIR: `${home}/data`,
    HOME: home,
    CI: '1',
    SVC_NO_INPUT: '1',
    NO_COLOR: '1',
  }
}

/** What one example asks for, in the table: `POST /customers`, or the refusal's code and the fields it names. */
const table: Record<string, string> = {}

describe('argv -> request, every command with --dry-run (no sandbox)', () => {
  it('finds the commands with --dry-run and their examples', () => {
    expect(withDryRun.length).toBeGreaterThanOrEqual(48)
  })

  it.each(withDryRun)(
    '%s: each example describes the request it then sends, or is refused naming the field',
    async (id) => {
      const examples = (manifest.commands[id].examples ?? []).map((e) => (typeof e === 'string' ? e : e.command))
      const words = id.split(':')
      const flags = manifest.commands[id].flags
      let n = 0
      for (const example of examples) {
        const argv = exampleArgv(example)
        const key = `${id} #${++n}`
        if (!argv) {
          table[key] = 'needs a shell'
          continue
        }
        if (argv.slice(0, words.length).join(':') !== id && !argv.includes('--help')) {
          table[key] = `runs ${argv.slice(0, words.length).join(' ')}`
          continue
        }
        if (argv.includes('--help') || argv.includes('--dry-run')) {
          table[key] = argv.includes('--help') ? 'help' : 'dry run as printed'
          if (!argv.includes('--dry-run')) continue
        }
        const home = tempDir('svc-argv-')
        const base = [
          ...argv.filter((a) => a !== '--dry-run' && a !== '--json'),
          ...('idempotency-key' in flags && !argv.includes('--idempotency-key')
            ? ['--idempotency-key', `argv-${id.replaceAll(':', '-')}`]
            : []),
        ]
        const before = received.length
        // A dry run needs no credentials, for every command: it sends nothing.
        const dry = await svcInProcess([...base, '--dry-run', '--json'], {env: env(home, false)})
        expect(received.length, `${key}: a dry run sends nothing`).toBe(before)
        if (dry.code !== 0) {
          const error = (dry.json() as {error: {code: string; reason: string; details?: Record<string, unknown>}}).error
          expect(dry.code, `${key}: ${dry.stdout}${dry.stderr}`).not.toBe(1) // never an internal error
          // Each field the refusal names (`details.errors[].field`), else what its details hold.
          const errors = error.details?.errors as Array<{field?: string}> | undefined
          const named = Array.isArray(errors) ? errors.map((e) => e.field ?? '?') : Object.keys(error.details ?? {})
          table[key] =
            `refused ${error.code} (exit ${dry.code}): ${named.length ? named.sort().join(', ') : error.reason}`
          continue
        }
        const doc = dry.json<Printed>()
        if (!('request' in doc) && !('requests' in doc)) {
          // A local answer (`webhooks trigger --list`): nothing to send, with or without --dry-run.
          table[key] = `answers locally: ${Object.keys(doc).sort().join(', ')}`
          continue
        }
        const shown = 'requests' in doc ? doc.requests : [doc.request]
        if (!shown.length) {
          // One request per item of local state (`wallet logout`: per stored session), and there is none.
          table[key] = 'describes no request (nothing stored locally to act on)'
          continue
        }
        expect(JSON.stringify(doc)).not.toMatch(/do-not-print/)
        table[key] = shown
          .map((s) => `${s.method} ${new URL(s.url).pathname.replace(`/${API_VERSION}`, '')}`)
          .join(', ')

        const real = await svcInProcess(
          [...base, ...('yes' in flags && !base.includes('--yes') ? ['--yes'] : []), '--json'],
          {env: env(home, true)},
        )
        expect(real.code, `${key}: ${real.stderr}`).not.toBe(1)
        const sent = received.slice(before)
        // A command that must look something up before it sends (a quote's state, a wallet's session key
        // in the local store) stops at the recorder's 404 or its own refusal: its real request is compared
        // against the sandbox in test/integration/dry-run-equivalence.test.ts.
        const described = (p: Shown) =>
          sent.some((r) => r.method === p.method && r.url.split('?')[0] === new URL(p.url).pathname)
        if (!shown.some(described) && !shown.some((p) => /%7B|%5B/.test(p.url))) {
          const why = real.json<{error?: {code: string}}>().error?.code ?? `exit ${real.code}`
          expect(real.code, `${key}: sent nothing it described, yet succeeded`).not.toBe(0)
          table[key] +=
            ` (sent after ${sent.length ? sent.map((r) => `${r.method} ${r.url.split('?')[0].replace(`/${API_VERSION}`, '')}`).join(', ') : 'nothing'}: ${why})`
          continue
        }
        for (const printed of shown) {
          // `{documentId}`: a value only a lookup at send time knows (the recorder answers 404): the sandbox test compares those.
          if (/%7B[a-zA-Z]+%7D/.test(printed.url)) continue
          const url = new URL(printed.url)
          // A secret in the path (a device code) is shown redacted: any one segment there.
          const path = new RegExp(
            `^${url.pathname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('%5BREDACTED%5D', '[^/]+')}$`,
          )
          const match = sent.filter((r) => r.method === printed.method && path.test(r.url.split('?')[0]))
          expect(
            match.length,
            `${key}: ${printed.method} ${url.pathname} was not sent: ${real.stdout}`,
          ).toBeGreaterThan(0)
          const req = match[0]
          expect(req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '', key).toBe(url.search)
          expect(headersOf(req), key).toEqual(expectedHeaders(printed.headers, req))
          expectBody(key, req, printed)
        }
      }
    },
  )

  it('what each example asks for is the reviewed table', async () => {
    const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)))
    expect(Object.keys(sorted).length).toBeGreaterThanOrEqual(withDryRun.length)
    await expect(JSON.stringify(sorted, null, 2) + '\n').toMatchFileSnapshot('./argv-request.snap.json')
  })
})

function headersOf(req: Received): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers)) if (!AUTH.has(k) && !TRANSPORT.has(k)) out[k] = v
  return out
}

/** The printed headers, credentials aside; a multipart boundary is drawn at send time, so it is taken from the request. */
function expectedHeaders(printed: Record<string, string>, req: Received): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(printed)) if (!AUTH.has(k)) out[k] = v
  if (
    out['content-type'] === 'multipart/form-data' &&
    req.headers['content-type']?.startsWith('multipart/form-data; boundary=')
  )
    out['content-type'] = req.headers['content-type']
  return out
}

/** Byte for byte; a value drawn at send time is shown as a `{placeholder}`; a secret field is shown redacted. */
function expectBody(key: string, req: Received, printed: Shown): void {
  if (printed.body === undefined) return void expect(req.body, key).toBe('')
  if (req.headers['content-type']?.startsWith('multipart/')) return
  const sent = JSON.parse(req.body) as unknown
  expect(sent, key).toEqual(shownOrSent(printed.body, sent))
  const drawn = JSON.stringify(printed.body).match(/"\{[a-zA-Z]+\}"|"\[REDACTED\]"/g)
  if (!drawn) expect(req.body, key).toBe(JSON.stringify(printed.body))
}

/** The printed body with each `{placeholder}` and `[REDACTED]` taken from what was sent (there must be something). */
function shownOrSent(shown: unknown, sent: unknown): unknown {
  if (typeof shown === 'string' && (/^\{[a-zA-Z]+\}$/.test(shown) || shown === '[REDACTED]'))
    return typeof sent === 'string' && sent.length > 0 ? sent : `a value for ${shown}`
  if (Array.isArray(shown)) return shown.map((v, i) => shownOrSent(v, (sent as unknown[] | undefined)?.[i]))
  if (shown && typeof shown === 'object')
    return Object.fromEntries(
      Object.entries(shown).map(([k, v]) => [k, shownOrSent(v, (sent as Record<string, unknown> | undefined)?.[k])]),
    )
  return shown
}
