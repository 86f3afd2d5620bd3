import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {api, approvedCustomer} from '../helpers/money.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({cardProcessingDelayMs: 50})
})
afterAll(async () => sbx.stop())

let n = 0

/** An APPROVED customer with a funded USD account and an ACTIVE card issued through the CLI. */
async function cardholder(fund = 100_000) {
  const c = await approvedCustomer(sbx, ['USD'])
  const account = c.account('USD')
  if (fund)
    expect((await api(sbx, 'POST', `/sandbox/internal-accounts/${account}/fund`, {amount: fund})).status).toBe(200)
  return {id: c.id, account}
}

async function issue(customer: string, account: string, extra: string[] = []) {
  return sbx.run([
    'cards',
    'issue',
    '--customer',
    customer,
    '--account',
    account,
    '--platform-card-id',
    `emp-${100 + ++n}`,
    ...extra,
    '--json',
  ])
}

describe('cards: issue, list, get', () => {
  it('issues a card to an APPROVED customer: PROCESSING, then ACTIVE with --wait; get and list show it without the card number', async () => {
    const h = await cardholder()
    const r = await issue(h.id, h.account, ['--wait', '--max-spend', '250.00'])
    expect(r.code, r.stderr).toBe(0)
    const card = r.json()
    expect(card).toMatchObject({
      cardholderId: h.id,
      state: 'ACTIVE',
      stateReason: null,
      form: 'VIRTUAL',
      brand: 'VISA',
      fundingSources: [h.account],
      maxSpendPerTransaction: 25_000,
      currency: 'USD',
    })
    expect(card.id).toMatch(/^Card:/)
    expect(card.last4).toMatch(/^\d{4}$/)
    expect(JSON.stringify(card)).not.toMatch(/"pan"|"cvv"|_/)
    expect(r.stderr).toMatch(/Issued Card:/)
    const stored = sbx.emu.db.get<{state: string}>('cards', card.id)!
    expect(stored.state).toBe('ACTIVE')
    expect(
      sbx.emu.webhooks
        .list()
        .filter((e) => e.type === 'CARD.STATE_CHANGE' && (e.data as {id: string}).id === card.id)
        .map((e) => (e.data as {state: string}).state),
    ).toEqual(['ACTIVE'])

    const got = await sbx.run(['cards', 'get', card.id, '--json'])
    expect(got.code).toBe(0)
    expect(got.json()).toEqual(card)
    const human = await sbx.run(['cards', 'get', card.id])
    expect(human.stdout).toMatch(new RegExp(`•••• ${card.last4}`))
    expect(human.stdout).toMatch(/USD 250\.00/)

    for (const filter of [
      ['--customer', h.id],
      ['--account', h.account],
      ['--platform-card-id', card.platformCardId],
      ['--customer', h.id, '--state', 'ACTIVE'],
    ]) {
      const l = await sbx.run(['cards', 'list', ...filter, '--json'])
      expect(l.code, l.stderr).toBe(0)
      expect(l.json().data.map((c: {id: string}) => c.id)).toEqual([card.id])
    }
    const none = await sbx.run(['cards', 'list', '--customer', h.id, '--state', 'FROZEN', '--json'])
    expect(none.json()).toMatchObject({data: [], hasMore: false})
  })

  it('lists with keyset paging: --limit pages follow the cursor and --all merges them', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const h = await cardholder(0)
      // --wait: listed by --state ACTIVE below (an in-process run is quicker than the issuance delay)
      const r = await issue(h.id, h.account, ['--wait'])
      expect(r.code, r.stderr).toBe(0)
      ids.push(r.json().id)
    }
    const first = await sbx.run(['cards', 'list', '--limit', '2', '--state', 'ACTIVE', '--order', 'asc', '--json'])
    const page1 = first.json()
    expect(page1.data).toHaveLength(2)
    expect(page1.hasMore).toBe(true)
    const second = await sbx.run([
      'cards',
      'list',
      '--limit',
      '2',
      '--state',
      'ACTIVE',
      '--order',
      'asc',
      '--cursor',
      page1.nextCursor,
      '--json',
    ])
    const seen = [...page1.data, ...second.json().data].map((c: {id: string}) => c.id)
    expect(new Set(seen).size).toBe(seen.length)
    const all = await sbx.run(['cards', 'list', '--all', '--order', 'asc', '--json'])
    const allIds = all.json().data.map((c: {id: string}) => c.id)
    expect(allIds.slice(-3)).toEqual(ids)
  })

  it('refuses a card for a customer whose KYC is not APPROVED (CARDHOLDER_KYC_NOT_APPROVED, exit 1) and stores nothing', async () => {
    const r0 = await api(sbx, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Not Yet',
      currencies: ['USD'],
    })
    const account = sbx.emu.db
      .all<{id: string; customerId: string}>('internalAccounts')
      .find((a) => a.customerId === r0.body.id)!.id
    const before = sbx.emu.db.count('cards')
    const r = await issue(r0.body.id, account)
    expect(r.code).toBe(1)
    expect(r.json().error).toMatchObject({code: 'CARDHOLDER_KYC_NOT_APPROVED', status: 400})
    expect(sbx.emu.db.count('cards')).toBe(before)
  })

  it('refuses a second live card (CARD_LIMIT_REACHED, exit 6); closing the first frees the slot', async () => {
    const h = await cardholder(0)
    const first = (await issue(h.id, h.account, ['--wait'])).json()
    const second = await issue(h.id, h.account)
    expect(second.code).toBe(6)
    expect(second.json().error).toMatchObject({code: 'CARD_LIMIT_REACHED', status: 409})
    expect((await sbx.run(['cards', 'list', '--customer', h.id, '--json'])).json().data).toHaveLength(1)
    expect((await sbx.run(['cards', 'close', first.id, '--yes', '--json'])).code).toBe(0)
    const third = await issue(h.id, h.account, ['--wait'])
    expect(third.code, third.stderr).toBe(0)
    expect(third.json().state).toBe('ACTIVE')
  })

  it('refuses a funding account of another customer (FUNDING_SOURCE_INELIGIBLE)', async () => {
    const a = await cardholder(0)
    const b = await cardholder(0)
    const r = await issue(a.id, b.account)
    expect(r.code).toBe(1)
    expect(r.json().error.code).toBe('FUNDING_SOURCE_INELIGIBLE')
  })

  it('issuance suffixes: 001 stays PROCESSING (--wait exits 8 at --timeout), 002 is CLOSED by the issuer', async () => {
    const a = await cardholder(0)
    const stuck = await sbx.run([
      'cards',
      'issue',
      '--customer',
      a.id,
      '--account',
      a.account,
      '--platform-card-id',
      'emp-001',
      '--wait',
      '--timeout',
      '1s',
      '--json',
    ])
    expect(stuck.code).toBe(8)
    expect(stuck.json().error.code).toBe('TIMEOUT')
    const b = await cardholder(0)
    const rejected = await sbx.run([
      'cards',
      'issue',
      '--customer',
      b.id,
      '--account',
      b.account,
      '--platform-card-id',
      'emp-002',
      '--wait',
      '--json',
    ])
    expect(rejected.code, rejected.stderr).toBe(0)
    expect(rejected.json()).toMatchObject({state: 'CLOSED', stateReason: 'ISSUER_REJECTED'})
  })
})

