import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {faultCounts} from '../../src/emulator/faults.js'
import {errorOf} from '../helpers/cli.js'
import {fakeTime} from '../helpers/fake-time.js'
import {api, approvedCustomer, balanceOf, expectConserved, fundedPayer, quoteArgs} from '../helpers/money.js'
import {argvOf, outgoingOf, setFaults} from '../helpers/outcome.js'
import {hasScript, onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 20, cardProcessingDelayMs: 50})
})
afterAll(async () => sbx.stop())
afterEach(async () => {
  sbx.emu.onResponse = undefined
  await setFaults(sbx, null)
})

/**
 * The clock of a run whose answers are lost (lostReply): the client's retry backoffs (about 0.25, 0.5
 * and 1 s) pass on a fake clock, since a lost answer comes back at once and the sandbox needs no time.
 */
const retrying = () => fakeTime()

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** `svc history --json` of this sandbox's CLI home. */
const history = async (...flags: string[]) => (await sbx.json(['history', ...flags])) as Array<Record<string, any>>

describe('a write whose reply is lost after the commit (lostReply)', () => {
  it('a transfer (quote send) ends OUTCOME_UNKNOWN with its key, exit 10; the printed command finishes it once', async () => {
    const payer = await fundedPayer(sbx)
    const usd = payer.account('USD')
    await setFaults(sbx, 'lostReply=1')
    const args = ['quote', 'send', '--from', usd, '--to', payer.dest, '--send', '10.00', '--yes', '--json']
    const r = await sbx.run(args, retrying())
    expect(r.code, r.stderr).toBe(10)
    const error = errorOf(r)
    expect(error).toMatchObject({code: 'OUTCOME_UNKNOWN', status: null})
    const key = error.details.idempotencyKey as string
    expect(key).toMatch(UUID)
    expect(error.details).toMatchObject({method: 'POST', path: '/quotes', object: {type: 'quote'}})
    expect(error.details.command).toBe(
      `svc quote send --from ${usd} --to ${payer.dest} --send 10.00 --yes --json --idempotency-key ${key}`,
    )
    expect(error.hint).toContain(error.details.command as string)
    expect(r.stderr).toMatch(/may have been carried out \(OUTCOME_UNKNOWN\)/)
    // Four attempts went out with the one key: the first was done, the three retries replayed it, every answer was lost.
    expect(faultCounts(sbx.emu).lostReply).toBe(4)
    const sent = outgoingOf(sbx, payer.id)
    expect(sent).toHaveLength(1)
    expect(balanceOf(sbx, usd)).toBe(100_000 - sent[0].sentAmount.amount)

    await setFaults(sbx, null)
    const again = await sbx.run(argvOf(error.details.command as string))
    expect(again.code, again.stderr).toBe(0)
    expect(again.json().transactionId).toBe(sent[0].id)
    expect(outgoingOf(sbx, payer.id)).toHaveLength(1)
    expect(balanceOf(sbx, usd)).toBe(100_000 - sent[0].sentAmount.amount)
    await expectConserved(sbx)
    // The history holds both, and the re-run with the key settles the unknown one.
    const records = (await history('--limit', '100')).filter((h) => h.idempotencyKey === key)
    expect(records.map((h) => h.outcome)).toEqual(['unknown', 'ok'])
    expect(records[0].finishedBy).toBe(records[1].n)
    expect((await history('--unknown')).some((h) => h.idempotencyKey === key)).toBe(false)
  }, 60_000)

  it('a card issue ends OUTCOME_UNKNOWN; `svc history finish` (after --dry-run) completes it: exactly one card', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    await setFaults(sbx, 'lostReply=1')
    const r = await sbx.run(['cards', 'issue', '--customer', c.id, '--account', c.account('USD'), '--json'], retrying())
    expect(r.code, r.stderr).toBe(10)
    const error = errorOf(r)
    const n = error.details.history as number
    expect(n).toBeGreaterThan(0)
    expect(error.details).toMatchObject({method: 'POST', path: '/cards', object: {type: 'card'}})
    expect(error.hint).toContain(`svc history finish ${n}`)
    const cards = () => sbx.emu.db.all<{cardholderId: string}>('cards').filter((k) => k.cardholderId === c.id)
    expect(cards()).toHaveLength(1)
    await setFaults(sbx, null)

    const before = sbx.requestCount()
    const dry = await sbx.run(['history', 'finish', String(n), '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(sbx.requestCount()).toBe(before)
    const shown = JSON.parse(dry.stdout)
    expect(shown.request).toMatchObject({
      method: 'POST',
      url: `${sbx.url}/cards`,
      body: {cardholderId: c.id, form: 'VIRTUAL', fundingSources: [c.account('USD')]},
    })
    expect(shown.request.headers['idempotency-key']).toBe(error.details.idempotencyKey)
    expect(shown.request.headers.authorization).toBe('Basic [REDACTED]')
    expect(dry.stdout).not.toContain(sbx.emu.credentials.clientSecret)

    const done = await sbx.run(['history', 'finish', String(n), '--yes', '--json'])
    expect(done.code, done.stderr).toBe(0)
    expect(done.json().cardholderId).toBe(c.id)
    expect(done.stderr).toMatch(new RegExp(`Finished record ${n}: POST /.*/cards answered 201`))
    expect(cards()).toHaveLength(1)
    expect(done.json().id).toBe((cards()[0] as unknown as {id: string}).id)
    // Finished once: a second finish is refused (exit 6), and sends nothing.
    const count = sbx.requestCount()
    const twice = await sbx.run(['history', 'finish', String(n), '--json'])
    expect(twice.code).toBe(6)
    expect(errorOf(twice).code).toBe('HISTORY_NOT_FINISHABLE')
    expect(sbx.requestCount()).toBe(count)
  }, 60_000)

  it('quote execute: a read-back settles a lost answer (exit 0); when the read-back is lost too it is OUTCOME_UNKNOWN, finished by `svc history finish`', async () => {
    const payer = await fundedPayer(sbx)
    const usd = payer.account('USD')
    const quote = async () => (await sbx.json(quoteArgs(usd, payer.dest, '--send', '10.00'))).id as string

    // The answer is lost, the quote's status says it was executed: the real outcome, not a guess.
    const q1 = await quote()
    await setFaults(sbx, 'lostReply=1')
    const settled = await sbx.run(['quote', 'execute', q1, '--yes', '--json'], retrying())
    expect(settled.code, settled.stderr).toBe(0)
    expect(settled.json()).toMatchObject({id: q1, status: expect.stringMatching(/PROCESSING|COMPLETED/)})
    expect(settled.stderr).toMatch(new RegExp(`No answer came to POST .*/execute .*read back: ${q1} is`))
    expect(outgoingOf(sbx, payer.id)).toHaveLength(1)
    await setFaults(sbx, null)

    // The network goes down right after the commit: retries and the read-back get no answer.
    const q2 = await quote()
    await setFaults(sbx, 'lostReply=1')
    sbx.emu.onResponse = (req) => {
      if (req.path.endsWith('/execute')) void setFaults(sbx, 'reset=1')
    }
    const r = await sbx.run(['quote', 'execute', q2, '--yes', '--json'], retrying())
    expect(r.code, r.stderr).toBe(10)
    const error = errorOf(r)
    expect(error.details).toMatchObject({
      method: 'POST',
      path: `/quotes/${encodeURIComponent(q2)}/execute`,
      object: {type: 'quote', id: q2},
      readBack: 'the read-back got no answer either',
    })
    expect(error.details.idempotencyKey).toBe(`${error.details.commandKey}:execute`)
    expect(error.details.command).toBe(
      `svc quote execute ${q2} --yes --json --idempotency-key ${error.details.commandKey}`,
    )
    sbx.emu.onResponse = undefined
    await setFaults(sbx, null)
    expect(outgoingOf(sbx, payer.id)).toHaveLength(2)
    const done = await sbx.run(['history', 'finish', String(error.details.history), '--yes', '--json'])
    expect(done.code, done.stderr).toBe(0)
    expect(done.json()).toMatchObject({id: q2})
    // And the printed command, run after it, replays too: still one payment per execute.
    const printed = await sbx.run(argvOf(error.details.command as string))
    expect(printed.code, printed.stderr).toBe(0)
    const sent = outgoingOf(sbx, payer.id)
    expect(sent).toHaveLength(2)
    expect(balanceOf(sbx, usd)).toBe(100_000 - sent.reduce((s, t) => s + t.sentAmount.amount, 0))
    await expectConserved(sbx)
  }, 60_000)

  it('customer create carries no key: its OUTCOME_UNKNOWN says how to check, and history finish refuses it', async () => {
    await setFaults(sbx, 'lostReply=1')
    const r = await sbx.run(
      [
        'customers',
        'create',
        '--type',
        'INDIVIDUAL',
        '--full-name',
        'Ada Lost',
        '--platform-id',
        'ada-lost-1',
        '--json',
      ],
      retrying(),
    )
    expect(r.code, r.stderr).toBe(10)
    const error = errorOf(r)
    expect(error.details).toMatchObject({idempotencyKey: null, method: 'POST', path: '/customers'})
    expect(error.details.command).toBeUndefined()
    expect(error.hint).toContain('svc customers list --platform-id ada-lost-1')
    await setFaults(sbx, null)
    const found = await sbx.json(['customers', 'list', '--platform-id', 'ada-lost-1'])
    expect(found.data).toHaveLength(1)
    const refused = await sbx.run(['history', 'finish', String(error.details.history), '--json'])
    expect(refused.code).toBe(6)
    expect(refused.json().error.reason).toMatch(/no Idempotency-Key/)
  }, 30_000)

  it('a slow answer past --timeout (slowReply) is OUTCOME_UNKNOWN too: the write was committed', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    await setFaults(sbx, 'slowReply=4s')
    const t0 = Date.now()
    const r = await sbx.run([
      'cards',
      'issue',
      '--customer',
      c.id,
      '--account',
      c.account('USD'),
      '--timeout',
      '1s',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(10)
    expect(Date.now() - t0).toBeLessThan(4_000)
    expect(errorOf(r).details.cause).toMatch(/timed out/)
    // The POST was slowed. When its wait ends with time left in --timeout (timers run early or late
    // on a loaded machine; CI saw 2), the client retries with the same Idempotency-Key and that is slowed too.
    // Nothing else was sent, and one card was made (below).
    const faults = faultCounts(sbx.emu)
    expect(faults.slowReply).toBeGreaterThanOrEqual(1)
    expect(new Set(faults.faulted)).toEqual(new Set(['slowReply POST /cards']))
    await new Promise((res) => setTimeout(res, 100))
    expect(sbx.emu.db.all<{cardholderId: string}>('cards').filter((k) => k.cardholderId === c.id)).toHaveLength(1)
  }, 30_000)
})

describe('retries out loud', () => {
  it('--debug off a terminal: one stderr line per retry, then exit 7', async () => {
    await setFaults(sbx, 'rate429=1,retryAfter=0')
    const r = await sbx.run(['customers', 'list', '--debug', '--json'])
    expect(r.code).toBe(7)
    const lines = r.stderr.split('\n').filter((l) => /retrying in/.test(l))
    expect(lines).toEqual([
      '429 Too Many Requests; retrying in 0s (1/3)',
      '429 Too Many Requests; retrying in 0s (2/3)',
      '429 Too Many Requests; retrying in 0s (3/3)',
    ])
    // Without --debug, a script's stderr stays as it was.
    const quiet = await sbx.run(['customers', 'list', '--json'])
    expect(quiet.code).toBe(7)
    expect(quiet.stderr).not.toMatch(/retrying/)
  }, 30_000)

  it.skipIf(!hasScript)(
    'on a terminal: the same line per retry without --debug',
    async () => {
      await setFaults(sbx, 'rate429=1,retryAfter=0')
      const t = await onTerminal(['customers', 'list'], {env: sbx.env})
      expect(t.code).toBe(7)
      expect(t.out.match(/429 Too Many Requests; retrying in 0s \([123]\/3\)/g)).toHaveLength(3)
      expect(t.out).toMatch(/Error: .*\(RATE_LIMITED, HTTP 429\)/)
    },
    30_000,
  )
})

describe('sandbox faults after the commit', () => {
  it('PATCH /config takes lostReply and slowReply (string and object) and refuses bad values naming each', async () => {
    const ok = await api(sbx, 'PATCH', '/config', {sandbox: {faults: 'lostReply=0.3,slowReply=2s,slowReplyRate=0.5'}})
    expect(ok.status).toBe(200)
    expect(ok.body.sandbox.faults).toMatchObject({lostReply: 0.3, slowReplyMs: 2000, slowReplyRate: 0.5})
    const bad = await api(sbx, 'PATCH', '/config', {sandbox: {faults: {lostReply: 2, slowReplyMs: -1}}})
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'sandbox.faults.lostReply',
      'sandbox.faults.slowReplyMs',
    ])
  })
})
