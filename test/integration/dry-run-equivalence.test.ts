import {createHash} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ObservedRequest} from '../../src/emulator/emulator.js'
import {API_VERSION} from '../../src/lib/paths.js'
import {redact} from '../../src/lib/secret.js'
import {svc} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'
import {dryRunFixtures, type Fixture, type Fixtures} from '../helpers/dry-run-fixtures.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Every command with --dry-run prints the request it then sends: method, path, query, body and the
 * headers svc sets (authorization aside) are compared byte for byte with what the sandbox received.
 * The same equivalence without a sandbox (issue 35): test/unit/client/describe-equals-send.test.ts for
 * the one transport, test/unit/docs/argv-request.test.ts for each command's --help examples. This file
 * keeps what only the sandbox shows: the real run succeeds on real state, ids a lookup resolves at send
 * time, signed retries, scoped keys, and three runs of the built binary.
 */
const manifest = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../oclif.manifest.json', import.meta.url)), 'utf8'),
) as {commands: Record<string, {flags: Record<string, unknown>}>}
const withDryRun = Object.keys(manifest.commands)
  .filter((id) => 'dry-run' in manifest.commands[id].flags)
  .sort()
/** Compared against another server than this test's one sandbox, in the test file named. */
const ELSEWHERE: Record<string, string> = {
  'sandbox:create': 'team-sandboxes-dry-run.test.ts (the admin routes of a `serve --multi` server)',
  'sandbox:delete': 'team-sandboxes-dry-run.test.ts (the admin routes of a `serve --multi` server)',
  'sandbox:reset': 'team-sandboxes-dry-run.test.ts (the admin routes of a `serve --multi` server)',
}
const compared = withDryRun.filter((id) => !(id in ELSEWHERE))
/**
 * Run through the built binary as well as in-process: the one transport describes and sends the same
 * ApiRequest, so in-process runs prove every command; these samples prove the bundles do the same.
 */
const BINARY_SAMPLES = new Set(['customers:create', 'quote:execute', 'wallet:sessions:revoke'])
/** Credentials, and what a wallet stamp adds on a signed retry: not part of the described request. */
const AUTH = new Set(['authorization', 'service-wallet-signature', 'request-id'])
/** What the HTTP layer adds under the request (undici), not svc. */
const TRANSPORT = new Set(['host', 'connection', 'content-length', 'transfer-encoding'])

let sbx: TestSandbox
let fixtures: Fixtures
const seen: ObservedRequest[] = []
/** Commands whose dry run showed an Idempotency-Key. */
const keyed: string[] = []
beforeAll(async () => {
  sbx = await startSandbox({challengeMinIntervalMs: 0})
  const contract = sbx.emu.onResponse
  sbx.emu.onResponse = (req, res) => {
    contract?.(req, res)
    seen.push(req)
  }
  fixtures = dryRunFixtures(sbx)
})
afterAll(async () => sbx.stop())

interface Shown {
  method: string
  url: string
  headers: Record<string, string>
  body?: unknown
}
/** One request, or (a command that sends one per item, like `wallet logout`) the list of them. */
type Printed = {dryRun: true} & ({request: Shown} | {requests: Shown[]})

describe('--dry-run prints the request the command sends', () => {
  it('every command with --dry-run has an argument fixture', () => {
    expect(withDryRun.length).toBeGreaterThanOrEqual(48)
    expect(compared.filter((id) => !fixtures[id])).toEqual([])
    expect(Object.keys(fixtures).filter((id) => !compared.includes(id))).toEqual([])
    expect(Object.keys(ELSEWHERE).filter((id) => !withDryRun.includes(id))).toEqual([])
    expect([...BINARY_SAMPLES].filter((id) => !compared.includes(id))).toEqual([])
  })

  it.each(compared)('%s', async (id) => {
    const make = fixtures[id]
    expect(make, `no dry-run fixture for ${id}: add one to test/helpers/dry-run-fixtures.ts`).toBeDefined()
    const fx = await make()
    try {
      await compare(id, fx)
    } finally {
      await fx.cleanup?.()
    }
  })

  it('the commands that send a key show it in their dry run', () => {
    expect(keyed).toEqual([
      'agents:me:execute',
      'agents:me:quote',
      'agents:me:transfer',
      'api',
      'cards:issue',
      'history:finish',
      'kyc:link',
      'quote:create',
      'quote:execute',
      'quote:send',
      'stablecoins:burn',
      'stablecoins:create',
      'stablecoins:mint',
      'stablecoins:provider-accounts:link',
    ])
  })
})

