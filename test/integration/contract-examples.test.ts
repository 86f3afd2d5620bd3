import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {readContract} from '../helpers/contract.js'
import {api, approvedCustomer} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * The contract's own request examples (../shared/spec/openapi.yaml) are accepted by the sandbox:
 * only the ids of things that must exist here are swapped for real ones, every other value is the
 * example's. The contract check (test/helpers/contract-setup.ts) validates each exchange too.
 */
let sbx: TestSandbox
let doc: Record<string, any>
beforeAll(async () => {
  sbx = await startSandbox()
  doc = await readContract()
})
afterAll(async () => sbx.stop())

const example = (path: string, name: string) => structuredClone(doc.paths[path].post.requestBody.content['application/json'].examples[name].value)
const run = (args: string[]) => svc(args, {env: sbx.env})

describe('usBankAccount (POST /customers/external-accounts, POST /platform/external-accounts)', () => {
  it('is accepted as published: accountInfo.platformAccountId is the account\'s reference, routing number 123456789 passes', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const body = {...example('/customers/external-accounts', 'usBankAccount'), customerId: c.id}
    expect(body.accountInfo).toMatchObject({routingNumber: '123456789', platformAccountId: 'ext_acc_123456'})
    const r = await api(sbx, 'POST', '/customers/external-accounts', body)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({customerId: c.id, currency: 'USD', platformAccountId: 'ext_acc_123456', accountInfo: {accountType: 'USD_ACCOUNT', routingNumber: '123456789', accountNumber: '12345678901'}})
    expect(sbx.emu.db.get('externalAccounts', r.body.id)).toMatchObject({platformAccountId: 'ext_acc_123456'})

    const platform = await api(sbx, 'POST', '/platform/external-accounts', {...example('/platform/external-accounts', 'usBankAccount'), accountInfo: {...body.accountInfo, accountNumber: '12345678902'}})
    expect(platform.status, JSON.stringify(platform.body)).toBe(201)
    expect(platform.body).toMatchObject({platformAccountId: 'ext_acc_123456'})
    expect(platform.body.customerId).toBeUndefined()
  })

  it('two different references for one account are refused, naming the field; nothing is stored', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const before = sbx.emu.db.count('externalAccounts')
    const r = await api(sbx, 'POST', '/customers/external-accounts', {...example('/customers/external-accounts', 'usBankAccount'), customerId: c.id, platformAccountId: 'other-ref'})
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({code: 'INVALID_INPUT', details: {errors: [{field: 'accountInfo.platformAccountId', message: expect.stringMatching(/differs from platformAccountId "other-ref"/)}]}})
    expect(sbx.emu.db.count('externalAccounts')).toBe(before)
  })

  it('the CLI sends a routing number with a bad ABA checksum, and warns on stderr', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const r = await run(['accounts', 'external', 'add', '--customer', c.id, '--type', 'USD_ACCOUNT', '--account-number', '12345678903', '--routing-number', '123456789', '--bank-name', 'Chase Bank', '--beneficiary-name', 'John Doe', '--platform-account-id', 'ext_acc_9', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/accountInfo\.routingNumber fails the ABA routing-number checksum \(3-7-1\); check it for a typo \(sent anyway: the Service checks 9 digits only\)/)
    expect(r.json()).toMatchObject({platformAccountId: 'ext_acc_9', accountInfo: {routingNumber: '123456789'}})
    const good = await run(['accounts', 'external', 'add', '--customer', c.id, '--type', 'USD_ACCOUNT', '--account-number', '12345678904', '--routing-number', '021000021', '--beneficiary-name', 'John Doe', '--json'])
    expect(good.code, good.stderr).toBe(0)
    expect(good.stderr).not.toMatch(/checksum/)
  })
})
