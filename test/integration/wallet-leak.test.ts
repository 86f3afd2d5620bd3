import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {walletSeed} from '../../src/emulator/domain/wallet/state.js'
import {mintOidcToken} from '../helpers/authenticator.js'
import {svc, type CliResult} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'
import {passkeyAddArgs, passkeySignArgs, walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({walletProcessingDelayMs: 100})

/**
 * Every wallet command runs with --debug (HTTP traces on stderr); afterwards no private key, OTP,
 * OIDC token or mnemonic may appear in anything svc printed, nor in the sandbox's own log. The
 * commands run in-process (run-command.ts: the same code and output as the binary's); the one that
 * writes the mnemonic (`wallet export --out`) runs through the built binary as well, so the shipped
 * bundle's output is searched too (leak.test.ts sweeps every command through both).
 */
describe('secrets never leak', () => {
  it('across all wallet commands with --debug', async () => {
    const outputs: CliResult[] = []
    const run = async (args: string[], input?: string, expectCode = 0, binary = false) => {
      const r = await (binary ? svc : svcInProcess)([...args, '--debug'], {env: fx.sbx.env, input})
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(expectCode)
      outputs.push(r)
      return r
    }
    const json = async (args: string[], input?: string) => (await run([...args, '--json'], input)).json()

    const w = await fx.api.createCustomer({phoneNumber: '+14155550142'})
    const login = await json(['wallet', 'login', w.accountId])
    await json(['wallet', 'credentials', 'list', w.accountId])
    await json(['wallet', 'credentials', 'challenge', w.emailCredentialId!])
    await json(['wallet', 'login', w.accountId, '--otp-stdin'], '000000\n')
    const sms = await json(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP'])
    await json(['wallet', 'login', w.accountId, '--type', 'SMS_OTP', '--otp-stdin'], '000000\n')
    await json(['wallet', 'sessions', 'list', w.accountId])
    const refreshed = await json(['wallet', 'sessions', 'refresh', login.session.id, '--account', w.accountId])
    await json(['wallet', 'sessions', 'revoke', refreshed.session.id, '--account', w.accountId])
    await json(['wallet', 'keys', 'list'])
    await run(['wallet', 'stamp', w.accountId, '--payload', '{"any":"payload"}'])
    await json(['wallet', 'privacy', w.accountId, '--enabled', 'true'])
    await fx.api.setSandbox({walletProcessingCount: 1})
    await json(['api', 'PATCH', `/internal-accounts/${w.accountId}`, '--data', '{"privateEnabled":false}', '--sign'])
    const seedFile = join(fx.sbx.env.HOME, 'leak-seed.txt')
    await run(['wallet', 'export', w.accountId, '--out', seedFile, '--json'], undefined, 0, true)
    await json(['wallet', 'export', w.accountId, '--verify-only'])

    const now = Math.floor(Date.now() / 1000)
    const claims = {iss: 'accounts.google.com', aud: 'leak', sub: 'u1', email: 'leak@example.com', exp: now + 600}
    const addToken = mintOidcToken({...claims, iat: now})
    const oauth = await json(
      ['wallet', 'credentials', 'add', w.accountId, '--type', 'OAUTH', '--oidc-token-stdin'],
      addToken,
    )
    const nonce = (await json(['wallet', 'login', w.accountId, '--credential', oauth.credential.id, '--print-nonce']))
      .nonce
    const loginToken = mintOidcToken({...claims, iat: now, nonce})
    await json(['wallet', 'login', w.accountId, '--credential', oauth.credential.id, '--oidc-token-stdin'], loginToken)

    const reg = await json(['sandbox', 'passkey', 'create'])
    const pk = await json(passkeyAddArgs(w.accountId, 'Leak test', JSON.stringify(reg)))
    const ch = await json(['wallet', 'login', w.accountId, '--credential', pk.credential.id])
    const assertion = await json(passkeySignArgs(reg.credentialId, ch.challenge))
    await json(
      ['wallet', 'login', w.accountId, '--credential', pk.credential.id, '--assertion', '-'],
      JSON.stringify(assertion),
    )
    await json(['wallet', 'credentials', 'revoke', sms.credential.id, '--account', w.accountId])
    await json(['customers', 'update', w.customerId, '--email', 'leak-moved@example.com'])
    // Error paths print too.
    await run(['wallet', 'export', w.accountId, '--out', seedFile, '--json'], undefined, 2)
    await run(
      ['wallet', 'login', w.accountId, '--credential', oauth.credential.id, '--oidc-token-stdin', '--json'],
      mintOidcToken({...claims, iat: now - 300}),
      2,
    )

    // The secrets that existed during the run.
    const mnemonic = walletSeed(fx.sbx.emu, w.accountId)!
    expect(readFileSync(seedFile, 'utf8').trim()).toBe(mnemonic)
    const ksDir = join(fx.sbx.env.SVC_CONFIG_DIR, 'keystore')
    const sessionKeys = readdirSync(ksDir).map(
      (f) => JSON.parse(readFileSync(join(ksDir, f), 'utf8')).privateKey.plain as string,
    )
    const passkeyKey = JSON.parse(
      readFileSync(join(fx.sbx.env.SVC_CONFIG_DIR, 'passkeys', `${reg.credentialId}.json`), 'utf8'),
    ).privateKey as string
    expect(sessionKeys.length).toBeGreaterThanOrEqual(3)
    // keys purge last, once the keys it removes have been collected as secrets to look for.
    await json(['wallet', 'keys', 'purge', '--account', w.accountId])
    expect(readdirSync(ksDir)).toEqual([])
    const secrets = [
      ...sessionKeys,
      passkeyKey,
      addToken,
      loginToken,
      loginToken.split('.')[1],
      mnemonic,
      mnemonic.split(' ').slice(0, 4).join(' '),
    ]
    const emulatorLog = existsSync(join(fx.sbx.dir, 'emulator.log'))
      ? readFileSync(join(fx.sbx.dir, 'emulator.log'), 'utf8')
      : ''
    const printed = outputs.map((o) => o.stdout + '\n' + o.stderr).join('\n')
    expect(printed).toContain('> POST') // the traces really ran
    expect(printed).toContain('[REDACTED]')
    for (const secret of secrets) {
      expect(printed.includes(secret), `leaked in svc output: ${secret.slice(0, 6)}...`).toBe(false)
      expect(emulatorLog.includes(secret), `leaked in the sandbox log: ${secret.slice(0, 6)}...`).toBe(false)
    }
    expect(printed).not.toMatch(/otp_code|"000000"/)
    // Public material is printed, so the search looks at real output.
    expect(printed).toContain(login.key.publicKey)
  })
})
