import {describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {approveInStore, balanceOf, beneficiary, clabeEnding, until} from '../helpers/money.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({paymentCompletionDelayMs: 30})

/** An approved wallet holder with terms on file (KYC is not under test), a funded wallet and a quote to a CLABE account. */
async function walletQuote() {
  const c = await fx.api.createCustomer()
  approveInStore(fx.sbx, c.customerId)
  expect(
    (await fx.api.call('POST', `/sandbox/internal-accounts/${c.accountId}/fund`, {body: {amount: 100_000_000}})).status,
  ).toBe(200)
  const ext = await fx.api.call('POST', '/customers/external-accounts', {
    body: {
      customerId: c.customerId,
      currency: 'MXN',
      accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
    },
  })
  expect(ext.status).toBe(201)
  const q = await fx.api.call('POST', '/quotes', {
    body: {
      source: {sourceType: 'ACCOUNT', accountId: c.accountId},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 25_000_000,
    },
  })
  expect(q.status).toBe(201)
  return {...c, quote: q.body}
}

describe('signed execute of an embedded-wallet quote', () => {
  it('without a session: refused, nothing debited, the error names the login to run', async () => {
    const w = await walletQuote()
    const r = await svc(['api', 'POST', `/quotes/${w.quote.id}/execute`, '--sign', '--json'], {env: fx.sbx.env})
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      code: 'WALLET_SESSION_REQUIRED',
      hint: expect.stringContaining(`svc wallet login ${w.accountId}`),
    })
    expect(balanceOf(fx.sbx, w.accountId)).toBe(100_000_000)
  })

  it('stamps the quote payload with the source wallet session and the payment reaches COMPLETED', async () => {
    const w = await walletQuote()
    const login = await svc(['wallet', 'login', w.accountId, '--json'], {env: fx.sbx.env})
    expect(login.code, login.stderr).toBe(0)
    const r = await svc(
      ['api', 'POST', `/quotes/${w.quote.id}/execute`, '--sign', '--idempotency-key', `exec-${w.quote.id}`, '--json'],
      {env: fx.sbx.env},
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({id: w.quote.id})
    expect(balanceOf(fx.sbx, w.accountId)).toBe(75_000_000)
    const tx = await until(
      () => fx.api.call('GET', `/transactions/${w.quote.transactionId}`),
      (t) => t.body.status === 'COMPLETED',
    )
    expect(tx.body).toMatchObject({status: 'COMPLETED', quoteId: w.quote.id})
  })

  it('the quote carries payloadToSign; `svc quote execute` stamps it with the stored session and waits for COMPLETED', async () => {
    const w = await walletQuote()
    const info = w.quote.paymentInstructions?.[0]?.accountOrWalletInfo
    expect(info).toMatchObject({accountType: 'EMBEDDED_WALLET', payloadToSign: expect.stringContaining(w.quote.id)})
    expect((await svc(['wallet', 'login', w.accountId, '--json'], {env: fx.sbx.env})).code).toBe(0)
    const r = await svc(['quote', 'execute', w.quote.id, '--yes', '--wait', '--timeout', '20s', '--json'], {
      env: fx.sbx.env,
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({id: w.quote.id, transaction: {status: 'COMPLETED', quoteId: w.quote.id}})
    expect(balanceOf(fx.sbx, w.accountId)).toBe(75_000_000)
    expect(r.stdout + r.stderr).not.toMatch(/"privateKey"|-----BEGIN/)
  })

  it('`svc quote execute` with only an expired session names the login to run; nothing is debited', async () => {
    const w = await walletQuote()
    const login = await svc(['wallet', 'login', w.accountId, '--json'], {env: fx.sbx.env})
    expect(login.code, login.stderr).toBe(0)
    const {readdirSync, readFileSync, writeFileSync} = await import('node:fs')
    const {join} = await import('node:path')
    const dir = join(fx.sbx.env.SVC_CONFIG_DIR, 'keystore')
    const file = readdirSync(dir)
      .map((f) => join(dir, f))
      .find((f) => JSON.parse(readFileSync(f, 'utf8')).sessionId === login.json().session.id)!
    writeFileSync(
      file,
      JSON.stringify({...JSON.parse(readFileSync(file, 'utf8')), expiresAt: new Date(Date.now() - 1000).toISOString()}),
    )
    const r = await svc(['quote', 'execute', w.quote.id, '--yes', '--json'], {env: fx.sbx.env})
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      code: 'WALLET_SESSION_REQUIRED',
      hint: expect.stringContaining(`svc wallet login ${w.accountId}`),
    })
    expect(balanceOf(fx.sbx, w.accountId)).toBe(100_000_000)
    expect(fx.sbx.emu.db.get<{status: string}>('quotes', w.quote.id)?.status).toBe(w.quote.status)
  })

  it('an embedded-wallet source cannot be executed immediately at quote time (it needs a stamp)', async () => {
    const w = await walletQuote()
    const q = await fx.api.call('POST', '/quotes', {
      body: {
        source: {sourceType: 'ACCOUNT', accountId: w.accountId},
        destination: {destinationType: 'ACCOUNT', accountId: w.quote.destination.accountId},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000_000,
        immediatelyExecute: true,
      },
    })
    expect(q.status).toBe(400)
    expect(q.body.details.errors[0].field).toBe('immediatelyExecute')
  })
})
