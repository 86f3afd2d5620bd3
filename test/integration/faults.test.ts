import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {faultCounts} from '../../src/emulator/faults.js'
import {fakeTime} from '../helpers/fake-time.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {api, approvedCustomer, clabeEnding, imbalance, quoteArgs} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 20})
})
afterAll(async () => sbx.stop())

const setFaults = (faults: unknown) => api(sbx, 'PATCH', '/config', {sandbox: {faults}})
const raw = (method: string, path: string, body?: unknown) =>
  api(sbx, method, path, body).catch((e: Error) => ({
    status: 0,
    body: String((e as {cause?: Error}).cause?.message ?? e.message),
  }))

describe('fault injection', () => {
  afterAll(async () => setFaults(null))

  it('a faulted request changes nothing: 503 and 429 carry Retry-After, a reset answers nothing', async () => {
    const before = sbx.emu.db.count('customers')
    await setFaults('rate5xx=1,retryAfter=2')
    const auth = Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')
    const post = () =>
      fetch(`${sbx.url}/customers`, {
        method: 'POST',
        headers: {authorization: `Basic ${auth}`, 'content-type': 'application/json'},
        body: JSON.stringify({customerType: 'INDIVIDUAL', fullName: 'Ada Faulted'}),
      })
    const r503 = await post()
    expect(r503.status).toBe(503)
    expect(r503.headers.get('retry-after')).toBe('2')
    expect((await r503.json()).code).toBe('SERVICE_UNAVAILABLE')
    await setFaults({rate429: 1, retryAfterSeconds: 1})
    const r429 = await post()
    expect(r429.status).toBe(429)
    expect(r429.headers.get('retry-after')).toBe('1')
    await setFaults('reset=1')
    const reset = await raw('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Ada Reset'})
    expect(reset.status).toBe(0)
    expect(faultCounts(sbx.emu).reset).toBe(1)
    expect(sbx.emu.db.count('customers')).toBe(before)
    // The sandbox's own controls are never faulted: faults can always be turned off.
    expect((await api(sbx, 'GET', '/config')).body.sandbox.faults).toMatchObject({reset: 1})
    await setFaults(null)
    expect((await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Ada Fine'})).status).toBe(201)
  })

  it('the same seed gives the same faults', async () => {
    const sequence = async () => {
      await setFaults('rate5xx=0.3,rate429=0.3,retryAfter=0,seed=1234')
      const out: number[] = []
      for (let i = 0; i < 30; i++) out.push((await api(sbx, 'GET', '/customers?limit=1')).status)
      await setFaults(null)
      return out
    }
    const a = await sequence()
    expect(new Set(a)).toEqual(new Set([200, 429, 503]))
    expect(await sequence()).toEqual(a)
  })

  it('PATCH /config refuses a bad fault spec naming each part, and changes nothing', async () => {
    const r = await setFaults('rate5xx=2,bogus=1,latency=soon')
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'sandbox.faults.bogus',
      'sandbox.faults.latencyMs',
      'sandbox.faults.rate5xx',
    ])
    expect(sbx.emu.settings().faults.rate5xx).toBe(0)
  })

  it('a CI paying flow under 10% 503s, 5% 429s and resets pays exactly once per idempotency key, over 20 runs', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 1_000_000})
    const dest = (
      await api(sbx, 'POST', '/customers/external-accounts', {
        customerId: c.id,
        currency: 'MXN',
        accountInfo: {
          accountType: 'CLABE',
          clabeNumber: clabeEnding('123'),
          beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Garcia', nationality: 'MX'},
        },
      })
    ).body.id as string
    expect(dest).toMatch(/^ExternalAccount:/)
    await setFaults(`rate5xx=0.1,rate429=0.05,reset=0.05,latency=5ms,retryAfter=1,seed=${process.env.FAULT_SEED ?? 1}`)
    const paid = new Map<string, string>()
    let reruns = 0
    for (let i = 0; i < 20; i++) {
      const key = `ci-faults-${i}`
      const args = quoteArgs(
        c.account('USD'),
        dest,
        '--send',
        '10.00',
        '--execute',
        '--yes',
        '--json',
        '--idempotency-key',
        key,
      )
      // A CI job re-runs a failed step with the same key (here: retries ran out under the faults). The
      // waits before retries (Retry-After: 1 s) pass on fake time: the requests and their order are the same.
      const run = () => svc(args, {env: sbx.env, timeoutMs: 60_000, ...fakeTime()})
      let r = await run()
      for (let again = 0; r.code !== 0 && again < 5; again++, reruns++) r = await run()
      expect(r.code, r.stdout + r.stderr).toBe(0)
      paid.set(key, r.json().transactionId)
    }
    const counts = faultCounts(sbx.emu)
    await setFaults(null)
    expect(counts.rate5xx).toBeGreaterThan(0)
    expect(counts.rate429).toBeGreaterThan(0)
    expect(counts.reset).toBeGreaterThan(0)
    // The paying requests themselves were faulted (a reset too) and retried with their keys, not only
    // the reads around them. FAULT_SEED=<n> runs this against another fault sequence.
    expect(
      counts.faulted.filter((f) => /^(503|429|reset) POST \/quotes\/[^/]+\/execute$/.test(f)).length,
    ).toBeGreaterThan(0)
    expect(counts.faulted.filter((f) => /^(503|429|reset) POST \/quotes$/.test(f)).length).toBeGreaterThan(0)
    if (!process.env.FAULT_SEED)
      expect(counts.faulted.filter((f) => /^reset POST \/quotes\/[^/]+\/execute$/.test(f))).toHaveLength(1)
    const outgoing = sbx.emu.db
      .all<{id: string; customerId: string; type: string}>('transactions')
      .filter((t) => t.customerId === c.id && t.type === 'OUTGOING')
    expect(outgoing).toHaveLength(20)
    expect(new Set(paid.values())).toEqual(new Set(outgoing.map((t) => t.id)))
    expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])
    expect(sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', c.account('USD'))!.balance.amount).toBe(
      1_000_000 - 20 * 1_000,
    )
    console.log(
      `faults injected: ${JSON.stringify({...counts, faulted: counts.faulted.length})}; on: ${counts.faulted.join(', ')}; CI re-runs needed: ${reruns}`,
    )
  }, 240_000)
})