/** Runs one command dry, then for real, and compares the printed request with what the sandbox received. */
async function compare(id: string, fx: Fixture): Promise<void> {
  const flags = manifest.commands[id].flags
  // Pinned per command: one endpoint refuses a key reused with another body.
  const key = `eq-${id.replaceAll(':', '-')}`
  const extra = [
    ...('idempotency-key' in flags ? ['--idempotency-key', key] : []),
    ...('yes' in flags ? ['--yes'] : []),
  ]
  const argv = [...id.split(':'), ...fx.args, ...extra, '--json']

  const run = BINARY_SAMPLES.has(id) ? svc : svcInProcess
  const before = seen.length
  // A dry run needs no credentials, for every command: it sends nothing and shows no authorization.
  const dry = await run([...argv, '--dry-run'], {
    env: {...sbx.env, SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined},
    input: fx.input,
  })
  expect(dry.code, dry.stdout + dry.stderr).toBe(0)
  expect(seen.length, 'a dry run sends nothing').toBe(before)
  const doc = dry.json<Printed>()
  const shown = 'requests' in doc ? doc.requests : [doc.request]
  expect(shown.length, 'the dry run shows a request').toBeGreaterThan(0)
  // The platform's credentials are taken away above; an agent profile's token stays in its file, shown redacted.
  for (const printed of shown) expect(printed.headers.authorization ?? 'Bearer [REDACTED]').toBe('Bearer [REDACTED]')

  const real = await run(argv, {env: sbx.env, input: fx.input})
  expect(real.code, real.stdout + real.stderr).toBe(fx.code ?? 0)
  // A key is sent only by a command that declares --idempotency-key, and it is the pinned one (with its scope).
  for (const r of seen.slice(before))
    if (r.headers['idempotency-key'] !== undefined)
      expect(String(r.headers['idempotency-key'])).toMatch(new RegExp(`^${key}(:[a-z]+)?$`))
  for (const printed of shown) {
    let url = new URL(printed.url)
    for (const [placeholder, value] of Object.entries(fx.resolve ?? {}))
      url = new URL(printed.url.replace(encodeURIComponent(placeholder), encodeURIComponent(value)))
    const sent = seen
      .slice(before)
      .filter((r) => r.method === printed.method && `/${API_VERSION}${r.path}` === url.pathname)
    expect(sent.length, `${printed.method} ${url.pathname} was not sent`).toBeGreaterThan(0)
    // A signed retry sends the same request again with a stamp: every leg is the described request.
    for (const req of sent) {
      expect(query(req)).toBe(url.search)
      expect(headersOf(req)).toEqual(expectedHeaders(printed.headers, req))
      expectBody(req, printed, fx.generated)
    }
  }
  if (shown.some((printed) => printed.headers['idempotency-key'] !== undefined)) keyed.push(id)
}

function query(req: ObservedRequest): string {
  const q = req.query.toString()
  return q ? `?${q}` : ''
}

/** The headers svc set, as received: credentials and the HTTP layer's own left out. */
function headersOf(req: ObservedRequest): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers)) if (!AUTH.has(k) && !TRANSPORT.has(k)) out[k] = String(v)
  return out
}

/** The printed headers, authorization aside; a multipart boundary is drawn at send time, so it is taken from the request. */
function expectedHeaders(printed: Record<string, string>, req: ObservedRequest): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(printed)) if (!AUTH.has(k)) out[k] = v
  if (out['content-type'] === 'multipart/form-data')
    out['content-type'] = String(req.headers['content-type']).startsWith('multipart/form-data; boundary=')
      ? String(req.headers['content-type'])
      : 'no boundary'
  return out
}

function expectBody(req: ObservedRequest, printed: Shown, generated: string[] = []): void {
  let raw = req.rawBody?.toString('utf8') ?? ''
  if (printed.body === undefined) return void expect(raw).toBe('')
  if (String(req.headers['content-type']).startsWith('multipart/'))
    return expectMultipart(req, printed.body as Record<string, string>)
  const shown = JSON.stringify(printed.body)
  if (generated.length) {
    // A value drawn when the request is sent (a fresh key): the dry run shows a {placeholder}, the request a value.
    const parsed = JSON.parse(raw) as Record<string, unknown>
    const body = printed.body as Record<string, unknown>
    for (const field of generated) {
      expect(body[field], `${field} is shown as a placeholder`).toMatch(/^\{.+\}$/)
      expect(parsed[field], `${field} is sent`).toMatch(/^[0-9a-f]{20,}$/)
      parsed[field] = body[field]
    }
    raw = JSON.stringify(parsed)
  }
  // Byte for byte; a secret field is compared redacted (the dry run never shows it).
  if (JSON.stringify(redact(JSON.parse(raw))) === raw) expect(raw).toBe(shown)
  else expect(JSON.stringify(redact(JSON.parse(raw)))).toBe(shown)
}

/** A multipart body: the text fields byte for byte, the file by name, type and size. */
function expectMultipart(req: ObservedRequest, shown: Record<string, string>): void {
  const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))![1]
  const parts = req.rawBody!.toString('latin1').split(`--${boundary}`).slice(1, -1)
  const fields: Record<string, string> = {}
  for (const part of parts) {
    const [head, ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n')
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '')
    const name = /name="([^"]+)"/.exec(head)![1]
    const filename = /filename="([^"]+)"/.exec(head)?.[1]
    const type = /content-type: (.+)/i.exec(head)?.[1]
    fields[name] = filename
      ? `${filename} (${type}, ${Buffer.byteLength(value, 'latin1')} bytes, sha256 ${createHash('sha256').update(Buffer.from(value, 'latin1')).digest('hex')})`
      : Buffer.from(value, 'latin1').toString('utf8')
  }
  expect(fields).toEqual(shown)
}
