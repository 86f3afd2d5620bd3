import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * --dry-run where the request cannot be built without a lookup (refused, naming what to pass
 * instead), and where a secret would be asked for (not asked: it is shown redacted). Nothing is sent.
 */
let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

const ID = '0b6f6a52-2c8f-4d8e-9a51-6f1d2d0c4e7a'

async function dry(args: string[]) {
  const before = sbx.requestCount()
  const r = await sbx.run([...args, '--dry-run', '--json'])
  expect(sbx.requestCount(), 'nothing was sent').toBe(before)
  return r
}

describe('--dry-run refuses what it cannot describe without a lookup, and asks for no secret', () => {
  it.each([
    [
      'agents me quote --send (the account currency)',
      ['agents', 'me', 'quote', '--from', `InternalAccount:${ID}`, '--to', `ExternalAccount:${ID}`, '--send', '1.00'],
      /currency of InternalAccount:\S+ is not looked up to convert --send 1\.00/,
    ],
    [
      'agents me transfer --amount (the account currency)',
      [
        'agents',
        'me',
        'transfer',
        '--out',
        '--account',
        `InternalAccount:${ID}`,
        '--external',
        `ExternalAccount:${ID}`,
        '--amount',
        '1.00',
      ],
      /currency of InternalAccount:\S+ is not looked up to convert --amount 1\.00/,
    ],
    [
      'customers terms --accept without --version and --type',
      ['customers', 'terms', `Customer:${ID}`, '--accept'],
      /the current terms version and the customer type are not looked up/,
    ],
    [
      'webhooks trigger of a recipe type',
      ['webhooks', 'trigger', 'OUTGOING_PAYMENT.COMPLETED'],
      /OUTGOING_PAYMENT\.COMPLETED is made by a recipe of several/,
    ],
  ])('%s: usage error, exit 2', async (_what, args, message) => {
    const r = await dry(args)
    expect(r.code, r.stderr).toBe(2)
    expect(r.json().error.reason).toMatch(message)
  })

  it('agents me quote --amount-minor is described as sent', async () => {
    const r = await dry([
      'agents',
      'me',
      'quote',
      '--from',
      `InternalAccount:${ID}`,
      '--to',
      `ExternalAccount:${ID}`,
      '--amount-minor',
      '150',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().request).toMatchObject({
      method: 'POST',
      body: {lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 150},
    })
  })

  it('kyc confirm-email without --code and no terminal: not asked, shown redacted', async () => {
    const r = await dry(['kyc', 'confirm-email', `Customer:${ID}`])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().request).toMatchObject({method: 'POST', body: {code: '[REDACTED]'}})
  })

  it('wallet credentials add --type OAUTH without a token on stdin: not asked, shown redacted', async () => {
    const r = await dry(['wallet', 'credentials', 'add', `InternalAccount:${ID}`, '--type', 'OAUTH'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().request).toMatchObject({
      method: 'POST',
      body: {type: 'OAUTH', accountId: `InternalAccount:${ID}`, oidcToken: '[REDACTED]'},
    })
  })

  it('sca factors confirm: the TOTP secret and code are shown redacted', async () => {
    const before = sbx.requestCount()
    const d = await sbx.run(
      [
        'sca',
        'factors',
        'confirm',
        `Customer:${ID}`,
        '--type',
        'TOTP',
        '--secret-stdin',
        '--code',
        '123456',
        '--dry-run',
        '--json',
      ],
      {input: 'JBSWY3DPEHPK3PXP'},
    )
    expect(d.code, d.stderr).toBe(0)
    expect(sbx.requestCount()).toBe(before)
    expect(d.json().request.body).toEqual({type: 'TOTP', secret: '[REDACTED]', code: '[REDACTED]'})
    expect(d.stdout + d.stderr).not.toContain('JBSWY3DPEHPK3PXP')
  })
})
