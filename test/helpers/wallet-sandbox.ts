import {afterAll, beforeAll} from 'vitest'
import type {SandboxSettings} from '../../src/emulator/settings.js'
import type {CliResult} from './cli.js'
import {EnclaveClient, type Session} from './enclave.js'
import {startSandbox, type TestSandbox} from './sandbox.js'

/** A customer's embedded wallet; `credentialId` is its EMAIL_OTP credential (`emailCredentialId` too). */
export interface Wallet {
  customerId: string
  accountId: string
  credentialId: string
  emailCredentialId: string
}

/** A sandbox for embedded-wallet tests, started before the file's tests and stopped after them. */
export interface WalletSandbox {
  /** The running sandbox (a new one after `restart`). */
  readonly sbx: TestSandbox
  /** A raw HTTP wallet client of that sandbox. */
  readonly api: EnclaveClient
  /** `svc` pointed at the sandbox; `input` goes to stdin. */
  run(args: string[], input?: string, env?: Record<string, string | undefined>): Promise<CliResult>
  /** Restarts the sandbox on the same data dir. */
  restart(): Promise<void>
  /** A new customer's embedded wallet, logged in over HTTP with the email OTP (the CLI is not involved). */
  httpWallet(fields?: Record<string, unknown>): Promise<Wallet & {s: Session}>
  /** `svc wallet login <account> --json` (exit 0 asserted); its JSON. */
  cliLogin(accountId: string, extra?: string[], env?: Record<string, string>): Promise<any>
  /** A new customer's embedded wallet with a session key stored by `svc wallet login`. */
  cliWallet(fields?: Record<string, unknown>): Promise<Wallet & {sessionId: string; session: any; key: any}>
}

/** Registers the sandbox's beforeAll/afterAll. OTP challenges may be repeated at once (challengeMinIntervalMs 0). */
export function walletSandbox(settings: Partial<SandboxSettings> = {}): WalletSandbox {
  let sbx: TestSandbox | undefined
  let api: EnclaveClient | undefined
  beforeAll(async () => {
    sbx = await startSandbox({challengeMinIntervalMs: 0, ...settings})
    api = new EnclaveClient(sbx)
  })
  afterAll(async () => sbx?.stop())
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the wallet sandbox starts in beforeAll: use it inside a test or hook')
    return v
  }
  const fx: WalletSandbox = {
    get sbx() {
      return started(sbx)
    },
    get api() {
      return started(api)
    },
    run: (args, input, env) => fx.sbx.run(args, {input, env}),
    async restart() {
      sbx = await fx.sbx.restart()
      api = new EnclaveClient(sbx)
    },
    async httpWallet(fields = {}) {
      const c = await fx.api.createCustomer(fields)
      return {...wallet(c), s: await fx.api.otpLogin(c.emailCredentialId!)}
    },
    async cliLogin(accountId, extra = [], env = {}) {
      const r = await fx.run(['wallet', 'login', accountId, '--json', ...extra], undefined, env)
      if (r.code !== 0) throw new Error(`svc wallet login exited ${r.code}:\n${r.stderr}`)
      return r.json()
    },
    async cliWallet(fields = {}) {
      const c = await fx.api.createCustomer(fields)
      const out = await fx.cliLogin(c.accountId)
      return {...wallet(c), sessionId: out.session.id as string, session: out.session, key: out.key}
    },
  }
  return fx
}

function wallet(c: {customerId: string; accountId: string; emailCredentialId?: string}): Wallet {
  if (!c.emailCredentialId) throw new Error(`the wallet of ${c.customerId} has no EMAIL_OTP credential`)
  return {
    customerId: c.customerId,
    accountId: c.accountId,
    credentialId: c.emailCredentialId,
    emailCredentialId: c.emailCredentialId,
  }
}

/** `svc wallet credentials add <accountId> --type PASSKEY --nickname <nickname> --attestation <attestation> …flags`. */
export const passkeyAddArgs = (accountId: string, nickname: string, attestation: string, ...flags: string[]) => [
  'wallet',
  'credentials',
  'add',
  accountId,
  '--type',
  'PASSKEY',
  '--nickname',
  nickname,
  '--attestation',
  attestation,
  ...flags,
]

/** `svc sandbox passkey sign --credential-id <id> --challenge <challenge> …flags`: the software authenticator's assertion. */
export const passkeySignArgs = (credentialId: string, challenge: string, ...flags: string[]) => [
  'sandbox',
  'passkey',
  'sign',
  '--credential-id',
  credentialId,
  '--challenge',
  challenge,
  ...flags,
]
