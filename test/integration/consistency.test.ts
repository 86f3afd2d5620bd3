import {cpSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {clabeAccountArgs, quoteArgs} from '../helpers/money.js'
import {individualArgs} from '../helpers/kyc.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

describe('one name per concept, old spellings kept', () => {
  it('customers create/update take --id-type and --identifier (typed, any case) and the sandbox stores them', async () => {
    const created = await sbx.run(
      individualArgs('Ada Lovelace', '--id-type', 'ssn', '--identifier', '123-45-6789', '--json'),
    )
    expect(created.code, created.stderr).toBe(0)
    const id = created.json().id
    expect(sbx.emu.db.get<Record<string, unknown>>('customers', id)).toMatchObject({
      idType: 'SSN',
      identifier: '123-45-6789',
    })
    const updated = await sbx.run([
      'customers',
      'update',
      id,
      '--id-type',
      'ITIN',
      '--identifier',
      '912-34-5678',
      '--json',
    ])
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.json().idType).toBe('ITIN')
    expect(updated.stdout).not.toContain('912-34-5678') // the API never echoes the identifier
    expect(sbx.emu.db.get<Record<string, unknown>>('customers', id)).toMatchObject({
      idType: 'ITIN',
      identifier: '912-34-5678',
    })
  })

  it('refuses a bad --type or --identifier before any request, naming the field', async () => {
    const before = sbx.requestCount()
    const badType = await sbx.run(['customers', 'create', '--type', 'person', '--full-name', 'X', '--json'])
    expect(badType.code).toBe(2)
    expect(JSON.stringify(badType.json().error)).toContain('--type')
    const badId = await sbx.run([
      'customers',
      'create',
      '--type',
      'INDIVIDUAL',
      '--full-name',
      'X',
      '--id-type',
      'SSN',
      '--identifier',
      '12345',
      '--json',
    ])
    expect(badId.code).toBe(2)
    expect(badId.json().error.details.errors.map((e: {field: string}) => e.field)).toContain('identifier')
    expect(sbx.requestCount()).toBe(before)
  })

  it('transactions list: --created-after/--created-before, with --since/--until as hidden aliases', async () => {
    const future = '2999-01-01T00:00:00Z'
    // --debug traces each request line, query included.
    const now = await sbx.run(['transactions', 'list', '--created-after', future, '--json', '--debug'])
    expect(now.code, now.stderr).toBe(0)
    expect(now.stderr).toMatch(/startDate=2999-01-01/)
    const old = await sbx.run([
      'transactions',
      'list',
      '--since',
      future,
      '--until',
      '2999-12-31T00:00:00Z',
      '--json',
      '--debug',
    ])
    expect(old.code, old.stderr).toBe(0)
    expect(old.stderr).toMatch(/startDate=2999-01-01.*endDate=2999-12-31|endDate=2999-12-31.*startDate=2999-01-01/)
    const help = await sbx.run(['transactions', 'list', '--help'])
    expect(help.stdout).toContain('--created-after')
    expect(help.stdout).not.toContain('--since')
  })

  it('-y still confirms; help groups --timeout under GLOBAL and lists --type once', async () => {
    const help = await sbx.run(['customers', 'list', '--help'])
    const global = help.stdout.slice(help.stdout.indexOf('GLOBAL FLAGS'))
    expect(global).toContain('--timeout')
    expect(help.stdout).toContain('--type=INDIVIDUAL|BUSINESS')
    expect(help.stdout).not.toMatch(/individual\|business/)
    const exp = await sbx.run(['wallet', 'export', '--help'])
    expect(exp.stdout).not.toContain('| ]')
    const reset = await sbx.run(['sandbox', 'reset', '-y', '--data-dir', sbx.dir + '-other', '--json'])
    expect(reset.code, reset.stderr).toBe(0)
  })
})

