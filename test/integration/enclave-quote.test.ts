import {describe, expect, it} from 'vitest'
import {quoteWalletPayload} from '../../src/emulator/domain/wallet/quote-signing.js'
import {stamp} from '../../src/lib/wallet/index.js'
import {approveInStore, beneficiary, clabeEnding, until} from '../helpers/money.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({paymentCompletionDelayMs: 30})

/** A logged-in wallet holder, approved with terms on file (written straight into the store: KYC is not under test). */
async function approvedHolder() {
  const h = await fx.httpWallet()
  approveInStore(fx.sbx, h.customerId)
  return h
}

describe('quote execute from an embedded wallet', () => {
  it('needs a stamp over the quote payload by a session of the source wallet, then settles to COMPLETED', async () => {
    const h = await approvedHolder()
    const stranger = await approvedHolder()
    expect(
      (await fx.api.call('POST', `/sandbox/internal-accounts/${h.accountId}/fund`, {body: {amount: 100_000_000}}))
        .status,
    ).toBe(200)
    const ext = await fx.api.call('POST', '/customers/external-accounts', {
      body: {
        customerId: h.customerId,
        currency: 'MXN',
        accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
      },
    })
    expect(ext.status).toBe(201)
    const q = await fx.api.call('POST', '/quotes', {
      body: {
        source: {sourceType: 'ACCOUNT', accountId: h.accountId},
        destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 25_000_000,
      },
    })
    expect(q.status).toBe(201)
    const execute = (headers: Record<string, string> = {}) =>
      fx.api.call('POST', `/quotes/${q.body.id}/execute`, {headers})

    const missing = await execute()
    expect([missing.status, missing.body.code]).toEqual([401, 'WALLET_SIGNATURE_MISSING'])
    const payloadToSign = missing.body.details.payloadToSign
    expect(payloadToSign).toBe(quoteWalletPayload({...q.body, _: {sourceAccountId: h.accountId}}))
    expect(JSON.parse(payloadToSign)).toMatchObject({
      operation: 'quote.execute',
      quoteId: q.body.id,
      sourceAccountId: h.accountId,
      sendingAmount: 25_000_000,
    })

    const foreign = await execute({'service-wallet-signature': stamp(payloadToSign, stranger.s.key.privateKey)})
    expect([foreign.status, foreign.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID'])
    const wrongPayload = await execute({
      'service-wallet-signature': stamp(payloadToSign.replace('25000000', '1'), h.s.key.privateKey),
    })
    expect([wrongPayload.status, wrongPayload.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID'])
    expect(fx.sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', h.accountId)!.balance.amount).toBe(
      100_000_000,
    )

    const ok = await execute({'service-wallet-signature': stamp(payloadToSign, h.s.key.privateKey)})
    expect(ok.status).toBe(200)
    expect(fx.sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', h.accountId)!.balance.amount).toBe(
      75_000_000,
    )
    const tx = await until(
      () => fx.api.call('GET', `/transactions/${q.body.transactionId}`),
      (r) => r.body.status === 'COMPLETED',
    )
    expect(tx.body).toMatchObject({status: 'COMPLETED', quoteId: q.body.id})
  })
})
