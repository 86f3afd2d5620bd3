import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AGENT_PERMISSIONS} from '../../src/lib/schemas/agents.js'
import {Contract, type Operation} from '../helpers/contract.js'
import {
  absentPath,
  brokenBody,
  isAgentOperation,
  needsCredentials,
  neededHeaders,
  neededQuery,
  parameters,
  realPath,
  UNBROKEN,
  storeFingerprint,
  validBody,
} from '../helpers/contract-sweep.js'
import {approvedCustomer, until, usdBankAccount} from '../helpers/money.js'
import {agentWith, call, tokenWith} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Every operation of the published contract, driven from the contract alone (Schemathesis-style):
 * without credentials it is 401; with a path naming nothing it is 404; with a body broken in one
 * field it is 400 naming that field. Each refusal changes nothing the sandbox stores, and its body
 * is checked against the contract's schema for that status by the contract check
 * (test/helpers/contract-setup.ts), which also counts the answers for docs/fidelity.md.
 */
let sbx: TestSandbox
let contract: Contract
let platformAuth: string
let agentAuth: string
let customerId: string
/** A token that may only read, and an agent that may only list transactions: what writes need, they lack. */
let readerAuth: string
let readerAgentAuth: string
beforeAll(async () => {
  sbx = await startSandbox()
  contract = await Contract.load()
  platformAuth = `Basic ${Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')}`
  const owner = await approvedCustomer(sbx, ['USD'])
  customerId = owner.id
  // SCA on: its endpoints answer 409 while the platform does not require it, before any other check.
  await call(sbx, platformAuth, 'PATCH', '/config', {sandbox: {scaRequired: true}})
  agentAuth = (await agentWith(sbx, owner.id, [...AGENT_PERMISSIONS])).auth
  readerAuth = (await tokenWith(sbx, ['VIEW'])).auth
  readerAgentAuth = (await agentWith(sbx, owner.id, ['VIEW_TRANSACTIONS'])).auth
})
afterAll(async () => sbx.stop())

/** The operations a negative check above broke one input of (a body field or a query parameter). */
const brokenOps = new Set<string>()

const documents = (op: Operation, status: string) =>
  status in ((contract.operation(op).responses ?? {}) as Record<string, unknown>)
const hasPathParameter = (op: Operation) => op.template.includes('{')
const byKey = (key: string) => contract.operations.find((op) => op.key === key)!
const authFor = (op: Operation) => (isAgentOperation(op) ? agentAuth : platformAuth)

/** The request, with what the operation needs besides (required query parameters, an Idempotency-Key). */
async function refusal(
  op: Operation,
  auth: string | undefined,
  body: unknown,
  query = neededQuery(contract, op, customerId),
  path = absentPath(contract, op),
): Promise<{status: number; body: any; unchanged: boolean}> {
  const before = storeFingerprint(sbx)
  path += query
  const r = await call(sbx, auth, op.method.toUpperCase(), path, body, neededHeaders(contract, op))
  return {...r, unchanged: storeFingerprint(sbx) === before}
}

