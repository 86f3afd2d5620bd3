import {api, realtimeQuoteArgs, until} from './money.js'
import type {Fixture, Fixtures, FixtureKit} from './dry-run-fixtures.js'
import type {TestSandbox} from './sandbox.js'

/** The sandbox's fixed SCA code (SMS OTP, TOTP and quote authorization alike). */
const CODE = '123456'

/**
 * Fixtures of the SCA commands. The SCA endpoints answer only a platform that requires SCA, and a
 * platform that does holds every quote for authorization: each fixture turns it on for its own
 * command and off again after it (`cleanup`).
 */
export function scaFixtures(sbx: TestSandbox, kit: FixtureKit): Fixtures {
  const {post} = kit
  const settings = async (sandbox: Record<string, unknown>) => {
    const r = await api(sbx, 'PATCH', '/config', {sandbox})
    if (r.status !== 200) throw new Error(`setup PATCH /config answered ${r.status}: ${JSON.stringify(r.body)}`)
  }
  /** A funded customer on a platform that requires SCA; `make` builds the command's arguments. */
  const withSca =
    (make: (c: {id: string; usd: string; clabe: string}) => Promise<Omit<Fixture, 'cleanup'>>) => async () => {
      const {scaRequired, livenessDelayMs} = sbx.emu.settings()
      const restore = () => settings({scaRequired, livenessDelayMs})
      await settings({scaRequired: true, livenessDelayMs: 0})
      try {
        return {...(await make(await kit.payer())), cleanup: restore}
      } catch (e) {
        await restore()
        throw e
      }
    }
  const q = (customerId: string) => `?customerId=${encodeURIComponent(customerId)}`
  const login = async (customerId: string) => {
    const started = await post(`/sca/login/start${q(customerId)}`, {factor: 'SMS_OTP'})
    await post(`/sca/login/complete${q(customerId)}`, {
      factor: 'SMS_OTP',
      challengeId: started.challengeId,
      code: CODE,
      endUserIpAddress: '203.0.113.7',
    })
  }
  let passkeys = 0

  return {
    'quote:authorize': withSca(async (c) => {
      await login(c.id)
      const held = await sbx.json(
        realtimeQuoteArgs(c.id, '--currency', 'USD', '--to', c.clabe, '--amount-minor', '1500'),
      )
      if (held.status !== 'PENDING_AUTHORIZATION') throw new Error(`setup: quote ${held.status}`)
      // The code from stdin: the dry run shows it redacted.
      return {args: [held.id, '--code', '-', '--ip', '203.0.113.7'], input: CODE}
    }),
    'sca:factors:confirm': withSca(async (c) => {
      await post(`/sca/factors${q(c.id)}`, {type: 'TOTP'})
      const secret = sbx.emu.db.get<{pending: {totpSecret: string}}>('scaStates', c.id)!.pending.totpSecret
      // The shared secret on stdin and the first code: both secrets, both shown redacted.
      return {args: [c.id, '--type', 'TOTP', '--secret-stdin', '--code', CODE], input: secret}
    }),
    'sca:factors:delete': withSca(async (c) => {
      const credentialId = `eq-passkey-${passkeys++}`
      await post(`/sca/factors${q(c.id)}`, {type: 'PASSKEY'})
      await post(`/sca/factors/confirm${q(c.id)}`, {
        type: 'PASSKEY',
        origin: 'https://localhost',
        credential: {id: credentialId},
      })
      return {args: [c.id, credentialId]}
    }),
    'sca:factors:enrol': withSca(async (c) => ({args: [c.id, '--type', 'TOTP']})),
    'sca:login:complete': withSca(async (c) => {
      const started = await post(`/sca/login/start${q(c.id)}`, {factor: 'SMS_OTP'})
      return {args: [c.id, '--challenge-id', started.challengeId, '--code', CODE, '--ip', '203.0.113.7']}
    }),
    'sca:login:start': withSca(async (c) => ({args: [c.id, '--factor', 'SMS_OTP']})),
    'sca:record-event': withSca(async (c) => ({args: [c.id, '--event', 'FAILED_LOGIN_ATTEMPT']})),
    'sca:reset:complete': withSca(async (c) => {
      const started = await post(`/sca/factors/reset${q(c.id)}`, {factor: 'SMS_OTP'})
      const passed = await until(
        async () => (await api(sbx, 'GET', `/sca/factors/reset/${started.resetId}${q(c.id)}`)).body.status,
        (s) => s === 'LIVENESS_PASSED',
      )
      if (passed !== 'LIVENESS_PASSED') throw new Error(`setup: reset ${passed}`)
      return {args: [c.id, started.resetId, '--country-code', '+49', '--number', '15112345678']}
    }),
    'sca:reset:start': withSca(async (c) => ({args: [c.id, '--factor', 'SMS_OTP']})),
  }
}
