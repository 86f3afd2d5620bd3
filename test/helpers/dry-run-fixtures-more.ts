import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {api, approvedCustomer} from './money.js'
import type {Fixtures, FixtureKit} from './dry-run-fixtures.js'
import type {TestSandbox} from './sandbox.js'

/** Fixtures of customers terms, the sandbox clock, KYC contact verification, card reveal, webhooks and wallet credentials and sessions commands. */
export function moreFixtures(sbx: TestSandbox, kit: FixtureKit): Fixtures {
  let receiver: Promise<string> | undefined
  /** A webhook receiver that answers 200 to everything (unref'd: it never keeps the test alive). */
  const hooks = () =>
    (receiver ??= new Promise((resolve) => {
      const server = createServer((req, res) => req.resume().on('end', () => res.end('ok')))
      server.unref()
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))
    }))
  /** A customer whose provider mandates contact verification (an EU national): email and phone PENDING. */
  let people = 0
  const euCustomer = () =>
    kit
      .post('/customers', {
        customerType: 'INDIVIDUAL',
        fullName: 'Jean Dupont',
        nationality: 'FR',
        email: `jean.${people++}@example.fr`,
        phoneNumber: '+33698765432',
      })
      .then((c) => c.id as string)
  const clock = async (action: string) => {
    const r = await api(sbx, 'POST', `/sandbox/clock/${action}`, action === 'reset' ? {force: true} : {})
    if (r.status !== 200) throw new Error(`setup clock ${action} answered ${r.status}: ${JSON.stringify(r.body)}`)
  }
  /** Moving the clock is for this command alone: back on real time after it. */
  const realTime = () => clock('reset')
  const confirm = (channel: 'email' | 'phone') => async () => {
    const id = await euCustomer()
    await kit.post(`/customers/${id}/verify-${channel}`)
    // The sandbox's code; the dry run shows it redacted.
    return {args: [id, '--code', '123456']}
  }

  return {
    'cards:reveal': async () => ({
      args: [await kit.activeCard(), '--out', join(sbx.dir, `eq-reveal-${Date.now()}.json`)],
    }),
    'customers:terms': async () => ({
      args: [
        await kit.individual(),
        '--accept',
        '--version',
        '2025-10-01',
        '--type',
        'INDIVIDUAL',
        '--accepted-at',
        '2026-01-02T03:04:05.000Z',
        '--ip',
        '203.0.113.7',
      ],
    }),
    'kyc:confirm-email': confirm('email'),
    'kyc:confirm-phone': confirm('phone'),
    'kyc:verify-email': async () => ({args: [await euCustomer()]}),
    'kyc:verify-phone': async () => ({args: [await euCustomer()]}),
    'sandbox:clock:advance': async () => ({args: ['1s'], cleanup: realTime}),
    'sandbox:clock:freeze': async () => ({args: [], cleanup: realTime}),
    'sandbox:clock:reset': async () => {
      await clock('freeze')
      return {args: ['--force'], cleanup: realTime}
    },
    'sandbox:clock:unfreeze': async () => {
      await clock('freeze')
      return {args: [], cleanup: realTime}
    },
    'wallet:credentials:add': async () => {
      const w = await kit.wallet({phoneNumber: '+14155550123'})
      return {args: [w.accountId, '--type', 'SMS_OTP']}
    },
    'wallet:logout': async () => ({args: [(await kit.wallet()).accountId]}),
    'wallet:sessions:refresh': async () => {
      const w = await kit.wallet()
      return {args: [w.sessionId, '--account', w.accountId], generated: ['clientPublicKey']}
    },
    'wallet:credentials:challenge': async () => {
      const w = await kit.wallet()
      return {args: [w.emailCredentialId!]}
    },
    'webhooks:endpoint': async () => ({args: ['--clear']}),
    'webhooks:replay': async () => {
      const event = sbx.emu.webhooks.emit('OUTGOING_PAYMENT.COMPLETED', {
        id: 'Transaction:eq-replay',
        status: 'COMPLETED',
      })
      return {args: [event.id, '--url', await hooks()]}
    },
    'webhooks:trigger': async () => ({args: ['TEST', '--url', await hooks()]}),
    // A card issue whose answer is lost (lostReply) leaves an unknown record; its key is the one this
    // test pins for history:finish, which re-sends it.
    'history:finish': async () => {
      const c = await approvedCustomer(sbx, ['USD'])
      await api(sbx, 'PATCH', '/config', {sandbox: {faults: 'lostReply=1'}})
      const lost = await sbx
        .run(
          ['cards', 'issue', '--customer', c.id, '--account', c.account('USD'), '--json'].concat([
            '--idempotency-key',
            'eq-history-finish',
          ]),
        )
        .finally(() => api(sbx, 'PATCH', '/config', {sandbox: {faults: null}}))
      return {args: [String(lost.json().error.details.history)]}
    },
  }
}