describe('svc sandbox serve --faults', () => {
  it('refuses a bad spec with exit 2 naming each bad part', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-faults-'))
    try {
      const r = await svc(
        [
          'sandbox',
          'serve',
          '--port',
          '0',
          '--data-dir',
          join(home, 'd'),
          '--faults',
          'rate429=7,latency=soon',
          '--json',
        ],
        {env: {HOME: home, SVC_CONFIG_DIR: join(home, 'c')}},
      )
      expect(r.code).toBe(2)
      expect(
        r
          .json()
          .error.details.errors.map((e: {field: string}) => e.field)
          .sort(),
      ).toEqual(['faults.latencyMs', 'faults.rate429'])
    } finally {
      rmSync(home, {recursive: true, force: true})
    }
  })

  it('--detach --faults --faults-seed: the started sandbox injects the faults', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-faults-'))
    const env = {HOME: home, SVC_CONFIG_DIR: join(home, 'c'), SVC_SANDBOX_DIR: join(home, 'd'), SVC_NO_INPUT: '1'}
    try {
      const r = await svc(
        [
          'sandbox',
          'serve',
          '--detach',
          '--port',
          '0',
          '--faults',
          'rate5xx=1,retryAfter=3',
          '--faults-seed',
          '9',
          '--json',
        ],
        {env},
      )
      expect(r.code, r.stderr).toBe(0)
      const ready = r.json()
      const auth = Buffer.from(`${ready.tokenId}:${ready.clientSecret}`).toString('base64')
      const res = await fetch(`${ready.url}/customers`, {headers: {authorization: `Basic ${auth}`}})
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('3')
      const config = await (await fetch(`${ready.url}/config`, {headers: {authorization: `Basic ${auth}`}})).json()
      expect(config.sandbox.faults).toEqual({
        rate5xx: 1,
        rate429: 0,
        reset: 0,
        latencyMs: 0,
        lostReply: 0,
        slowReplyMs: 0,
        slowReplyRate: 1,
        retryAfterSeconds: 3,
        seed: 9,
      })
      expect((await svc(['sandbox', 'stop'], {env})).code).toBe(0)
      // Faults are for the run that asked for them: a restart without --faults serves normally.
      const again = (await svc(['sandbox', 'serve', '--detach', '--port', '0', '--json'], {env})).json()
      expect((await fetch(`${again.url}/customers`, {headers: {authorization: `Basic ${auth}`}})).status).toBe(200)
      expect((await svc(['sandbox', 'stop'], {env})).code).toBe(0)
    } finally {
      rmSync(home, {recursive: true, force: true})
    }
  }, 30_000)
})
