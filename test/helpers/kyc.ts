import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {crc32} from 'node:zlib'
import type {CliResult} from './cli.js'
import {afterAll, beforeAll} from 'vitest'
import {listen} from '../../src/lib/webhook-listener.js'
import {api} from './money.js'
import {startSandbox, type RunOptions, type TestSandbox} from './sandbox.js'

/** Document fixtures built in code: just enough of a real header for the type and quality checks. */
export function png(width: number, height: number, colourType = 2): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, colourType, 0, 0, 0], 8)
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([len, body, crc])
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export function jpeg(width: number, height: number, components = 3): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ])
  const sof = Buffer.alloc(10 + components * 3)
  sof.set([0xff, 0xc0])
  sof.writeUInt16BE(8 + components * 3, 2)
  sof[4] = 8
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  sof[9] = components
  for (let i = 0; i < components; i++) sof.set([i + 1, 0x11, 0], 10 + i * 3)
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])])
}

export function pdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1')
}

export function fixture(dir: string, name: string, bytes: Buffer): string {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

export interface Journey {
  run(args: string[], opts?: RunOptions): Promise<CliResult>
  json<T = any>(args: string[]): Promise<T>
  /** `kyc submit --json`: the verification, insisting on exit 6 for RESOLVE_ERRORS and 0 otherwise. */
  submit<T = any>(customerId: string): Promise<T>
}

/** Runs `svc` against the sandbox; `json` adds --json and insists on exit 0. */
export function journey(sbx: TestSandbox): Journey {
  const run = (args: string[], opts: RunOptions = {}) => sbx.run(args, opts)
  return {
    run,
    json: (args) => sbx.json(args),
    async submit(customerId) {
      const r = await run(['kyc', 'submit', customerId, '--json'])
      const v = r.json()
      const expected = v.verificationStatus === 'RESOLVE_ERRORS' ? 6 : 0
      if (r.code !== expected)
        throw new Error(
          `svc kyc submit ${customerId} (${v.verificationStatus}) exited ${r.code}, expected ${expected}\n${r.stderr}`,
        )
      return v
    },
  }
}

/**
 * What `svc webhooks listen --register --json --max-events N` prints, received in this process: the
 * command's own verifying receiver (src/lib/webhook-listener.ts: signature checked, duplicates
 * refused) registered the way --register does it (POST /sandbox/webhooks/listener, the endpoint put
 * back afterwards). Resolves with the verified events' types and data (after the TEST event the
 * registration sends) once N events arrived. The command itself, as a process, is tested by the
 * webhooks-listen tests; here it was only the ears of the KYC tests.
 */
export async function listenForWebhooks(
  sbx: TestSandbox,
  maxEvents: number,
): Promise<() => Promise<Array<{type: string; data?: any}>>> {
  const events: Array<{type: string; data?: any}> = []
  const rejected: string[] = []
  let arrived: () => void = () => {}
  const all = new Promise<void>((resolve) => (arrived = resolve))
  const publicKeyPem = await (await fetch(`${sbx.url}/sandbox/webhook-public-key`)).text()
  const {server, url} = await listen({
    port: 0,
    publicKeyPem,
    onEvent: ({event}) => {
      events.push(event)
      if (events.length === maxEvents + 1) arrived()
    },
    onRejected: (reason) => rejected.push(reason),
  })
  const registered = await api(sbx, 'POST', '/sandbox/webhooks/listener', {url, pid: process.pid})
  if (registered.status !== 200 && registered.status !== 201) {
    server.close()
    throw new Error(`the listener was not registered: ${registered.status} ${JSON.stringify(registered.body)}`)
  }
  const previous: string = registered.body?.previous ?? ''
  return async () => {
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        all,
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${events.length - 1} of ${maxEvents} webhook events arrived in 25 s`)),
            25_000,
          )
        }),
      ])
    } finally {
      clearTimeout(timer)
      if ((await api(sbx, 'GET', '/config')).body?.webhookEndpoint === url)
        await api(sbx, 'PATCH', '/config', {webhookEndpoint: previous})
      server.close()
    }
    if (rejected.length) throw new Error(`the listener refused deliveries: ${rejected.join('; ')}`)
    if (events[0]?.type !== 'TEST') throw new Error(`expected the TEST event first, got ${events[0]?.type}`)
    return events.slice(1)
  }
}

export const ADDRESS = [
  '--address-line1',
  '1 Main St',
  '--address-city',
  'Springfield',
  '--address-postal-code',
  '94105',
  '--address-country',
  'US',
]
export const OWNER_ADDRESS = ADDRESS

/** A US person's nationality and SSN as flags (`svc kyc owners add`, `svc customers create`). */
export const US_SSN_FLAGS = ['--nationality', 'US', '--id-type', 'SSN', '--identifier', '123-45-6789']

/** The details of the tests' national ID card as `svc kyc documents upload` flags (its --type and --side left out). */
export const NATIONAL_ID_FLAGS = ['--number', 'N1', '--issuing-authority', 'Gov', '--country', 'US']

/** A US business's registration as `svc customers create --type business` flags (its name left out). */
export const US_BUSINESS_FLAGS = ['--country', 'US', '--tax-id', '12-3456789', '--incorporated-on', '2020-01-15']

/** `svc customers create --type individual --full-name <fullName> …flags`. */
export const individualArgs = (fullName: string, ...flags: string[]) => [
  'customers',
  'create',
  '--type',
  'individual',
  '--full-name',
  fullName,
  ...flags,
]

/** Flags for a complete individual (everything the rules ask for except documents and consent). */
export function individualFlags(fullName: string): string[] {
  return individualArgs(
    fullName,
    '--birth-date',
    '1990-01-15',
    '--nationality',
    'US',
    ...ADDRESS,
    '--data',
    JSON.stringify({idType: 'SSN', identifier: '123-45-6789'}),
  )
}

/** A beneficial owner's personalInfo (Ruiz, Austin TX, SSN): the body of POST /beneficial-owners. */
export const ownerPerson = (firstName: string) => ({
  firstName,
  lastName: 'Ruiz',
  birthDate: '1985-04-02',
  nationality: 'US',
  address: {line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US'},
  idType: 'SSN',
  identifier: '123-45-6789',
})

/** `svc kyc documents upload --holder <holder> …flags`. */
export const documentUploadArgs = (holder: string, ...flags: string[]) => [
  'kyc',
  'documents',
  'upload',
  '--holder',
  holder,
  ...flags,
]

/** A US passport upload for `holder` (every field a PASSPORT needs). */
export const passportArgs = (holder: string, file: string): string[] =>
  documentUploadArgs(
    holder,
    '--type',
    'PASSPORT',
    '--file',
    file,
    '--number',
    'X1234567',
    '--issuing-authority',
    'US Department of State',
    '--country',
    'US',
  )

/**
 * The KYC journeys' sandbox, started before the file's tests and stopped after them. A decision takes 500 ms: long
 * enough that PENDING can be read right after a CLI call on a busy machine, short enough to keep journeys quick.
 */
export function kycSandbox(): {readonly sbx: TestSandbox; readonly svc: Journey} {
  let sbx: TestSandbox | undefined
  let svc: Journey | undefined
  beforeAll(async () => {
    sbx = await startSandbox({decisionDelayMs: 500})
    svc = journey(sbx)
  })
  afterAll(async () => sbx?.stop())
  return {
    get sbx() {
      if (!sbx) throw new Error('the KYC sandbox starts in beforeAll')
      return sbx
    },
    get svc() {
      if (!svc) throw new Error('the KYC sandbox starts in beforeAll')
      return svc
    },
  }
}
