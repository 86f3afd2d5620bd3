import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {fakeTime, sandboxTime} from '../helpers/fake-time.js'
import {onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {
  api,
  approvedCustomer,
  clabeAccountArgs,
  clabeBeneficiary,
  clabeEnding,
  expectConserved,
  quoteArgs,
  realtimeQuoteArgs,
  storedAccount,
  webhookEvents,
} from '../helpers/money.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50, paymentReturnDelayMs: 1500, slowPaymentDelayMs: 60_000})
})
afterAll(async () => sbx.stop())

/**
 * Runs svc on a pseudo-terminal answering every y/N question that matches `prompt` with `answer`; counts the
 * questions asked (inquirer redraws a question as it is typed; a finished one is marked ✔ with the answer).
 */
async function confirming(args: string[], prompt: RegExp, answer: string) {
  let answered = 0
  const t = await onTerminal(args, {
    env: sbx.env,
    answers: (raw) => {
      const open = raw.slice(raw.lastIndexOf('✔') + 1)
      if (
        answered !== raw.split('✔').length - 1 ||
        !prompt.test(open.replace(/\r?\n/g, ' ')) ||
        !/\((y\/N|Y\/n)\)/.test(open)
      )
        return undefined
      answered++
      return answer
    },
  })
  return {...t, prompts: t.raw.split('✔').length - 1}
}

