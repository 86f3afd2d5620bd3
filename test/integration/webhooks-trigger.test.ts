import {createPublicKey, verify} from 'node:crypto'
import {createServer, request, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, inject, it} from 'vitest'
import {TRIGGERABLE, TRIGGERABLE_TYPES} from '../../src/lib/webhook-trigger/catalogue.js'
import {fakeTime, sandboxTime} from '../helpers/fake-time.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {Contract} from '../helpers/contract.js'
import {checkWebhookBody} from '../helpers/contract-webhooks.js'
import {imbalance} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {eventually} from '../helpers/wait.js'

/**
 * `svc webhooks trigger <TYPE>` for every type it offers: the built CLI makes the local sandbox do
 * the thing; a receiver app (the configured endpoint) gets the event, verifies its signature with the
 * sandbox's public key, and its body is checked against the contract's webhook schema; the sandbox's
 * state shows the thing happened. Delays are shortened through the sandbox's settings.
 */
let sbx: TestSandbox
let contract: Contract
let app: {server: Server; url: string; got: Array<{body: string; signature: string}>}
beforeAll(async () => {
  sbx = await startSandbox({
    decisionDelayMs: 50,
    incomingApprovalDelayMs: 50,
    paymentCompletionDelayMs: 50,
    cardProcessingDelayMs: 30,
    walletProcessingDelayMs: 50,
    bulkImportChunkDelayMs: 0,
  })
  contract = await Contract.load(undefined, inject('contractJson') || undefined)
  const got: Array<{body: string; signature: string}> = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      got.push({body, signature: String(req.headers['x-service-signature'])})
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  app = {server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got}
  sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: app.url})
})
afterAll(async () => {
  app?.server.close()
  await sbx?.stop()
})

const get = <T = any>(table: string, id: string) => sbx.emu.db.get<T>(table, id) as any

