import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {interruptWhen} from '../helpers/cli.js'
import {api, fundedPayer} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {NO_TMUX, TmuxSession, hasTmux} from '../helpers/tmux.js'

let sbx: TestSandbox
// Payments stay PROCESSING for 10 minutes of the sandbox clock: never done before the interrupt, however
// slow the machine; the test then moves the sandbox clock past it rather than waiting it out.
const PAYMENT_MS = 600_000
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: PAYMENT_MS})
})
afterAll(async () => sbx.stop())

const txStatus = (quoteId: string) => {
  const q = sbx.emu.db.get<{transactionId?: string}>('quotes', quoteId)!
  return q.transactionId ? sbx.emu.db.get<{status: string}>('transactions', q.transactionId)?.status : undefined
}

async function pendingQuote(): Promise<string> {
  const c = await fundedPayer(sbx)
  return (await sbx.json(['quote', 'create', '--from', c.account('USD'), '--to', c.dest, '--send', '10.00'])).id
}

/** The payment's time passes on the sandbox clock: its completion job runs, as it would have by itself. */
async function paymentTimePasses(quoteId: string): Promise<string | undefined> {
  const adv = await api(sbx, 'POST', '/sandbox/clock/advance', {by: `${PAYMENT_MS / 1000 + 1}s`})
  expect(adv.status).toBe(200)
  return txStatus(quoteId)
}

/** Starts svc without a terminal, sends SIGINT once stderr matches `when`, and collects the result. */
describe('Ctrl-C (SIGINT) during a wait', () => {
  it('quote execute --wait: says the payment goes on and how to resume, exits 130, and the payment completes', async () => {
    const quoteId = await pendingQuote()
    const r = await interruptWhen(
      ['quote', 'execute', quoteId, '--yes', '--wait'],
      sbx.env,
      /… transaction (PENDING|PROCESSING)/,
    )
    expect(r.code, r.stderr).toBe(130)
    expect(r.stderr).toMatch(
      new RegExp(
        `Error: Interrupted\\. The payment of ${quoteId} goes on at the Service \\(last seen: transaction (PENDING|PROCESSING)\\); stopping svc does not stop it`,
      ),
    )
    expect(r.stderr).toContain(`Hint: Resume or inspect it with: svc quote wait ${quoteId}`)
    expect(r.stdout).not.toMatch(/COMPLETED/)
    expect(txStatus(quoteId)).not.toBe('COMPLETED')
    // The Service finishes the payment by itself once its time has passed; the printed command picks it up.
    expect(await paymentTimePasses(quoteId)).toBe('COMPLETED')
    const resumed = await sbx.run(['quote', 'wait', quoteId, '--json'])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.json()).toMatchObject({id: quoteId, transaction: {status: 'COMPLETED'}})
  }, 60_000)

  it('quote wait --json: the error document carries the resume command', async () => {
    const quoteId = await pendingQuote()
    const ex = await sbx.run(['quote', 'execute', quoteId, '--yes', '--json'])
    expect(ex.code, ex.stderr).toBe(0)
    const r = await interruptWhen(['quote', 'wait', quoteId, '--json'], sbx.env, /… transaction/)
    expect(r.code).toBe(130)
    const doc = JSON.parse(r.stdout)
    expect(doc.error).toMatchObject({code: 'INTERRUPTED', status: null, details: {resume: `svc quote wait ${quoteId}`}})
    expect(doc.error.reason).toContain(`The payment of ${quoteId} goes on at the Service`)
  }, 60_000)

  it('kyc wait: the review goes on; resume with svc kyc wait', async () => {
    const c = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Grace Hopper'})
    const id = c.body.id as string
    const r = await interruptWhen(['kyc', 'wait', id], sbx.env, /UNVERIFIED: nothing was submitted/)
    expect(r.code, r.stderr).toBe(130)
    expect(r.stderr).toContain(`Interrupted. The review of ${id} goes on at the Service (last seen: KYC UNVERIFIED)`)
    expect(r.stderr).toContain(`svc kyc wait ${id}`)
  }, 60_000)
})

describe.skipIf(!hasTmux)('Ctrl-C on a real terminal (tmux)', () => {
  it('at the confirmation prompt: exit 130, nothing was sent', async () => {
    const quoteId = await pendingQuote()
    const before = sbx.requestCount()
    const t = new TmuxSession(['quote', 'execute', quoteId, '--wait'], {env: sbx.env})
    try {
      await t.waitFor(/Send USD 10\.00/)
      t.keys('C-c')
      expect(await t.exitCode()).toBe(130)
      expect(t.screen()).toMatch(/Interrupted at the prompt; only look-ups were sent \(1 GET\); nothing was changed/)
      // Only the GET of the quote was sent; the quote was not executed.
      expect(sbx.emu.requests.slice(before).map((r) => r.method)).toEqual(['GET'])
      expect(sbx.emu.db.get<{status: string}>('quotes', quoteId)!.status).toBe('PENDING')
    } finally {
      t.kill()
    }
  }, 60_000)

  it('at a code prompt: says the code was not submitted and how to submit it later', async () => {
    const c = await api(sbx, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Jean Dupont',
      nationality: 'FR',
      email: 'jean@example.fr',
    })
    const id = c.body.id as string
    expect((await sbx.run(['kyc', 'verify-email', id])).code).toBe(0)
    const t = new TmuxSession(['kyc', 'confirm-email', id], {env: sbx.env})
    try {
      await t.waitFor(/Code sent to the customer's email/)
      t.keys('C-c')
      expect(await t.exitCode()).toBe(130)
      expect(t.screen()).toContain(
        `Interrupted at the prompt; the code was not submitted; \`svc kyc confirm-email ${id} --code <code>\` submits it later`,
      )
      expect(sbx.emu.db.get<{contactVerification: {email: string}}>('customers', id)!.contactVerification.email).toBe(
        'PENDING',
      )
    } finally {
      t.kill()
    }
  }, 60_000)

  it('during quote execute --wait: the resume command, exit 130, and the payment still completes', async () => {
    const quoteId = await pendingQuote()
    const t = new TmuxSession(['quote', 'execute', quoteId, '--wait'], {env: sbx.env})
    try {
      await t.waitFor(/Send USD 10\.00/)
      t.keys('y')
      t.keys('Enter')
      await t.waitFor(/… transaction/)
      t.keys('C-c')
      expect(await t.exitCode()).toBe(130)
      const screen = t.screen()
      expect(screen).toContain(`The payment of ${quoteId} goes on at the Service`)
      expect(screen).toContain(`svc quote wait ${quoteId}`)
      expect(await paymentTimePasses(quoteId)).toBe('COMPLETED')
    } finally {
      t.kill()
    }
  }, 60_000)
})

// Without tmux the skipped test's name is the reason, so a CI log says why pseudo-terminal tests did not run.
if (!hasTmux) it.skip(`Ctrl-C on a real terminal: ${NO_TMUX}`, () => {})