describe('cards: state machine', () => {
  it('freeze, unfreeze, close; every refused move exits 6 with its code and changes nothing', async () => {
    const h = await cardholder(0)
    const card = (await issue(h.id, h.account, ['--wait'])).json()
    const state = () => sbx.emu.db.get<{state: string}>('cards', card.id)!.state
    const expectRefused = async (args: string[], code: string, left: string) => {
      const r = await sbx.run([...args, card.id, '--json'])
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(6)
      expect(r.json().error).toMatchObject({code, status: 409})
      expect(state()).toBe(left)
      const human = await sbx.run([...args, card.id])
      expect(human.code).toBe(6)
      expect(human.stderr).toContain(code)
    }
    await expectRefused(['cards', 'unfreeze'], 'INVALID_STATE_TRANSITION', 'ACTIVE')
    const frozen = await sbx.run(['cards', 'freeze', card.id, '--json'])
    expect(frozen.code).toBe(0)
    expect(frozen.json().state).toBe('FROZEN')
    await expectRefused(['cards', 'freeze'], 'INVALID_STATE_TRANSITION', 'FROZEN')
    expect((await sbx.run(['cards', 'unfreeze', card.id, '--json'])).json().state).toBe('ACTIVE')
    expect((await sbx.run(['cards', 'freeze', card.id, '--json'])).json().state).toBe('FROZEN')
    const closed = await sbx.run(['cards', 'close', card.id, '--yes', '--json'])
    expect(closed.code).toBe(0)
    expect(closed.json()).toMatchObject({state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM'})
    await expectRefused(['cards', 'close', '--yes'], 'CARD_ALREADY_CLOSED', 'CLOSED')
    await expectRefused(['cards', 'unfreeze'], 'CARD_NOT_MUTABLE', 'CLOSED')
    await expectRefused(['cards', 'freeze'], 'CARD_NOT_MUTABLE', 'CLOSED')
    const changes = sbx.emu.webhooks
      .list()
      .filter((e) => e.type === 'CARD.STATE_CHANGE' && (e.data as {id: string}).id === card.id)
    expect(changes.map((e) => (e.data as {state: string}).state)).toEqual([
      'ACTIVE',
      'FROZEN',
      'ACTIVE',
      'FROZEN',
      'CLOSED',
    ])
  })

  it('a PROCESSING card cannot be frozen (INVALID_STATE_TRANSITION)', async () => {
    const h = await cardholder(0)
    const card = (
      await sbx.run([
        'cards',
        'issue',
        '--customer',
        h.id,
        '--account',
        h.account,
        '--platform-card-id',
        'emp-001',
        '--json',
      ])
    ).json()
    const r = await sbx.run(['cards', 'freeze', card.id, '--json'])
    expect(r.code).toBe(6)
    expect(r.json().error.code).toBe('INVALID_STATE_TRANSITION')
  })
})

describe('cards: bad input is refused before any request (exit 2)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['issue without --account', ['cards', 'issue', '--customer', 'Customer:abc'], /account/],
    [
      'issue with a bad customer id',
      ['cards', 'issue', '--customer', 'Quote:abc', '--account', 'InternalAccount:x'],
      /cardholderId/,
    ],
    [
      'issue with a bad account id',
      ['cards', 'issue', '--customer', 'Customer:abc', '--account', 'ExternalAccount:x'],
      /fundingSources\.0/,
    ],
    [
      'issue with a bad limit',
      ['cards', 'issue', '--customer', 'Customer:abc', '--account', 'InternalAccount:x', '--max-spend', '12.5.0'],
      /amount/,
    ],
    [
      'issue with a zero limit',
      ['cards', 'issue', '--customer', 'Customer:abc', '--account', 'InternalAccount:x', '--max-spend-minor', '0'],
      /maxSpendPerTransaction/,
    ],
    ['get with a bad id', ['cards', 'get', 'Customer:abc'], /cardId/],
    ['freeze with a bad id', ['cards', 'freeze', 'nope'], /cardId/],
    ['list with a bad state', ['cards', 'list', '--state', 'OPEN'], /state/],
    ['transactions list with a bad status', ['cards', 'transactions', 'list', '--status', 'REFUNDED'], /status/],
    ['transactions get with a bad id', ['cards', 'transactions', 'get', 'Transaction:abc'], /cardTransactionId/],
    ['simulator unknown', ['sandbox', 'card', 'refund', 'Card:abc'], /simulator|Expected/],
    [
      'authorization without amount and descriptor',
      ['sandbox', 'card', 'authorization', 'Card:abc'],
      /amount[\s\S]*merchant\.descriptor|merchant\.descriptor[\s\S]*amount/,
    ],
    [
      'authorization with a bad amount and mcc',
      ['sandbox', 'card', 'authorization', 'Card:abc', '--amount', '1,2x', '--descriptor', 'X'],
      /amount/,
    ],
    [
      'authorization with a bad mcc',
      [
        'sandbox',
        'card',
        'authorization',
        'Card:abc',
        '--amount-minor',
        '100',
        '--currency',
        'USD',
        '--descriptor',
        'X',
        '--mcc',
        '58',
      ],
      /merchant\.mcc/,
    ],
    [
      'authorization with a bad country',
      [
        'sandbox',
        'card',
        'authorization',
        'Card:abc',
        '--amount-minor',
        '100',
        '--currency',
        'USD',
        '--descriptor',
        'X',
        '--country',
        'XX',
      ],
      /merchant\.country/,
    ],
    [
      'authorization with too many decimals',
      ['sandbox', 'card', 'authorization', 'Card:abc', '--amount', '1.234', '--currency', 'USD', '--descriptor', 'X'],
      /amount/,
    ],
    [
      'clearing without --transaction',
      ['sandbox', 'card', 'clearing', 'Card:abc', '--amount-minor', '100'],
      /cardTransactionId/,
    ],
    [
      'return with a zero amount',
      ['sandbox', 'card', 'return', 'Card:abc', '--transaction', 'CardTransaction:x', '--amount-minor', '0'],
      /amount/,
    ],
    [
      'return_reversal with an amount',
      ['sandbox', 'card', 'return_reversal', 'Card:abc', '--transaction', 'CardTransaction:x', '--amount-minor', '5'],
      /amount/,
    ],
    [
      'clearing with a bad transaction id',
      ['sandbox', 'card', 'clearing', 'Card:abc', '--transaction', 'Transaction:x', '--amount-minor', '5'],
      /cardTransactionId/,
    ],
  ]
  it.each(cases)('%s', async (_name, args, field) => {
    const before = sbx.requestCount()
    const r = await sbx.run([...args, '--json'])
    expect(r.code, r.stdout + r.stderr).toBe(2)
    expect(r.stdout + r.stderr).toMatch(field)
    expect(sbx.requestCount()).toBe(before)
  })
})