describe('money movement journeys through the CLI', () => {
  it('fund -> USD to MXN quote -> execute -> COMPLETED, with both webhooks', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    const fund = await sbx.run(['sandbox', 'fund', c.account('USD'), '--amount', '1000.00', '--json'])
    expect(fund.code, fund.stderr).toBe(0)
    expect(fund.json().balance.amount).toBe(100_000)
    const incoming = webhookEvents(sbx, 'INCOMING_PAYMENT.COMPLETED').map(
      (e) => e.data as {type: string; direction: string; receivedAmount: {amount: number}; customerId: string},
    )
    expect(incoming.find((d) => d.customerId === c.id)).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      receivedAmount: {amount: 100_000},
    })

    const dest = await clabeBeneficiary(sbx, c.id)
    const human = await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '250.00'))
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toMatch(/you send\s+USD 250\.00/)
    expect(human.stdout).toMatch(/rate\s+1 USD = 17\.2500 MXN\s+\(1 MXN = 0\.0579710 USD\)/)
    expect(human.stdout).toMatch(/fees\s+USD 1\.25 included \(service USD 1\.25, platform USD 0\.00\)/)
    expect(human.stdout).toMatch(/they receive\s+MXN 4,290\.93/)
    expect(human.stdout).toMatch(/expires\s+in 1[01]\ds/)

    const q = await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '250.00', '--json'))
    const quote = q.json()
    expect(quote).toMatchObject({
      status: 'PENDING',
      totalSendingAmount: 25_000,
      totalReceivingAmount: 429_093,
      feesIncluded: 125,
      platformFeesIncluded: 0,
      exchangeRate: 17.25,
    })
    const ex = await sbx.run(['quote', 'execute', quote.id, '--yes', '--wait', '--json'])
    expect(ex.code, ex.stderr).toBe(0)
    const settled = ex.json()
    expect(settled).toMatchObject({
      id: quote.id,
      status: 'COMPLETED',
      transaction: {
        id: quote.transactionId,
        status: 'COMPLETED',
        type: 'OUTGOING',
        direction: 'DEBIT',
        quoteId: quote.id,
        exchangeRate: 17.25,
      },
    })
    expect(settled.transaction.settledAt).toBeTruthy()
    // outgoing transactions carry fees and platformFees as int64 smallest units of the sending currency
    expect(settled.transaction).toMatchObject({fees: quote.feesIncluded, platformFees: 0})
    expect(ex.stderr).toContain(`execute ${quote.id}`) // the environment banner before money moves
    const out = webhookEvents(sbx, 'OUTGOING_PAYMENT.COMPLETED').map(
      (e) => e.data as {id: string; sentAmount: {amount: number}; receivedAmount: {amount: number}},
    )
    expect(out.find((d) => d.id === quote.transactionId)).toMatchObject({
      sentAmount: {amount: 25_000},
      receivedAmount: {amount: 429_093},
    })
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 75_000},
      totalBalance: {amount: 75_000},
    })
    await expectConserved(sbx)

    const again = await sbx.run(['quote', 'execute', quote.id, '--yes', '--json'])
    expect(again.code).toBe(6)
    expect(again.json().error.code).toBe('INVALID_STATE_TRANSITION')
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(75_000)
  })

  it('an operator on a terminal: fund, beneficiary, quote, one confirmation, and the settlement shown', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    const funded = await sbx.run(['sandbox', 'fund', c.account('USD'), '--amount', '1000.00'])
    expect(funded.code, funded.stderr).toBe(0)
    expect(funded.stderr).toMatch(/Funded InternalAccount:\S+: balance USD 1,000\.00/)
    const added = await sbx.run(clabeAccountArgs(c.id, clabeEnding('123'), 'Maria Garcia'))
    expect(added.code, added.stderr).toBe(0)
    const dest = added.stdout.match(/ExternalAccount:[\w-]+/)![0]
    const quoted = await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '250.00'))
    const quoteId = quoted.stderr.match(/svc quote execute (Quote:[\w-]+)/)![1]

    // Declining changes nothing (the quote's GET was the only request).
    const no = await confirming(['quote', 'execute', quoteId], /Send USD 250\.00 → MXN 4,290\.93 to/, 'n\r')
    expect(no.prompts).toBe(1)
    expect(no.out).toMatch(/only look-ups were sent \(1 GET\); nothing was changed/i)
    expect(sbx.emu.db.get<{status: string}>('quotes', quoteId)!.status).toBe('PENDING')
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(100_000)

    const yes = await confirming(['quote', 'execute', quoteId, '--wait'], /Send USD 250\.00 → MXN 4,290\.93 to/, 'y\r')
    expect(yes.code, yes.out).toBe(0)
    expect(yes.prompts).toBe(1) // one confirmation, asked once
    // The summary came before the question: rate both ways, every fee, the time left.
    const asked = yes.out.indexOf('Send USD 250.00')
    expect(yes.out.slice(0, asked)).toMatch(/rate\s+1 USD = 17\.2500 MXN\s+\(1 MXN = 0\.0579710 USD\)/)
    expect(yes.out.slice(0, asked)).toMatch(/fees\s+USD 1\.25 included \(service USD 1\.25, platform USD 0\.00\)/)
    expect(yes.out.slice(0, asked)).toMatch(/expires\s+in \d+s/)
    expect(yes.out).toMatch(new RegExp(`Executed ${quoteId}: PROCESSING`))
    expect(yes.out).toMatch(/status\s+COMPLETED/)
    expect(yes.out).toMatch(/settled\s+\S+/)
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 75_000},
      totalBalance: {amount: 75_000},
    })
    await expectConserved(sbx)
  })

  it('real-time funded USDC -> MXN: payment instructions, execute refused, sandbox send -> COMPLETED', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const dest = await clabeBeneficiary(sbx, c.id)
    const shown = await sbx.run(
      realtimeQuoteArgs(c.id, '--currency', 'USDC', '--network', 'SOLANA', '--to', dest, '--send', '100'),
    )
    expect(shown.stdout).toMatch(
      /Pay USDC 100\.000000 to \(real-time funding\)\n\s+SOLANA_WALLET\n\s+address\s+\S+\n\s+assetType\s+USDC/,
    )
    expect(shown.stdout).toMatch(/from\s+real-time funding \(USDC on SOLANA\)/)
    const q = await sbx.run(
      realtimeQuoteArgs(c.id, '--currency', 'USDC', '--network', 'SOLANA', '--to', dest, '--send', '100', '--json'),
    )
    expect(q.code, q.stderr).toBe(0)
    const quote = q.json()
    expect(quote).toMatchObject({
      status: 'PENDING',
      totalSendingAmount: 100_000_000,
      sendingCurrency: {code: 'USDC', decimals: 6},
      receivingCurrency: {code: 'MXN'},
    })
    expect(quote.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: 'SOLANA_WALLET',
      assetType: 'USDC',
    })
    const refused = await sbx.run(['quote', 'execute', quote.id, '--yes', '--json'])
    expect(refused.code).toBe(2)
    expect(refused.json().error.reason).toMatch(/funded in real time/)
    const sent = await sbx.run(['sandbox', 'send', quote.id, '--wait', '--json'])
    expect(sent.code, sent.stderr).toBe(0)
    expect(sent.json()).toMatchObject({
      status: 'COMPLETED',
      transaction: {
        status: 'COMPLETED',
        source: {sourceType: 'REALTIME_FUNDING', onChainTransaction: {network: 'SOLANA'}},
      },
    })
    expect(
      webhookEvents(sbx, 'OUTGOING_PAYMENT.COMPLETED').some((e) => (e.data as {quoteId: string}).quoteId === quote.id),
    ).toBe(true)
    const shownTx = await sbx.run(['transactions', 'get', sent.json().transaction.id])
    expect(shownTx.stdout).toMatch(/onChain \(source\)\s+\S{20,} \(SOLANA\)/)
    expect(shownTx.stdout).toMatch(/status\s+COMPLETED/)
    await expectConserved(sbx)
  })

  it('an expired quote is refused with QUOTE_EXPIRED and nothing moves', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 50_000})
    const dest = await clabeBeneficiary(sbx, c.id)
    expect((await sbx.run(['api', 'PATCH', '/config', '--data', '{"sandbox":{"quoteTtlMs":300}}'])).code).toBe(0)
    const quote = (await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '10', '--json'))).json()
    await sbx.run(['api', 'PATCH', '/config', '--data', '{"sandbox":{"quoteTtlMs":120000}}'])
    await sandboxTime(sbx).sleep(400) // past its 300 ms, on the sandbox clock
    const ex = await sbx.run(['quote', 'execute', quote.id, '--yes', '--json'])
    expect(ex.code).toBe(6)
    expect(ex.json().error).toMatchObject({code: 'QUOTE_EXPIRED'})
    expect(ex.json().error.hint).toMatch(/create a new quote/)
    expect((await sbx.run(['quote', 'get', quote.id, '--json'])).json().status).toBe('EXPIRED')
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(50_000)
  })

  it('on a terminal, an expired quote is offered again with the same terms and paid once', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 50_000})
    const dest = await clabeBeneficiary(sbx, c.id)
    await api(sbx, 'PATCH', '/config', {sandbox: {quoteTtlMs: 300}})
    const old = (await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '20.00', '--json'))).json()
    await api(sbx, 'PATCH', '/config', {sandbox: {quoteTtlMs: 120_000}})
    await sandboxTime(sbx).sleep(400) // past its 300 ms, on the sandbox clock
    const t = await confirming(
      ['quote', 'execute', old.id],
      /Create a new quote with the same terms|Send USD 20\.00/,
      'y\r',
    )
    expect(t.code, t.out).toBe(0)
    expect(t.out).toMatch(new RegExp(`${old.id} expired at`))
    expect(t.prompts).toBe(2) // re-quote?, then the usual confirmation of the new quote
    const fresh = t.out.match(/Executed (Quote:[\w-]+)/)![1]
    expect(fresh).not.toBe(old.id)
    const q = sbx.emu.db.get<{
      totalSendingAmount: number
      source: {accountId: string}
      destination: {accountId: string}
    }>('quotes', fresh)!
    expect(q).toMatchObject({
      totalSendingAmount: 2_000,
      source: {accountId: c.account('USD')},
      destination: {accountId: dest},
    })
    expect(sbx.emu.db.get<{status: string}>('quotes', old.id)!.status).toBe('EXPIRED')
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(48_000)
  })

  it('a CI re-run with the same --idempotency-key pays once; the same key with other terms is refused', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 100_000})
    const dest = await clabeBeneficiary(sbx, c.id)
    const args = quoteArgs(
      c.account('USD'),
      dest,
      '--send',
      '100.00',
      '--execute',
      '--yes',
      '--json',
      '--idempotency-key',
      'ci-run-42',
    )
    const first = await sbx.run(args)
    const second = await sbx.run(args)
    expect(first.code, first.stderr).toBe(0)
    expect(second.code, second.stderr).toBe(0)
    expect(second.json().id).toBe(first.json().id)
    expect(second.json().transactionId).toBe(first.json().transactionId)
    const outgoing = sbx.emu.db
      .all<{customerId: string; type: string}>('transactions')
      .filter((t) => t.customerId === c.id && t.type === 'OUTGOING')
    expect(outgoing).toHaveLength(1)
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(90_000)
    const other = await sbx.run(
      quoteArgs(c.account('USD'), dest, '--send', '200.00', '--json', '--idempotency-key', 'ci-run-42'),
    )
    expect(other.code).toBe(6)
    expect(other.json().error.code).toBe('DUPLICATE_PAY_REQUEST')

    // The two-step CI form: quote, then `quote execute --yes --json` re-run with one key.
    const q2 = (
      await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '50.00', '--json', '--idempotency-key', 'ci-run-43'))
    ).json()
    const exec = ['quote', 'execute', q2.id, '--yes', '--json', '--idempotency-key', 'ci-run-43']
    const e1 = await sbx.run(exec)
    const e2 = await sbx.run(exec)
    expect(e1.code, e1.stderr).toBe(0)
    expect(e2.code, e2.stderr).toBe(0)
    expect(e2.json()).toMatchObject({id: q2.id, transactionId: e1.json().transactionId})
    expect(
      sbx.emu.db
        .all<{customerId: string; type: string}>('transactions')
        .filter((t) => t.customerId === c.id && t.type === 'OUTGOING'),
    ).toHaveLength(2)
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(85_000)
  })

  it('insufficient funds is refused at quote time and stores nothing', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 1_000})
    const dest = await clabeBeneficiary(sbx, c.id)
    const quotes = sbx.emu.db.count('quotes')
    const r = await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '250.00', '--json'))
    expect(r.code).toBe(1)
    expect(r.json().error).toMatchObject({code: 'INSUFFICIENT_FUNDS', details: {available: 1_000, required: 25_000}})
    expect(r.json().error.hint).toMatch(/sandbox fund/)
    expect(sbx.emu.db.count('quotes')).toBe(quotes)
  })

  it('a payout to a magic failing account (suffix 004) fails and the funds come back', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 30_000})
    const dest = await clabeBeneficiary(sbx, c.id, '004')
    const r = await sbx.run(
      quoteArgs(c.account('USD'), dest, '--send', '100', '--execute', '--wait', '--yes', '--json'),
    )
    expect(r.code).toBe(1)
    const err = r.json().error
    expect(err).toMatchObject({
      code: 'PAYMENT_FAILED',
      details: {transaction: {status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE'}},
    })
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 30_000},
      totalBalance: {amount: 30_000},
    })
    expect(
      webhookEvents(sbx, 'OUTGOING_PAYMENT.FAILED').some(
        (e) => (e.data as {id: string}).id === err.details.transaction.id,
      ),
    ).toBe(true)
    const shown = await sbx.run(['transactions', 'get', err.details.transaction.id])
    expect(shown.stdout).toMatch(
      /status\s+FAILED: ACCOUNT_CANNOT_RECEIVE \(the destination cannot receive this payment\)/,
    )
    await expectConserved(sbx)
  })

  it('--wait gives up at --timeout with exit 8 while a slow payment (suffix 003) is still processing', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 30_000})
    const dest = await clabeBeneficiary(sbx, c.id, '003')
    // The waits run out their --timeout on a fake clock (the payment takes a minute: no race with it).
    const r = await sbx.run(
      quoteArgs(c.account('USD'), dest, '--send', '100', '--execute', '--wait', '--yes', '--timeout', '1s', '--json'),
      fakeTime(),
    )
    expect(r.code).toBe(8)
    expect(r.json().error.code).toBe('TIMEOUT')
    expect(r.json().error.hint).toMatch(/svc quote wait Quote:/)
    const clock = fakeTime()
    const again = await sbx.run(
      ['quote', 'wait', r.json().error.hint.match(/Quote:[\w-]+/)[0], '--timeout', '1s', '--json'],
      clock,
    )
    expect(again.code).toBe(8)
    expect(clock.slept()).toBe(1_000)
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 20_000},
      totalBalance: {amount: 30_000},
    }) // held until it settles
  })

  it('a returned payout (suffix 005) completes, then fails with PAYOUT_RETURNED and credits the source', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 30_000})
    const dest = await clabeBeneficiary(sbx, c.id, '005')
    const r = await sbx.run(
      quoteArgs(c.account('USD'), dest, '--send', '100', '--execute', '--wait', '--yes', '--json'),
    )
    expect(r.code, r.stderr).toBe(0)
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(20_000)
    const txId = r.json().transaction.id
    // The return comes 1.5 s later: that time passes on the sandbox clock.
    await sandboxTime(sbx).sleep(1_500)
    const t = await api(sbx, 'GET', `/transactions/${txId}`)
    expect(t.body).toMatchObject({status: 'FAILED', failureReason: 'PAYOUT_RETURNED', refund: {status: 'COMPLETED'}})
    expect(storedAccount(sbx, c.account('USD')).balance.amount).toBe(30_000)
    await expectConserved(sbx)
  })
})
