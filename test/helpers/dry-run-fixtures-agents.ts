import {call} from './principals.js'
import {clabeEnding, usdBankAccount} from './money.js'
import type {Fixtures, FixtureKit} from './dry-run-fixtures.js'
import type {TestSandbox} from './sandbox.js'

/** Fixtures of the agents commands: the platform's (agents create ... reject) and the agent's own (`agents me`, with --profile). */
export function agentFixtures(sbx: TestSandbox, kit: FixtureKit): Fixtures {
  const {post} = kit
  let agents = 0
  /** An agent of a funded payer, with a policy; `login` redeems its device code into an agent profile. */
  const agent = async (permissions: string[], opts: {mode?: string; login?: boolean} = {}) => {
    const p = await kit.payer()
    const created = await post('/agents', {
      name: `eq-agent-${agents}`,
      customerId: p.id,
      policy: {
        permissions,
        defaultExecutionMode: opts.mode ?? 'AUTO',
        spendingLimits: {currency: 'USD', perTransactionLimit: 10_000_000},
      },
    })
    const profile = `eq-agent-${agents++}`
    if (opts.login) await sbx.json(['agents', 'login', created.deviceCode.code, '--as', profile])
    return {...p, agentId: created.agent.id as string, code: created.deviceCode.code as string, profile}
  }
  /** An action waiting for the platform: the agent's quote executed under APPROVAL_REQUIRED. */
  const pendingAction = async () => {
    const a = await agent(['CREATE_QUOTES', 'EXECUTE_QUOTES'], {mode: 'APPROVAL_REQUIRED'})
    const redeemed = await call(sbx, undefined, 'POST', `/agents/device-codes/${a.code}/redeem`)
    const auth = `Bearer ${redeemed.body.accessToken}`
    const key = {'idempotency-key': `eq-agent-action-${agents}`}
    const quote = await call(
      sbx,
      auth,
      'POST',
      '/agents/me/quotes',
      {
        source: {sourceType: 'ACCOUNT', accountId: a.usd},
        destination: {destinationType: 'ACCOUNT', accountId: a.clabe},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
      },
      key,
    )
    const action = await call(sbx, auth, 'POST', `/agents/me/quotes/${quote.body.id}/execute`, undefined, key)
    if (action.body?.status !== 'PENDING_APPROVAL') throw new Error(`setup: ${JSON.stringify(action.body)}`)
    return {agentId: a.agentId, actionId: action.body.id as string}
  }

  return {
    'agents:approve': async () => {
      const x = await pendingAction()
      return {args: [x.agentId, x.actionId]}
    },
    'agents:create': async () => ({
      args: [
        '--customer',
        (await kit.payer()).id,
        '--name',
        'Eq bill payer',
        '--permission',
        'CREATE_QUOTES',
        '--permission',
        'EXECUTE_QUOTES',
        '--per-transaction',
        '100.00',
        '--limit-currency',
        'USD',
      ],
    }),
    'agents:delete': async () => ({args: [(await agent(['VIEW_TRANSACTIONS'])).agentId]}),
    'agents:device-code:issue': async () => ({args: [(await agent(['VIEW_TRANSACTIONS'])).agentId]}),
    'agents:login': async () => {
      const a = await agent(['VIEW_TRANSACTIONS'])
      // The code is the credential: the dry run shows it redacted in the path.
      return {args: [a.code, '--as', `${a.profile}-login`], resolve: {'[REDACTED]': a.code}}
    },
    'agents:me:execute': async () => {
      const a = await agent(['CREATE_QUOTES', 'EXECUTE_QUOTES'], {login: true})
      const q = await sbx.json([
        'agents',
        'me',
        'quote',
        '--from',
        a.usd,
        '--to',
        a.clabe,
        '--amount-minor',
        '1000',
        '--profile',
        a.profile,
      ])
      return {args: [q.id, '--profile', a.profile]}
    },
    'agents:me:external:add': async () => ({
      args: [
        '--type',
        'CLABE',
        '--clabe',
        clabeEnding('124'),
        '--beneficiary-name',
        'Juan Perez',
        '--profile',
        (await agent(['MANAGE_EXTERNAL_ACCOUNTS'], {login: true})).profile,
      ],
    }),
    'agents:me:external:delete': async () => {
      const a = await agent(['MANAGE_EXTERNAL_ACCOUNTS'], {login: true})
      return {args: [a.clabe, '--profile', a.profile]}
    },
    'agents:me:quote': async () => {
      const a = await agent(['CREATE_QUOTES'], {login: true})
      return {
        args: [
          '--from',
          a.usd,
          '--to',
          a.clabe,
          '--amount-minor',
          '1500',
          '--description',
          'eq',
          '--profile',
          a.profile,
        ],
      }
    },
    'agents:me:transfer': async () => {
      const a = await agent(['CREATE_TRANSFERS'], {login: true})
      const bank = (await post('/customers/external-accounts', usdBankAccount(a.id))).id as string
      return {
        args: ['--out', '--account', a.usd, '--external', bank, '--amount-minor', '1000', '--profile', a.profile],
      }
    },
    'agents:policy': async () => ({
      args: [(await agent(['CREATE_QUOTES'])).agentId, '--mode', 'APPROVAL_REQUIRED', '--per-transaction', '50.00'],
    }),
    'agents:reject': async () => {
      const x = await pendingAction()
      return {args: [x.agentId, x.actionId, '--reason', 'eq reject']}
    },
    'agents:update': async () => ({
      args: [(await agent(['VIEW_TRANSACTIONS'])).agentId, '--name', 'Eq renamed', '--pause'],
    }),
  }
}