/** What the sandbox's state must show after each type's recipe (objectId: the event's object). */
const STATE: Record<string, (id: string, data: any) => void> = {
  'INCOMING_PAYMENT.COMPLETED': (id) =>
    expect(get('transactions', id)).toMatchObject({type: 'INCOMING', status: 'COMPLETED'}),
  'OUTGOING_PAYMENT.COMPLETED': (id) =>
    expect(get('transactions', id)).toMatchObject({type: 'OUTGOING', status: 'COMPLETED'}),
  'INCOMING_PAYMENT.REFUND_PENDING': (id, data) => (
    expect(data.refund.status).toBe('PENDING'),
    expect(get('transactions', id)).toMatchObject({status: 'FAILED', failureReason: 'OFFRAMP_FAILED'})
  ),
  'INCOMING_PAYMENT.REFUND_COMPLETED': (id) =>
    expect(get('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'COMPLETED'}}),
  'INCOMING_PAYMENT.REFUND_FAILED': (id) =>
    expect(get('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'FAILED'}}),
  'CUSTOMER.KYC_PENDING': (id, data) => (
    expect(data.kycStatus).toBe('PENDING'),
    expect(['PENDING', 'APPROVED']).toContain(get('customers', id).kycStatus)
  ),
  'CUSTOMER.KYC_APPROVED': (id) => expect(get('customers', id).kycStatus).toBe('APPROVED'),
  'CUSTOMER.KYC_REJECTED': (id) => expect(get('customers', id).kycStatus).toBe('REJECTED'),
  'CUSTOMER.KYB_PENDING': (id, data) => (
    expect(data.kybStatus).toBe('PENDING'),
    expect(['PENDING', 'APPROVED']).toContain(get('customers', id).kybStatus)
  ),
  'CUSTOMER.KYB_APPROVED': (id) => expect(get('customers', id).kybStatus).toBe('APPROVED'),
  'CUSTOMER.KYB_REJECTED': (id) => expect(get('customers', id).kybStatus).toBe('REJECTED'),
  'EXTERNAL_ACCOUNT.STATUS_UPDATED': (id) =>
    expect(get('externalAccounts', id)).toMatchObject({status: 'ACTIVE', ownershipType: 'FIRST_PARTY'}),
  'CARD_TRANSACTION.AUTHORIZED': (id) =>
    expect(get('cardTransactions', id)).toMatchObject({status: 'AUTHORIZED', authorizedAmount: {amount: 1250}}),
  'CARD_TRANSACTION.PARTIALLY_SETTLED': (id) =>
    expect(get('cardTransactions', id)).toMatchObject({status: 'PARTIALLY_SETTLED', settledAmount: {amount: 500}}),
  'CARD_TRANSACTION.SETTLED': (id) =>
    expect(get('cardTransactions', id)).toMatchObject({status: 'SETTLED', settledAmount: {amount: 1250}}),
  'CARD_TRANSACTION.EXCEPTION': (id) => expect(get('cardTransactions', id).status).toBe('EXCEPTION'),
  'CARD_TRANSACTION.VOIDED': (id) =>
    expect(get('cardTransactions', id)).toMatchObject({status: 'VOIDED', settledAmount: {amount: 0}}),
  'wallet_operation.completed': (_id, data) =>
    expect(data).toMatchObject({operationType: 'session.create', status: 'completed'}),
  'INCOMING_PAYMENT.PENDING': (id) => expect(get('transactions', id).status).toBe('PENDING'),
  'INCOMING_PAYMENT.FAILED': (id) =>
    expect(get('transactions', id)).toMatchObject({status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED'}),
  'OUTGOING_PAYMENT.PROCESSING': (id) => expect(['PROCESSING', 'COMPLETED']).toContain(get('transactions', id).status),
  'OUTGOING_PAYMENT.FAILED': (id) =>
    expect(get('transactions', id)).toMatchObject({status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED'}),
  'OUTGOING_PAYMENT.REFUND_COMPLETED': (id) =>
    expect(get('transactions', id)).toMatchObject({
      status: 'FAILED',
      refund: {status: 'COMPLETED', reason: 'USER_CANCELLATION'},
    }),
  'OUTGOING_PAYMENT.REFUND_FAILED': (id) =>
    expect(get('transactions', id)).toMatchObject({status: 'FAILED', refund: {status: 'FAILED'}}),
  'CARD_TRANSACTION.DECLINED': (_id, data) =>
    expect(data).toMatchObject({declineReason: 'INSUFFICIENT_FUNDS', direction: 'DEBIT'}),
  'CARD.STATE_CHANGE': (id) => expect(get('cards', id).state).toBe('ACTIVE'),
  'CARD.FUNDING_SOURCE_CHANGE': (id, data) => expect(get('cards', id).fundingSources).toEqual(data.fundingSources),
  'AGENT_ACTION.PENDING_APPROVAL': (id, data) => (
    expect(data.status).toBe('PENDING_APPROVAL'),
    expect(get('agentActions', id).status).toBe('PENDING_APPROVAL'),
    expect(get('transactions', get('agentActions', id)._.transactionId).status).toBe('PENDING')
  ),
  'INVITATION.CLAIMED': (_id, data) =>
    expect(get('invitations', data.code)).toMatchObject({status: 'CLAIMED', inviteeUma: data.inviteeUma}),
  'BULK_UPLOAD.COMPLETED': (id) => expect(get('bulkImportJobs', id)).toMatchObject({status: 'COMPLETED'}),
  'BULK_UPLOAD.FAILED': (id) => expect(get('bulkImportJobs', id)).toMatchObject({status: 'FAILED'}),
}

describe('svc webhooks trigger <TYPE>', () => {
  it('offers every event type of spec §6, each with a state check here', async () => {
    const spec = [
      'INCOMING_PAYMENT.COMPLETED',
      'OUTGOING_PAYMENT.COMPLETED',
      'INCOMING_PAYMENT.REFUND_PENDING',
      'INCOMING_PAYMENT.REFUND_COMPLETED',
      'INCOMING_PAYMENT.REFUND_FAILED',
      'CUSTOMER.KYC_PENDING',
      'CUSTOMER.KYC_APPROVED',
      'CUSTOMER.KYC_REJECTED',
      'CUSTOMER.KYB_PENDING',
      'CUSTOMER.KYB_APPROVED',
      'CUSTOMER.KYB_REJECTED',
      'EXTERNAL_ACCOUNT.STATUS_UPDATED',
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      'CARD_TRANSACTION.SETTLED',
      'CARD_TRANSACTION.EXCEPTION',
      'CARD_TRANSACTION.VOIDED',
      'wallet_operation.completed',
      'TEST',
    ]
    expect(
      TRIGGERABLE.filter((t) => t.spec)
        .map((t) => t.type)
        .sort(),
    ).toEqual([...spec].sort())
    expect(Object.keys(STATE).sort()).toEqual(TRIGGERABLE_TYPES.filter((t) => t !== 'TEST').sort())
    const listed = await sbx.run(['webhooks', 'trigger', '--list', '--json'], {timeoutMs: 90_000})
    expect(listed.code).toBe(0)
    expect(listed.json().data.map((t: {type: string}) => t.type)).toEqual(TRIGGERABLE_TYPES)
  })

  it.each(TRIGGERABLE_TYPES.filter((t) => t !== 'TEST'))(
    '%s: made for real, delivered signed, contract-valid, and visible in the sandbox',
    async (type) => {
      // On the sandbox clock: each poll's sleep moves it on, so the job the recipe waits for (a decision, a
      // payment, a card) runs then and its webhook is delivered, with no real time spent between polls.
      const r = await sbx.run(['webhooks', 'trigger', type, '--json'], {timeoutMs: 90_000, ...sandboxTime(sbx)})
      expect(r.code, r.stderr).toBe(0)
      const out = r.json()
      expect(out).toMatchObject({
        type,
        eventLog: true,
        event: {type},
        delivery: {state: 'delivered', endpointStatus: 200},
      })
      expect(out.steps.length).toBeGreaterThan(0)
      await eventually(() => app.got.some((d) => JSON.parse(d.body).id === out.event.id))
      const delivery = app.got.find((d) => JSON.parse(d.body).id === out.event.id)!
      const key = createPublicKey(sbx.emu.webhookPublicKeyPem)
      expect(
        verify(
          'sha256',
          Buffer.from(delivery.body),
          {key, dsaEncoding: 'der'},
          Buffer.from(delivery.signature, 'base64'),
        ),
      ).toBe(true)
      const body = JSON.parse(delivery.body)
      expect(body).toEqual(out.event)
      const check = checkWebhookBody(contract, body)
      expect(check.errors, `${type} against the contract (${check.operation ?? 'no operation'})`).toEqual([])
      STATE[type](out.objectId, body.data)
    },
  )

  it('TEST still goes straight to the endpoint (no type given)', async () => {
    const before = app.got.length
    const r = await sbx.run(['webhooks', 'trigger', '--json'], {timeoutMs: 90_000})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({url: app.url, response_status: 200})
    expect(JSON.parse(app.got.at(-1)!.body)).toMatchObject({type: 'TEST', data: {}})
    expect(app.got.length).toBe(before + 1)
  })

  it('money stayed balanced through all of it', async () => {
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })
})

describe('svc webhooks trigger: waiting, output, re-delivery, remote sandboxes', () => {
  it('prints what it did and the delivery for people; --url re-delivers the event there too', async () => {
    const other: string[] = []
    const second = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString('utf8')))
      req.on('end', () => (other.push(body), res.writeHead(200).end()))
    })
    await new Promise<void>((r) => second.listen(0, '127.0.0.1', () => r()))
    try {
      const url = `http://127.0.0.1:${(second.address() as AddressInfo).port}/other`
      const r = await sbx.run(['webhooks', 'trigger', 'INCOMING_PAYMENT.COMPLETED', '--url', url], {timeoutMs: 90_000})
      expect(r.code, r.stderr).toBe(0)
      // the result on stdout, what was done on stderr
      expect(r.stdout).toMatch(
        /^event +Webhook:\S+\ntype +INCOMING_PAYMENT\.COMPLETED\nobject +Transaction:\S+\ndelivery +delivered \(endpoint answered HTTP 200\)\nre-delivered +http:\/\/127\.0\.0\.1:\d+\/other \(HTTP 200\)\n$/,
      )
      expect(r.stderr).toMatch(/✓ INCOMING_PAYMENT\.COMPLETED happened and was delivered/)
      expect(r.stderr).toMatch(/local · profile local · webhooks trigger INCOMING_PAYMENT\.COMPLETED/)
      expect(r.stderr).toMatch(/created individual Customer:/)
      expect(r.stderr).toMatch(/funded InternalAccount:\S+ with USD 10\.00/)
      expect(r.stderr).toMatch(/re-delivered Webhook:\S+ to http:\/\/127\.0\.0\.1:\d+\/other \(HTTP 200\)/)
      const id = /^event +(Webhook:\S+)/.exec(r.stdout)![1]
      expect(other.map((b) => JSON.parse(b).id)).toEqual([id])
      // the identical body reached both
      expect(app.got.find((d) => JSON.parse(d.body).id === id)?.body).toBe(other[0])
    } finally {
      second.close()
    }
  })

  it('waits at most --timeout for the event: exit 8 naming the object, with what was done', async () => {
    const config = sbx.emu.config()
    sbx.emu.saveConfig({...config, sandbox: {...config.sandbox, decisionDelayMs: 600_000}})
    try {
      // On a fake clock: the 6 s pass as the command polls, in milliseconds; it stops where a real run would.
      const clock = fakeTime()
      const r = await sbx.run(['webhooks', 'trigger', 'CUSTOMER.KYC_APPROVED', '--timeout', '6s', '--json'], clock)
      expect(r.code).toBe(8)
      expect(clock.slept()).toBeGreaterThanOrEqual(5_000)
      expect(clock.slept()).toBeLessThanOrEqual(6_000)
      const e = r.json().error
      expect(e.code).toBe('TIMEOUT')
      expect(e.reason).toMatch(
        /^Customer:\S+ was set up \(3 steps\), but no CUSTOMER\.KYC_APPROVED event about it appeared before --timeout/,
      )
      expect(e.details.steps[0]).toMatch(/^created individual Customer:/)
    } finally {
      sbx.emu.saveConfig({...sbx.emu.config(), sandbox: {...sbx.emu.config().sandbox, decisionDelayMs: 50}})
    }
  })

  it('against a remote sandbox without the event log: says what it did; the event still reaches the endpoint configured there', async () => {
    const target = new URL(sbx.url)
    // A stand-in for a remote sandbox: everything is passed on except the local event log.
    const remote = createServer((req, res) => {
      if (req.url?.includes('/sandbox/events'))
        return res
          .writeHead(404, {'content-type': 'application/json'})
          .end('{"code":"NOT_FOUND","reason":"Not found","details":{}}')
      const fwd = request(
        {host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers},
        (up) => (res.writeHead(up.statusCode ?? 502, up.headers), up.pipe(res)),
      )
      req.pipe(fwd)
    })
    await new Promise<void>((r) => remote.listen(0, '127.0.0.1', () => r()))
    try {
      const env = {
        ...sbx.env,
        SVC_BASE_URL: `http://127.0.0.1:${(remote.address() as AddressInfo).port}${target.pathname}`,
        SVC_ENVIRONMENT: 'sandbox',
      }
      const r = await svc(['webhooks', 'trigger', 'CUSTOMER.KYC_APPROVED', '--json'], {env, timeoutMs: 60_000})
      expect(r.code, r.stderr).toBe(0)
      const out = r.json()
      expect(out).toMatchObject({type: 'CUSTOMER.KYC_APPROVED', eventLog: false})
      expect(out.objectId).toMatch(/^Customer:/)
      expect(out.event).toBeUndefined()
      await eventually(() =>
        app.got.some(
          (d) => JSON.parse(d.body).type === 'CUSTOMER.KYC_APPROVED' && JSON.parse(d.body).data.id === out.objectId,
        ),
      )
      const human = await svc(['webhooks', 'trigger', 'BULK_UPLOAD.COMPLETED'], {env, timeoutMs: 60_000})
      expect(human.code, human.stderr).toBe(0)
      expect(human.stderr).toMatch(
        /this sandbox has no event log, so the event goes to the configured webhook endpoint/,
      )
      expect(human.stdout).toMatch(
        /^type +BULK_UPLOAD\.COMPLETED\nobject +\S+\ndelivery +not visible here \(no event log\)\n$/,
      )
      // recipes that need a local-sandbox helper or knob are refused before anything is sent
      const before = sbx.requestCount()
      for (const type of ['wallet_operation.completed', 'OUTGOING_PAYMENT.PROCESSING']) {
        const refused = await svc(['webhooks', 'trigger', type, '--json'], {env})
        expect(refused.code).toBe(2)
        expect(refused.json().error.reason).toBe(
          `${type} can be triggered only against the local sandbox: its recipe uses a local-sandbox helper`,
        )
      }
      expect(sbx.requestCount()).toBe(before)
    } finally {
      remote.close()
    }
  })
})

describe('svc webhooks trigger: refusals', () => {
  it('an unknown type is exit 2 naming it and its close matches; a bad --url is named too; nothing is sent', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(['webhooks', 'trigger', 'OUTGOING_PAYMENT.COMPLETE', '--url', 'ftp://x', '--json'], {
      timeoutMs: 90_000,
    })
    expect(r.code).toBe(2)
    const errors = r.json().error.details.errors
    expect(errors.map((e: {field: string}) => e.field)).toEqual(['type', 'url'])
    expect(errors[0].message).toContain('"OUTGOING_PAYMENT.COMPLETE" is not an event type')
    expect(errors[0].message).toContain('OUTGOING_PAYMENT.COMPLETED')
    const far = await sbx.run(['webhooks', 'trigger', 'FROBNICATE', '--json'], {timeoutMs: 90_000})
    expect(far.code).toBe(2)
    expect(far.json().error.details.errors[0].message).not.toContain('did you mean')
    expect(sbx.requestCount()).toBe(before)
  })

  it('a production profile is refused before anything is sent', async () => {
    const before = sbx.requestCount()
    const r = await svc(['webhooks', 'trigger', 'CUSTOMER.KYC_APPROVED', '--json'], {
      env: {...sbx.env, SVC_ENVIRONMENT: 'production'},
    })
    expect(r.code).toBe(2)
    expect(r.json().error.reason).toMatch(/refused against production/)
    expect(sbx.requestCount()).toBe(before)
  })
})
