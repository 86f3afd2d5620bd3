import {join} from 'node:path'
import {agentFixtures} from './dry-run-fixtures-agents.js'
import {moreFixtures} from './dry-run-fixtures-more.js'
import {scaFixtures} from './dry-run-fixtures-sca.js'
import {EnclaveClient} from './enclave.js'
import {documentUploadArgs, fixture as file, ownerPerson, pdf, US_SSN_FLAGS} from './kyc.js'
import {
  achMintFlags,
  api,
  approvedCustomer,
  clabeEnding,
  externalAddArgs,
  quoteArgs,
  realtimeQuoteArgs,
  until,
  usdBankAccount,
  wireBurnFlags,
} from './money.js'
import type {TestSandbox} from './sandbox.js'

/**
 * Valid arguments for every command that has --dry-run, and the sandbox state its real run needs.
 * The dry-run equivalence test runs each twice (--dry-run, then for real) and compares the request.
 */
export interface Fixture {
  /** argv after the command's words, without --dry-run, --json, --yes or --idempotency-key (the test adds those). */
  args: string[]
  /** stdin of both runs (a secret piped with --secret-stdin). */
  input?: string
  /** Exit code of the real run when it is not 0: the Service refuses after reading the request (a wrong signature). */
  code?: number
  /** Path segments a dry run shows for what only a lookup at send time knows (`{documentId}`), and their real value. */
  resolve?: Record<string, string>
  /** Top-level body fields drawn when the request is sent (a fresh key): the dry run shows a `{placeholder}`. */
  generated?: string[]
  /** Undoes sandbox state the fixture changed for this command alone (a setting, the clock), after both runs. */
  cleanup?: () => Promise<void>
}

export type Fixtures = Record<string, () => Promise<Fixture>>

/** What the fixtures of one area share: setup through the API (`post`) and the usual actors. */
export interface FixtureKit {
  post: (path: string, body?: unknown) => Promise<any>
  /** An approved customer with a funded USD account and a CLABE to pay. */
  payer: () => Promise<{id: string; usd: string; clabe: string}>
  individual: (extra?: Record<string, unknown>) => Promise<string>
  activeCard: () => Promise<string>
  wallet: (
    fields?: Record<string, unknown>,
  ) => Promise<{accountId: string; sessionId: string; emailCredentialId?: string}>
}

const SECRET = 'provider_secret_eq_do_not_print'