/** No string or number anywhere in a JSON value equals `secret`. */
function noValueIs(v: unknown, secret: string): boolean {
  if (Array.isArray(v)) return v.every((x) => noValueIs(x, secret))
  if (v && typeof v === 'object') return Object.values(v).every((x) => noValueIs(x, secret))
  return String(v) !== secret
}

describe('cards reveal', () => {
  it('writes the details link to a new 0600 file; the link, PAN and CVV never reach stdout, stderr, --json or --debug', async () => {
    const h = await cardholder(0)
    const card = (await issue(h.id, h.account, ['--wait'])).json()
    const out = join(sbx.dir, `reveal-${card.id.slice(5, 13)}.json`)
    const r = await sbx.run(['cards', 'reveal', card.id, '--out', out, '--json', '--debug'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({cardId: card.id, out})
    expect(statSync(out).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(readFileSync(out, 'utf8'))
    expect(saved.panEmbedUrl).toMatch(/\/sandbox\/hosted\/cards\/reveal\//)
    const token = saved.panEmbedUrl.split('/').at(-1)
    const page = await (await fetch(saved.panEmbedUrl)).text()
    const pan = /id="pan">(\d{16})</.exec(page)![1]
    const cvv = /id="cvv">(\d{3})</.exec(page)![1]
    expect(pan.endsWith(card.last4)).toBe(true)
    for (const secret of [pan, token]) {
      expect(r.stdout).not.toContain(secret)
      expect(r.stderr).not.toContain(secret)
    }
    // Three digits occur by chance in ids and timestamps: the CVV must not appear as a value or be named.
    expect(noValueIs(r.json(), cvv)).toBe(true)
    expect(r.stdout + r.stderr).not.toMatch(/cvv|panEmbedUrl":\s*"http/i)
    expect(r.stderr).toMatch(/\[REDACTED\]/)
    // One view per link: the page is gone once seen.
    expect((await fetch(saved.panEmbedUrl)).status).toBe(404)
    // The card resource never carries the details.
    const got = await sbx.run(['cards', 'get', card.id, '--json', '--debug'])
    expect(got.stdout + got.stderr).not.toContain(pan)
    expect(noValueIs(got.json(), cvv)).toBe(true)
    expect(got.stdout + got.stderr).not.toMatch(/cvv/i)
  })

  it('shows the link on a terminal only after the warning and a confirmation; declining requests nothing', async () => {
    const h = await cardholder(0)
    const card = (await issue(h.id, h.account, ['--wait'])).json()
    const screen = async (answer: string) =>
      (
        await onTerminal(['cards', 'reveal', card.id], {
          env: sbx.env,
          answers: [[new RegExp(`Reveal ${card.id}`), answer]],
        })
      ).raw
    const reveals = () => sbx.emu.db.sql.rows('SELECT id FROM cardReveals').length
    const before = reveals()
    const refused = await screen('n\r')
    expect(refused).toContain('full card number and CVV')
    expect(refused).not.toContain('/sandbox/hosted/cards/reveal/')
    expect(reveals()).toBe(before)
    const shown = await screen('y\r')
    const link = /(http:\/\/\S+\/sandbox\/hosted\/cards\/reveal\/[A-Za-z0-9_-]+)/.exec(shown)![1]
    expect(shown.indexOf('full card number and CVV')).toBeLessThan(shown.indexOf(link))
    expect(await (await fetch(link)).text()).toMatch(new RegExp(`id="pan">\\d{12}${card.last4}<`))
  })

  it('refuses to print the link off a terminal or under --json, and an existing --out file, before any request', async () => {
    const before = sbx.requestCount()
    const plain = await sbx.run(['cards', 'reveal', 'Card:abc'])
    expect(plain.code).toBe(2)
    expect(plain.stderr).toMatch(/only on a terminal/)
    const json = await sbx.run(['cards', 'reveal', 'Card:abc', '--json'])
    expect(json.code).toBe(2)
    const existing = join(sbx.dir, 'exists.json')
    await import('node:fs').then((fs) => fs.writeFileSync(existing, 'x'))
    const clash = await sbx.run(['cards', 'reveal', 'Card:abc', '--out', existing])
    expect(clash.code).toBe(2)
    expect(readFileSync(existing, 'utf8')).toBe('x')
    expect(sbx.requestCount()).toBe(before)
  })
})
