// `svc webhooks certify` against test receivers: it passes the reference receiver and fails each
// buggy one on the case that names its bug, and only there.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {signingKeyPair, startCertifyReceiver, type ReceiverBug} from '../helpers/certify-receivers.js'
import {fakeTime} from '../helpers/fake-time.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {api} from '../helpers/money.js'
import {startSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'
import type {TestReceiver} from '../helpers/webhook-receiver.js'

const keys = signingKeyPair()
const env = {SVC_CONFIG_DIR: tempDir('svc-certify-cfg-'), SVC_DATA_DIR: tempDir('svc-certify-data-')}
const receivers: TestReceiver[] = []
afterAll(() => Promise.all(receivers.map((r) => r.close())))

type Report = {
  passed: boolean
  seed: number
  cases: Array<{name: string; passed: boolean; expected: string; observed: string}>
}

async function certify(bug?: ReceiverBug, ...flags: string[]) {
  // The receiver that times out answers after 5.5 s of a fake clock the run shares: certify times each
  // answer on the command's clock, so it sees 5.5 s pass without the test waiting for them.
  const clock = bug === 'times out' ? fakeTime() : undefined
  const receiver = await startCertifyReceiver(keys.publicKeyPem, bug, undefined, clock)
  receivers.push(receiver)
  const r = await svc(['webhooks', 'certify', '--url', receiver.url, '--key', keys.privateKeyFile, ...flags], {
    env,
    ...clock,
  })
  return {r, receiver}
}
const failedOf = (report: Report) => report.cases.filter((c) => !c.passed).map((c) => c.name)

describe('svc webhooks certify', () => {
  let reference: {r: Awaited<ReturnType<typeof svc>>; receiver: TestReceiver}
  const junit = join(tempDir('svc-certify-junit-'), 'certify.xml')
  beforeAll(async () => {
    reference = await certify(undefined, '--json', '--seed', '7', '--junit', junit)
  })

  it('passes the reference receiver: exit 0, every case passed, signature cases named so, JUnit written', () => {
    expect(reference.r.stderr).toBe('')
    expect(reference.r.code).toBe(0)
    const report = JSON.parse(reference.r.stdout) as Report
    expect(report.passed).toBe(true)
    expect(failedOf(report)).toEqual([])
    expect(report.cases.filter((c) => c.name.includes('signature')).map((c) => c.name)).toEqual([
      'signature: a valid signature is accepted',
      'signature: signed with the wrong key is refused',
      'signature: a tampered body is refused',
      'signature: a missing header is refused',
      'signature: a malformed header is refused',
    ])
    expect(report.cases).toHaveLength(17)
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toContain('tests="17" failures="0"')
    expect(xml.match(/<testcase /g)).toHaveLength(17)
  })

  it('delivers every webhook type of the contract, and an unknown one, signed', () => {
    const types = new Set(reference.receiver.got.map((g) => g.type))
    for (const t of ['TEST', 'INCOMING_PAYMENT.PENDING', 'CARD_TRANSACTION.EXCEPTION', 'AGENT_ACTION.PENDING_APPROVAL'])
      expect(types.has(t)).toBe(true)
    expect(types.has('SVC_CERTIFY.UNKNOWN_TYPE')).toBe(true)
    // The 26 types with an example in the contract, the order case's CUSTOMER.KYC_PENDING, and the unknown one.
    expect(types.size).toBe(28)
    for (const g of reference.receiver.got.filter((x) => x.type === 'TEST'))
      expect(g.headers['x-service-signature']).toMatch(/^[A-Za-z0-9+/]+=*$/)
  })

  it('the same seed gives the same events; another seed other ids', async () => {
    const again = await certify(undefined, '--seed', '7')
    expect(again.r.code).toBe(0)
    expect(again.receiver.got.map((g) => g.id)).toEqual(reference.receiver.got.map((g) => g.id))
    const other = await certify(undefined, '--seed', '8')
    expect(other.receiver.got.map((g) => g.id)).not.toEqual(reference.receiver.got.map((g) => g.id))
  })

  const bugs: Array<[ReceiverBug, string[]]> = [
    [
      'accepts bad signatures',
      [
        'signature: signed with the wrong key is refused',
        'signature: a tampered body is refused',
        'signature: a missing header is refused',
        'signature: a malformed header is refused',
      ],
    ],
    [
      'refuses a legitimate redelivery',
      [
        'idempotency: the same event 2x in a row (a legitimate redelivery)',
        'idempotency: the same event 5x in a row (a legitimate redelivery)',
        'idempotency: the same event 5x concurrently (a legitimate redelivery)',
        'retries: a redelivery after an abandoned attempt is accepted',
      ],
    ],
    ['answers 403 without an Error body', ['approval: a large pending payment gets a decision by the contract']],
    ['500s on unknown types', ['coverage: an unknown event type is tolerated']],
    ['times out', ["retries: every answer within the Service's 5 s timeout"]],
    [
      'regresses on out-of-order events',
      [
        'order: a payment COMPLETED before its PENDING stays COMPLETED',
        'order: KYC APPROVED before its PENDING stays APPROVED',
      ],
    ],
  ]
  it.each(bugs)(
    'fails the receiver that %s on that case only (exit 1)',
    async (bug, expected) => {
      const {r} = await certify(bug, '--json')
      expect(r.code).toBe(1)
      const report = JSON.parse(r.stdout) as Report
      expect(report.passed).toBe(false)
      expect(failedOf(report)).toEqual(expected)
    },
    30_000,
  )

  it('prints a scorecard on the terminal with what was expected and observed', async () => {
    const {r} = await certify('500s on unknown types')
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('✓ signature: a valid signature is accepted')
    expect(r.stdout).toContain('✗ coverage: an unknown event type is tolerated')
    expect(r.stdout).toContain('expected 2xx; observed HTTP 500')
    expect(r.stdout).toContain('16/17 cases passed')
  })

  it('refuses a bad --url or an unreadable --key before sending anything', async () => {
    const receiver = await startCertifyReceiver(keys.publicKeyPem)
    receivers.push(receiver)
    const badUrl = await svc(['webhooks', 'certify', '--url', 'ftp://x', '--key', keys.privateKeyFile], {env})
    expect(badUrl.code).toBe(2)
    expect(badUrl.stderr).toContain('--url ftp://x must be an http(s) URL')
    const noKey = await svc(['webhooks', 'certify', '--url', receiver.url, '--key', '/nonexistent/key.pem'], {env})
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toContain('Cannot read the webhook signing key /nonexistent/key.pem: ENOENT')
    expect(receiver.got).toEqual([])
  })

  it("signs with the local sandbox's key by default: a receiver trusting GET /sandbox/webhook-public-key passes, no request goes to the sandbox", async () => {
    const sbx = await startSandbox()
    try {
      const pem = await (await fetch(`${sbx.url}/sandbox/webhook-public-key`)).text()
      const receiver = await startCertifyReceiver(pem)
      receivers.push(receiver)
      const before = sbx.requestCount()
      const r = await sbx.run(['webhooks', 'certify', '--url', receiver.url, '--json'], {
        env: {SVC_SANDBOX_DIR: sbx.dir},
      })
      expect(r.code).toBe(0)
      expect((JSON.parse(r.stdout) as Report).passed).toBe(true)
      expect(sbx.requestCount()).toBe(before)
    } finally {
      await sbx.stop()
    }
  })

  describe('--sandbox: the asynchronous approval, watched by the sandbox', () => {
    let sbx: Awaited<ReturnType<typeof startSandbox>>
    beforeAll(async () => {
      // KYC decided at once: the customers each pending payment needs are approved by the next poll, so a
      // run on a fake clock spends its --timeout on the receiver, not racing a decision in real time.
      sbx = await startSandbox({decisionDelayMs: 0})
    })
    afterAll(() => sbx.stop())

    /** `clock`: the run's (a fake one lets certify wait out its 5 s for a call back that never comes at once). */
    async function certifyAsync(bug?: ReceiverBug, clock?: ReturnType<typeof fakeTime>) {
      const {tokenId, clientSecret} = sbx.emu.credentials
      const receiver = await startCertifyReceiver(keys.publicKeyPem, bug, {baseUrl: sbx.url, tokenId, clientSecret})
      receivers.push(receiver)
      const r = await sbx.run(
        ['webhooks', 'certify', '--url', receiver.url, '--key', keys.privateKeyFile, '--sandbox', '--json'],
        clock,
      )
      return {r, report: JSON.parse(r.stdout) as Report}
    }
    const ASYNC = 'approval: a 202 is followed by approve or reject within 5 s (seen by the sandbox)'
    const ONCE = 'idempotency: one pending payment delivered 3x concurrently is decided once (seen by the sandbox)'

    it('passes a receiver that answers 202 and approves through the API: the sandbox holds the payment COMPLETED or approved', async () => {
      const {r, report} = await certifyAsync()
      expect(r.code).toBe(0)
      const c = report.cases.find((x) => x.name === ASYNC)!
      expect(c.passed).toBe(true)
      const id = /(Transaction:[0-9a-f-]+)/.exec(c.observed)![1]!
      expect(c.observed).toMatch(/^HTTP 202, then Transaction:\S+ (?!PENDING)\w+ within \d+ ms$/)
      const t = (await api(sbx, 'GET', `/transactions/${id}`)).body as {status: string}
      expect(t.status).not.toBe('PENDING')
    })

    it('fails the receiver that processes duplicates twice on that case only: three decisions of one payment', async () => {
      const {r, report} = await certifyAsync('processes duplicates twice')
      expect(r.code).toBe(1)
      expect(failedOf(report)).toEqual([ONCE])
      const c = report.cases.find((x) => x.name === ONCE)!
      expect(c.observed).toMatch(
        /^HTTP 202, HTTP 202, HTTP 202: 3 decisions; the sandbox holds Transaction:\S+ COMPLETED$/,
      )
      // Without --sandbox its second processing cannot be seen: every answer is one the contract allows.
      expect((await certify('processes duplicates twice')).r.code).toBe(0)
      const ok = (await certifyAsync()).report.cases.find((x) => x.name === ONCE)!
      expect(ok.passed).toBe(true)
      expect(ok.observed).toMatch(/: 1 decision; the sandbox holds Transaction:\S+ COMPLETED$/)
    }, 60_000)

    it('fails the receiver that answers 202 and never calls back on that case only; the payment stays PENDING', async () => {
      const clock = fakeTime()
      const {r, report} = await certifyAsync('answers 202 and never calls back', clock)
      expect(r.code).toBe(1)
      expect(failedOf(report)).toEqual([ASYNC])
      const c = report.cases.find((x) => x.name === ASYNC)!
      expect(c.observed).toMatch(/^HTTP 202, then no approve or reject: Transaction:\S+ still PENDING after \d+ ms$/)
      // It waited the 5 s out (on the fake clock), for this case and for the copies' case.
      expect(Number(/after (\d+) ms$/.exec(c.observed)![1])).toBeGreaterThanOrEqual(5_000)
      expect(clock.slept()).toBeGreaterThanOrEqual(10_000)
      const id = /(Transaction:[0-9a-f-]+)/.exec(c.observed)![1]!
      expect(((await api(sbx, 'GET', `/transactions/${id}`)).body as {status: string}).status).toBe('PENDING')
    }, 30_000)
  })
})