describe('every operation, from the contract', () => {
  it('without credentials: 401 with the contract body, nothing changed', async () => {
    const ops = contract.operations.filter((op) => needsCredentials(contract, op) && documents(op, '401'))
    expect(ops.length).toBeGreaterThan(140)
    const off: string[] = []
    for (const op of ops) {
      const r = await refusal(op, undefined, validBody(contract, op))
      if (r.status !== 401 || r.body?.code === undefined || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.body?.code}${r.unchanged ? '' : ' (changed the store)'}`)
    }
    expect(off).toEqual([])
  })

  it('with credentials that lack the permission (a read-only token, an agent that may only list): 403, nothing changed', async () => {
    const ops = contract.operations.filter((op) => documents(op, '403'))
    expect(ops.length).toBeGreaterThan(15)
    const off: string[] = []
    for (const op of ops) {
      const r = await refusal(op, isAgentOperation(op) ? readerAgentAuth : readerAuth, validBody(contract, op))
      if (r.status !== 403 || r.body?.code !== 'FORBIDDEN' || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.body?.code}`)
    }
    expect(off).toEqual([])
  })

  it('naming something that does not exist: 404, nothing changed', async () => {
    const ops = contract.operations.filter((op) => hasPathParameter(op) && documents(op, '404'))
    expect(ops.length).toBeGreaterThan(80)
    const off: string[] = []
    for (const op of ops) {
      const r = await refusal(op, authFor(op), validBody(contract, op))
      if (r.status !== 404 || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.body?.code} ${JSON.stringify(r.body?.details ?? {}).slice(0, 120)}`)
    }
    expect(off).toEqual([])
  })

  it('naming a customer that does not exist (path, query or body): 404 USER_NOT_FOUND, nothing changed', async () => {
    // The contract documents these 404s as "Customer not found" (USER_NOT_FOUND), the spec's code too (§7).
    const unknown = 'Customer:00000000-0000-4000-8000-00000000a404'
    const takesCustomer = (op: Operation) =>
      op.template.includes('{customerId}') ||
      parameters(contract, op).some((p) => p.in === 'query' && p.name === 'customerId' && p.required) ||
      Boolean((validBody(contract, op) as {customerId?: unknown} | undefined)?.customerId)
    const ops = contract.operations.filter((op) => documents(op, '404') && !isAgentOperation(op) && takesCustomer(op))
    expect(ops.length).toBeGreaterThan(15)
    const off: string[] = []
    for (const op of ops) {
      const body = validBody(contract, op) as Record<string, unknown> | undefined
      const r = await refusal(
        op,
        platformAuth,
        body?.customerId ? {...body, customerId: unknown} : body,
        neededQuery(contract, op, unknown),
      )
      if (r.status !== 404 || r.body?.code !== 'USER_NOT_FOUND' || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.body?.code} ${JSON.stringify(r.body?.details ?? {}).slice(0, 300)}`)
    }
    expect(off).toEqual([])
  })

  it('a body broken in one field: 400 naming that field, nothing changed', async () => {
    const ops = contract.operations.filter((op) => !hasPathParameter(op) && documents(op, '400'))
    const off: string[] = []
    let checked = 0
    for (const op of ops) {
      const broken = brokenBody(contract, op)
      if (!broken) continue
      checked++
      brokenOps.add(op.key)
      const r = await refusal(op, authFor(op), broken.body)
      const fields = ((r.body?.details?.errors ?? []) as Array<{field: string}>).map((e) => e.field)
      if (
        r.status !== 400 ||
        !fields.some((f) => f === broken.field || f.startsWith(`${broken.field}.`)) ||
        !r.unchanged
      )
        off.push(`${op.key} [${broken.field}] -> ${r.status} ${r.body?.code} ${fields.join(',')}`)
    }
    expect(checked).toBeGreaterThan(20)
    expect(off).toEqual([])
  })

  it('a body broken in one field, on things that exist: 400 naming that field, nothing changed', async () => {
    // SCA off here: a quote would need an SCA session, and executing it one (409 before the body is read).
    await call(sbx, platformAuth, 'PATCH', '/config', {sandbox: {scaRequired: false}})
    const c = await approvedCustomer(sbx, ['USD'])
    const usd = c.account('USD')
    await call(sbx, platformAuth, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(usd)}/fund`, {
      amount: 50_000,
    })
    const ext = await call(sbx, platformAuth, 'POST', '/customers/external-accounts', usdBankAccount(c.id))
    const {customerId: _, ...platformAccount} = usdBankAccount(c.id)
    const platformExt = await call(sbx, platformAuth, 'POST', '/platform/external-accounts', {
      ...platformAccount,
      accountInfo: {...platformAccount.accountInfo, accountNumber: '55443322'},
    })
    const quote = await call(sbx, platformAuth, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: usd},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    })
    const sent = await call(sbx, platformAuth, 'POST', '/transfer-out', {
      source: {accountId: usd},
      destination: {accountId: ext.body.id},
      amount: 1_000,
    })
    // Settled first: a payment completing in the background would change the store during a refusal.
    await until(
      () => call(sbx, platformAuth, 'GET', `/transactions/${sent.body.id}`),
      (t) => t.body.status === 'COMPLETED',
    )
    const agent = await agentWith(sbx, c.id, ['VIEW_TRANSACTIONS'])
    const card = await call(sbx, platformAuth, 'POST', '/cards', {
      cardholderId: c.id,
      platformCardId: 'sweep-card',
      form: 'VIRTUAL',
      fundingSources: [usd],
    })
    // Issued first: an issuance completing in the background would change the store during a refusal.
    await until(
      () => call(sbx, platformAuth, 'GET', `/cards/${card.body.id}`),
      (x) => x.body.state === 'ACTIVE',
    )
    const link = await call(
      sbx,
      platformAuth,
      'POST',
      '/stablecoin-provider-accounts',
      {provider: 'BRALE', apiClientId: 'sweep', apiClientSecret: 'sweep-secret'},
      {'idempotency-key': 'sweep-link'},
    )
    const coin = await call(
      sbx,
      platformAuth,
      'POST',
      '/stablecoins',
      {
        providerTokenIdentifier: 'SWEEP',
        networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
        network: 'L2',
        stablecoinProviderAccountId: link.body.id,
      },
      {'idempotency-key': 'sweep-coin'},
    )
    const ids: Record<string, string> = {
      customerId: c.id,
      externalAccountId: ext.body.id,
      'platform:externalAccountId': platformExt.body.id,
      quoteId: quote.body.id,
      transactionId: sent.body.id,
      accountId: usd,
      'internal-accounts:id': usd,
      agentId: agent.id,
      'cards:id': card.body.id,
      'sandbox:id': card.body.id,
      stablecoinId: coin.body.id,
    }
    expect(
      Object.values(ids).every((id) => /^[A-Za-z]+:/.test(id)),
      JSON.stringify(ids),
    ).toBe(true)
    const off: string[] = []
    let checked = 0
    for (const op of contract.operations.filter((o) => hasPathParameter(o) && documents(o, '400'))) {
      const path = realPath(op, ids)
      const broken = path && brokenBody(contract, op)
      if (!path || !broken) continue
      checked++
      brokenOps.add(op.key)
      const r = await refusal(op, authFor(op), broken.body, neededQuery(contract, op, c.id), path)
      const fields = ((r.body?.details?.errors ?? []) as Array<{field: string}>).map((e) => e.field)
      if (
        r.status !== 400 ||
        !fields.some((f) => f === broken.field || f.startsWith(`${broken.field}.`)) ||
        !r.unchanged
      )
        off.push(`${op.key} [${broken.field}] -> ${r.status} ${r.body?.code} ${fields.join(',')}`)
    }
    await call(sbx, platformAuth, 'PATCH', '/config', {sandbox: {scaRequired: true}})
    expect(checked).toBeGreaterThan(15)
    expect(off).toEqual([])
  })

  it('every query parameter broken alone (missing when required, off its enum, not an integer, not an id): 400 naming it, nothing changed', async () => {
    const off: string[] = []
    let checked = 0
    for (const op of contract.operations.filter((o) => documents(o, '400'))) {
      for (const p of parameters(contract, op).filter((x) => x.in === 'query')) {
        const q = new URLSearchParams(neededQuery(contract, op, customerId))
        const schema = contract.deref(p.schema ?? {})
        const example = String(p.example ?? schema.example ?? '')
        if (p.required) q.delete(p.name)
        else if (schema.enum) q.set(p.name, 'NOT_A_VALUE')
        else if (schema.type === 'integer') q.set(p.name, 'not-a-number')
        else if (/^[A-Z][A-Za-z]+:[0-9a-f-]{8,}$/.test(example)) q.set(p.name, 'not-an-id')
        else continue
        checked++
        brokenOps.add(op.key)
        // A path naming nothing: the query is checked before anything is looked up.
        const r = await refusal(op, authFor(op), validBody(contract, op), `?${q}`)
        const fields = ((r.body?.details?.errors ?? []) as Array<{field: string}>).map((e) => e.field)
        if (r.status !== 400 || !fields.includes(String(p.name)) || !r.unchanged)
          off.push(`${op.key} [${p.name}] -> ${r.status} ${r.body?.code} ${fields.join(',')}`)
      }
    }
    expect(checked).toBeGreaterThan(30)
    expect(off).toEqual([])
  })

  it('where the schema gives the sweep nothing to break (free strings, oneOf bodies): one field broken by hand, 400 naming it', async () => {
    const inviterUma = (await call(sbx, platformAuth, 'GET', `/customers/${customerId}`)).body.umaAddress
    const invitation = await call(sbx, platformAuth, 'POST', '/invitations', {inviterUma})
    const cases: Array<[string, string, unknown, string]> = [
      ['GET /discoveries', '/discoveries?country=Philippines', undefined, 'country'],
      [
        'GET /receiver/uma/{receiverUmaAddress}',
        absentPath(contract, byKey('GET /receiver/uma/{receiverUmaAddress}')),
        undefined,
        'customerId',
      ],
      [
        'GET /receiver/external-account/{accountId}',
        absentPath(contract, byKey('GET /receiver/external-account/{accountId}')),
        undefined,
        'customerId',
      ],
      ['POST /customers', '/customers', {customerType: 'ROBOT', fullName: 'Ada'}, 'customerType'],
      [
        'PATCH /customers/{customerId}',
        `/customers/${customerId}`,
        {customerType: 'INDIVIDUAL', fullName: 12345},
        'fullName',
      ],
      [
        'POST /invitations/{invitationCode}/claim',
        `/invitations/${encodeURIComponent(invitation.body.code)}/claim`,
        {inviteeUma: 12345},
        'inviteeUma',
      ],
      [
        'POST /stablecoin-provider-accounts',
        '/stablecoin-provider-accounts',
        {provider: 'BRALE', apiClientId: 'sweep-hand', apiClientSecret: 12345},
        'apiClientSecret',
      ],
    ]
    const off: string[] = []
    for (const [key, path, body, field] of cases) {
      const op = byKey(key)
      brokenOps.add(key)
      const r = await refusal(op, platformAuth, body, '', path)
      const fields = ((r.body?.details?.errors ?? []) as Array<{field: string}>).map((e) => e.field)
      if (r.status !== 400 || !fields.includes(field) || !r.unchanged)
        off.push(`${key} [${field}] -> ${r.status} ${r.body?.code} ${fields.join(',')}`)
    }
    expect(off).toEqual([])
  })

  it('every operation that takes a JSON body or query parameters had one broken above, or is listed with why not', () => {
    const takesInput = (op: Operation) =>
      Boolean(contract.requestFor(op)?.content.includes('application/json')) ||
      parameters(contract, op).some((p) => p.in === 'query')
    const missed = contract.operations.filter((op) => takesInput(op) && !brokenOps.has(op.key) && !(op.key in UNBROKEN))
    expect(missed.map((op) => op.key)).toEqual([])
    // The exemptions stay true: none of them was in fact broken.
    expect(Object.keys(UNBROKEN).filter((k) => brokenOps.has(k))).toEqual([])
  })
})