export function dryRunFixtures(sbx: TestSandbox): Fixtures {
  const enclave = new EnclaveClient(sbx)
  let keys = 0
  const post = async (path: string, body?: unknown) => {
    const r = await api(sbx, 'POST', path, body, {'idempotency-key': `eq-setup-${keys++}`})
    if (r.status >= 300) throw new Error(`setup POST ${path} answered ${r.status}: ${JSON.stringify(r.body)}`)
    return r.body
  }
  /** A CLABE that validates (magic suffix 123; 003 pays slowly). */
  const clabe = async (customerId: string, suffix = '123') =>
    (
      await post('/customers/external-accounts', {
        customerId,
        currency: 'MXN',
        accountInfo: {
          accountType: 'CLABE',
          clabeNumber: clabeEnding(suffix),
          beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Garcia', nationality: 'MX'},
        },
      })
    ).id as string
  const evm = () => '0x' + Array.from({length: 40}, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')
  /** A first-party EVM wallet (ownership to verify), added the way an operator does. */
  const evmAccount = async (customerId: string) =>
    (
      await sbx.json(
        externalAddArgs(
          customerId,
          '--type',
          'ETHEREUM_WALLET',
          '--currency',
          'USDC',
          '--address',
          evm(),
          '--ownership',
          'FIRST_PARTY',
        ),
      )
    ).id as string
  /** An approved customer with a funded USD account and a CLABE to pay. */
  const payer = async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await post(`/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 100_000})
    return {id: c.id, usd: c.account('USD'), clabe: await clabe(c.id)}
  }
  const quote = async (p: {usd: string; clabe: string}) =>
    (await post('/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: p.usd},
      destination: {destinationType: 'ACCOUNT', accountId: p.clabe},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    })) as {id: string}
  let cards = 0
  const activeCard = async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const card = await post('/cards', {
      cardholderId: c.id,
      platformCardId: `eq-card-${cards++}-100`,
      form: 'VIRTUAL',
      fundingSources: [c.account('USD')],
    })
    await until(
      () => sbx.emu.db.get<{state: string}>('cards', card.id)!.state,
      (s) => s === 'ACTIVE',
    )
    return card.id as string
  }
  const uma = async (customerId: string) =>
    (await api(sbx, 'GET', `/customers/${customerId}`)).body.umaAddress as string
  const pendingIncoming = async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    return (
      await post('/sandbox/uma/receive', {
        senderUmaAddress: '$pending.long.usd@sandbox.uma.money',
        receiverUmaAddress: await uma(c.id),
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 500,
      })
    ).id as string
  }
  const wallet = async (fields: Record<string, unknown> = {}) => {
    const w = await enclave.createCustomer(fields)
    const login = await sbx.json(['wallet', 'login', w.accountId])
    return {...w, sessionId: login.session.id as string}
  }
  let link: Promise<string> | undefined
  const providerLink = () =>
    (link ??= post('/stablecoin-provider-accounts', {
      provider: 'BRALE',
      apiClientId: 'eq_client',
      apiClientSecret: SECRET,
    }).then((a) => a.id as string))
  let tokens = 0
  const coin = async (enabled: boolean) => {
    const n = String(tokens++).padStart(4, '0')
    const c = await sbx.json([
      'stablecoins',
      'create',
      '--token',
      `EQ${'ABCDEFGHIJ'[Number(n)]}`,
      '--network-token',
      `btkn1eqeqeqeqeqeqeqeq${n}`,
      '--provider-account',
      await providerLink(),
    ])
    if (enabled) {
      await post(`/stablecoins/${c.id}/enablement`, {})
      await post(`/sandbox/stablecoins/${c.id}/enablement`, {status: 'ENABLED'})
    }
    return c.id as string
  }
  const bankAndWallet = async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const add = async (body: unknown) => (await post('/customers/external-accounts', body)).id as string
    const bank = await add(usdBankAccount(c.id))
    const l2 = await add({
      customerId: c.id,
      currency: 'USDB',
      accountInfo: {accountType: 'L2_WALLET', address: 'sparkrt1' + 'q'.repeat(40)},
    })
    return {bank, l2}
  }
  const business = async () =>
    (
      await post('/customers', {
        customerType: 'BUSINESS',
        businessInfo: {legalName: 'Acme LLC', country: 'US', incorporatedOn: '2010-05-01', taxId: '12-3456789'},
      })
    ).id as string
  const individual = async (extra: Record<string, unknown> = {}) =>
    (await post('/customers', {customerType: 'INDIVIDUAL', fullName: 'Eq Person', ...extra})).id as string

  const kit: FixtureKit = {post, payer, individual, activeCard, wallet}
  return {
    ...agentFixtures(sbx, kit),
    ...scaFixtures(sbx, kit),
    ...moreFixtures(sbx, kit),
    'accounts:external:add': async () => {
      const c = await approvedCustomer(sbx, ['MXN'])
      return {
        args: [
          '--customer',
          c.id,
          '--type',
          'CLABE',
          '--clabe',
          clabeEnding('555'),
          '--beneficiary-name',
          'Maria Garcia',
        ],
      }
    },
    'accounts:external:delete': async () => ({args: [await clabe((await approvedCustomer(sbx, ['MXN'])).id)]}),
    'accounts:external:submit-signature': async () => {
      const id = await evmAccount((await approvedCustomer(sbx, ['USD'])).id)
      await post(`/customers/external-accounts/${id}/challenge`, {method: 'WALLET_SIGNATURE'})
      // Not the wallet's key: the Service reads the request and refuses the signature (exit 4).
      return {args: [id, '--signature', '0x' + '11'.repeat(65)], code: 4}
    },
    // SCA is off here: the sandbox answers the untrust 409 (it is an SCA step), after the request is compared.
    'accounts:external:untrust': async () => ({
      args: [await clabe((await approvedCustomer(sbx, ['MXN'])).id)],
      code: 6,
    }),
    'accounts:external:verify-ownership': async () => ({
      args: [await evmAccount((await approvedCustomer(sbx, ['USD'])).id), '--method', 'WALLET_SIGNATURE'],
    }),
    api: async () => ({
      args: [
        'POST',
        '/customers',
        '--data',
        JSON.stringify({customerType: 'INDIVIDUAL', fullName: 'Raw Request', currencies: ['USD']}),
        '--header',
        'X-Eq-Trace: t1',
      ],
    }),
    'cards:close': async () => ({args: [await activeCard()]}),
    'cards:freeze': async () => ({args: [await activeCard()]}),
    'cards:issue': async () => {
      const c = await approvedCustomer(sbx, ['USD'])
      return {
        args: [
          '--customer',
          c.id,
          '--account',
          c.account('USD'),
          '--platform-card-id',
          'eq-issue-100',
          '--max-spend-minor',
          '5000',
        ],
      }
    },
    'cards:unfreeze': async () => {
      const card = await activeCard()
      await sbx.json(['cards', 'freeze', card])
      return {args: [card]}
    },
    'customers:create': async () => ({
      args: [
        '--type',
        'individual',
        '--full-name',
        'Eq Created',
        '--currency',
        'USD',
        '--email',
        'eq.created@example.com',
      ],
    }),
    'customers:delete': async () => ({args: [await individual()]}),
    'customers:import': async () => ({
      args: [
        file(
          sbx.dir,
          'eq.csv',
          Buffer.from('platformCustomerId,customerType,fullName\neq-import-1,INDIVIDUAL,Ada Lovelace\n'),
        ),
      ],
    }),
    'customers:update': async () => ({args: [await individual(), '--full-name', 'Eq Renamed']}),
    'invitations:cancel': async () => ({
      args: [(await post('/invitations', {inviterUma: await uma(await individual({currencies: ['USD']}))})).code],
    }),
    'invitations:claim': async () => ({
      args: [
        (await post('/invitations', {inviterUma: await uma(await individual({currencies: ['USD']}))})).code,
        '--invitee-uma',
        '$grace@example.com',
      ],
    }),
    'invitations:create': async () => ({
      args: [
        '--inviter-uma',
        await uma(await individual({currencies: ['USD']})),
        '--first-name',
        'Ada',
        '--amount-minor',
        '1250',
      ],
    }),
    'kyc:documents:replace': async () => {
      const holder = await individual()
      const pdfFile = file(sbx.dir, 'eq-old.pdf', pdf())
      const doc = await sbx.json(documentUploadArgs(holder, '--type', 'OTHER', '--file', pdfFile, '--country', 'US'))
      return {
        args: ['--holder', holder, '--type', 'OTHER', '--file', file(sbx.dir, 'eq-new.pdf', pdf()), '--country', 'US'],
        resolve: {'{documentId}': doc.id},
      }
    },
    'kyc:documents:upload': async () => ({
      args: [
        '--holder',
        await individual(),
        '--type',
        'OTHER',
        '--file',
        file(sbx.dir, 'eq.pdf', pdf()),
        '--country',
        'US',
      ],
    }),
    'kyc:link': async () => ({args: [await individual(), '--redirect-uri', 'https://app.example.com/done']}),
    'kyc:owners:add': async () => ({
      args: [
        await business(),
        '--role',
        'UBO',
        '--ownership',
        '30',
        '--first-name',
        'Ana',
        '--last-name',
        'Ruiz',
        '--birth-date',
        '1985-04-02',
        ...US_SSN_FLAGS,
        '--address-line1',
        '1 Main St',
        '--address-city',
        'Austin',
        '--address-postal-code',
        '78701',
        '--address-country',
        'US',
      ],
    }),
    'kyc:owners:update': async () => {
      const owner = await post('/beneficial-owners', {
        customerId: await business(),
        roles: ['UBO'],
        ownershipPercentage: 30,
        personalInfo: ownerPerson('Ana'),
      })
      return {args: [owner.id, '--ownership', '40', '--email', 'ana@example.com']}
    },
    // An individual with nothing on file: the Service answers RESOLVE_ERRORS, which svc reports with exit 6.
    'kyc:submit': async () => ({args: [await individual()], code: 6}),
    'quote:create': async () => {
      const p = await payer()
      return {args: ['--from', p.usd, '--to', p.clabe, '--amount-minor', '1500', '--description', 'eq']}
    },
    'quote:execute': async () => ({args: [(await quote(await payer())).id]}),
    'quote:send': async () => {
      const p = await payer()
      return {args: ['--from', p.usd, '--to', p.clabe, '--amount-minor', '1500']}
    },
    'sandbox:card': async () => ({
      args: [
        'authorization',
        await activeCard(),
        '--amount-minor',
        '700',
        '--currency',
        'USD',
        '--descriptor',
        'EQ SHOP',
        '--mcc',
        '5411',
      ],
    }),
    'sandbox:fund': async () => ({
      args: [(await approvedCustomer(sbx, ['USD'])).account('USD'), '--amount-minor', '4200'],
    }),
    'sandbox:send': async () => {
      const c = await approvedCustomer(sbx, ['USD'])
      const q = await sbx.json(
        realtimeQuoteArgs(c.id, '--currency', 'USD', '--to', await clabe(c.id), '--amount-minor', '1500'),
      )
      return {args: [q.id, '--currency', 'USD']}
    },
    'sandbox:stablecoins:enablement': async () => {
      const id = await coin(false)
      await post(`/stablecoins/${id}/enablement`, {})
      return {args: [id, '--status', 'ENABLED']}
    },
    'sandbox:stablecoins:provider-account': async () => ({args: [await providerLink(), '--status', 'ACTIVE']}),
    'sandbox:uma-receive': async () => ({
      args: ['--customer', (await approvedCustomer(sbx, ['USD'])).id, '--currency', 'USD', '--amount-minor', '321'],
    }),
    'stablecoins:burn': async () => {
      const {bank} = await bankAndWallet()
      return {
        args: [await coin(true), ...wireBurnFlags(bank)],
      }
    },
    'stablecoins:create': async () => ({
      args: [
        '--token',
        'EQNEW',
        '--network-token',
        'btkn1eqnewnewnewnewnew0001',
        '--provider-account',
        await providerLink(),
      ],
    }),
    'stablecoins:mint': async () => {
      const {bank, l2} = await bankAndWallet()
      return {
        args: [await coin(true), ...achMintFlags(bank, l2)],
      }
    },
    'stablecoins:provider-accounts:link': async () => ({
      args: ['--api-client-id', 'eq_client_2', '--secret-stdin'],
      input: SECRET,
    }),
    'stablecoins:request-enablement': async () => ({args: [await coin(false)]}),
    'tokens:create': async () => ({
      args: ['--name', 'eq-token', '--permission', 'VIEW', '--out', join(sbx.dir, 'eq-token.secret')],
    }),
    'tokens:revoke': async () => ({args: [(await post('/tokens', {name: 'eq-revoke', permissions: ['VIEW']})).id]}),
    'transactions:approve': async () => ({args: [await pendingIncoming()]}),
    'transactions:cancel': async () => {
      const p = await payer()
      const slow = await clabe(p.id, '003')
      const q = await sbx.json(quoteArgs(p.usd, slow, '--amount-minor', '1000', '--execute', '--yes'))
      return {args: [q.transactionId, '--reason', 'eq cancel']}
    },
    'transactions:confirm': async () => {
      const t = await sbx.json([
        'sandbox',
        'uma-receive',
        '--customer',
        (await approvedCustomer(sbx, ['USD'])).id,
        '--currency',
        'USD',
        '--amount-minor',
        '100',
      ])
      return {args: [t.id, '--at', new Date(Date.parse(t.createdAt) + 1).toISOString()]}
    },
    'transactions:reject': async () => ({args: [await pendingIncoming(), '--reason', 'eq reject']}),
    'wallet:credentials:revoke': async () => {
      const w = await wallet({phoneNumber: '+14155550199'})
      const sms = await sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP'])
      return {args: [sms.credential.id, '--account', w.accountId]}
    },
    'wallet:delegated-keys:create': async () => ({
      args: ['--card', await activeCard(), '--account', (await wallet()).accountId, '--nickname', 'eq key'],
    }),
    'wallet:delegated-keys:revoke': async () => {
      const key = await sbx.json([
        'wallet',
        'delegated-keys',
        'create',
        '--card',
        await activeCard(),
        '--account',
        (await wallet()).accountId,
        '--nickname',
        'eq revoke',
      ])
      return {args: [key.id]}
    },
    'wallet:privacy': async () => ({args: [(await wallet()).accountId, '--enabled', 'true']}),
    'wallet:sessions:revoke': async () => {
      const w = await wallet()
      return {args: [w.sessionId, '--account', w.accountId]}
    },
  }
}