describe('hints name the real object', () => {
  it('a customer not yet approved: the hint names that customer', async () => {
    const c = await sbx.run(individualArgs('Hint Person', '--currency', 'USD', '--json'))
    const customer = c.json().id
    const accounts = await sbx.run(['accounts', 'internal', 'list', '--customer', customer, '--json'])
    const account = accounts.json().data.find((a: {type: string}) => a.type === 'INTERNAL_FIAT').id
    const payee = await sbx.run(clabeAccountArgs(customer, '032180000118359719', 'Maria Garcia', '--json'))
    const r = await sbx.run(quoteArgs(account, payee.json().id, '--send', '10.00', '--json'))
    const {error} = r.json()
    expect(error.code).toBe('USER_NOT_READY')
    expect(error.hint).toContain(`\`svc kyc status ${customer}\``)
  })
})

describe('wallet hints name the wallet', () => {
  it('after the session is revoked, the hint says `svc wallet login <that account id>`', async () => {
    const c = await sbx.run(individualArgs('Wallet Person', '--email', 'wallet@example.com', '--json'))
    const accounts = await sbx.run(['accounts', 'internal', 'list', '--customer', c.json().id, '--json'])
    const wallet = accounts.json().data.find((a: {type: string}) => a.type === 'EMBEDDED_WALLET').id
    const login = await sbx.run(['wallet', 'login', wallet, '--json'])
    expect(login.code, login.stderr).toBe(0)
    const session = login.json().id ?? login.json().session?.id
    // Revoked on the Service while this machine still holds the key (as when another operator
    // revokes it): keep a copy of the key store across the revoke.
    const keystore = join(sbx.env.SVC_CONFIG_DIR, 'keystore')
    cpSync(keystore, keystore + '.copy', {recursive: true})
    const revoked = await sbx.run(['wallet', 'sessions', 'revoke', session, '--account', wallet, '--yes', '--json'])
    expect(revoked.code, revoked.stderr).toBe(0)
    rmSync(keystore, {recursive: true, force: true})
    cpSync(keystore + '.copy', keystore, {recursive: true})
    const r = await sbx.run(['wallet', 'privacy', wallet, '--enabled', 'true', '--json'])
    expect(r.code).not.toBe(0)
    const {error} = r.json()
    expect(error.status).toBe(401)
    expect(error.hint).toContain(`svc wallet login ${wallet}`)
    expect(error.hint).not.toContain('<InternalAccount>')
  })
})

describe('the wallet is ACCOUNTID; --account stays as a hidden alias where it was replaced', () => {
  it('wallet keys list/purge take the wallet positionally, the old --account still works, a mismatch is exit 2', async () => {
    const c = await sbx.run(individualArgs('Keys Person', '--email', 'keys@example.com', '--json'))
    const accounts = await sbx.run(['accounts', 'internal', 'list', '--customer', c.json().id, '--json'])
    const wallet = accounts.json().data.find((a: {type: string}) => a.type === 'EMBEDDED_WALLET').id
    expect((await sbx.run(['wallet', 'login', wallet, '--json'])).code).toBe(0)
    const positional = await sbx.run(['wallet', 'keys', 'list', wallet, '--json'])
    expect(positional.code, positional.stderr).toBe(0)
    expect(positional.json().data).toHaveLength(1)
    const old = await sbx.run(['wallet', 'keys', 'list', '--account', wallet, '--json'])
    expect(old.json().data).toEqual(positional.json().data)
    const help = await sbx.run(['wallet', 'keys', 'list', '--help'])
    expect(help.stdout).toContain('ACCOUNTID')
    expect(help.stdout).not.toContain('--account')
    const mismatch = await sbx.run([
      'wallet',
      'keys',
      'purge',
      wallet,
      '--account',
      'InternalAccount:other',
      '--yes',
      '--json',
    ])
    expect(mismatch.code).toBe(2)
    const purged = await sbx.run(['wallet', 'keys', 'purge', wallet, '--yes', '--json'])
    expect(purged.json()).toEqual({removed: 1})
  })
})
