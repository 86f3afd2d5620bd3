// Every command's --help examples, run against a local sandbox: ids are replaced by real ones
// (an approved customer, its accounts, beneficiaries, quotes, a transaction, a wallet session), and
// each example must get past parsing and local checks (no exit 2) without an internal error; an
// answer that depends on state (e.g. exit 6 for submitting an approved customer) is fine. Examples that need a file, another program,
// a secret, or an object this test does not create are left out; so are the long-running ones.
import {mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {fakeTime} from '../helpers/fake-time.js'
import {svcInProcess} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {CHASE_USD_FLAGS, clabeAccountArgs, externalAddArgs, quoteArgs, realtimeQuoteArgs} from '../helpers/money.js'
import {individualArgs, US_BUSINESS_FLAGS} from '../helpers/kyc.js'

const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, {id: string; examples?: Array<string | {command: string}>}>
}
// Run forever (serve, listen) or would stop a sandbox this test does not own.
const LONG_RUNNING = [/^sandbox serve/, /^webhooks listen/, /^sandbox stop/]
/** Sends to a team's receiver at the example's URL, signed with the key of a sandbox this test does not serve. */
const NEEDS_RECEIVER = /^webhooks certify\b/
// Team sandboxes need a `serve --multi` server and its admin secret (team-sandboxes-lifecycle.test.ts drives them).
const NEEDS_TEAM_SERVER = /^sandbox (create|list|delete)\b|^sandbox reset --name/
// Commands with no example that can run here as printed: they need real credentials, a file made
// by another program (an image, a signature, a WebAuthn assertion) or a terminal.
const NEEDS_OUTSIDE = [
  // a team's receiver listening at the example's URL (webhooks-certify.test.ts runs it against test receivers)
  'webhooks:certify',
  'login',
  'sandbox:serve',
  'sandbox:stop',
  'webhooks:listen',
  'webhooks:verify',
  'kyc:documents:upload',
  'kyc:documents:replace',
  'sandbox:passkey:create',
  'sandbox:passkey:sign',
  'accounts:external:submit-signature',
  'accounts:external:verify-ownership',
  // a CSV file of the reader's, and the job it starts
  'customers:import',
  'customers:import-status',
  // Shows a card-details link only on a terminal, else writes it to a file.
  'cards:reveal',
  // reads from a second environment: a saved profile of the reader's (test/integration/flow-capture.test.ts drives it)
  'flow:capture',
  'sandbox:create',
  'sandbox:list',
  'sandbox:delete',
]
// Commands whose examples name objects this test does not create yet (agents, SCA, stablecoins,
// tokens, invitations, delegated keys): their own integration tests run them; listed here by name
// so that any other command without a runnable example still fails this test.
const OBJECTS_NOT_CREATED_HERE = [
  'agents:approvals',
  'agents:approve',
  'agents:delete',
  'agents:get',
  'agents:policy',
  'agents:reject',
  'agents:update',
  'agents:device-code:issue',
  'agents:me:accounts',
  'agents:me:actions',
  'agents:me:execute',
  'agents:me:quote',
  'agents:me:show',
  'agents:me:transactions',
  'agents:me:transfer',
  'agents:me:external:add',
  'agents:me:external:delete',
  'invitations:claim',
  'invitations:create',
  'kyc:owners:update',
  'sca:factors:confirm',
  'sca:login:complete',
  'sca:reset:complete',
  'sca:reset:get',
  'stablecoins:burn',
  'stablecoins:get',
  'stablecoins:mint',
  'stablecoins:request-enablement',
  'stablecoins:operations:get',
  'stablecoins:operations:list',
  'stablecoins:provider-accounts:get',
  'stablecoins:provider-accounts:link',
  'sandbox:stablecoins:enablement',
  'sandbox:stablecoins:provider-account',
  'tokens:get',
  'tokens:revoke',
  'wallet:delegated-keys:create',
  'wallet:delegated-keys:get',
  'wallet:delegated-keys:revoke',
]
const DESTRUCTIVE = /\b(delete|purge|reset|revoke|untrust|cancel|remove|logout|close)\b/

let sbx: TestSandbox
const ids: Record<string, string> = {}
// Examples run in a folder of their own (files they write stay there), with the repo's flows/ beside them.
const workDir = mkdtempSync(join(tmpdir(), 'svc-examples-'))
symlinkSync(fileURLToPath(new URL('../../flows', import.meta.url)), join(workDir, 'flows'))
beforeAll(async () => {
  // The Service's delays, short: an example that waits (`quote send --wait`, `sandbox uma-receive --wait`,
  // `--wait-for-event`) sees the same end without sitting out a 2 s approval or a 500 ms payment.
  sbx = await startSandbox({
    skipVerificationPaperwork: true,
    decisionDelayMs: 0,
    incomingApprovalDelayMs: 50,
    paymentCompletionDelayMs: 50,
    cardProcessingDelayMs: 20,
  })
  const runJson = (args: string[]) => sbx.run(args).then((r) => r.json())
  ids.Customer = (
    await runJson(
      individualArgs(
        'Example Person',
        '--email',
        'ex@example.com',
        '--phone',
        '+15551234567',
        '--currency',
        'USD',
        '--currency',
        'USDC',
        '--json',
      ),
    )
  ).id
  ids.Business = (
    await runJson([
      'customers',
      'create',
      '--type',
      'business',
      '--legal-name',
      'Acme LLC',
      ...US_BUSINESS_FLAGS,
      '--json',
    ])
  ).id
  const accounts = (await runJson(['accounts', 'internal', 'list', '--customer', ids.Customer, '--json']))
    .data as Array<{
    id: string
    type: string
  }>
  ids.InternalAccount = accounts.find((a) => a.type === 'INTERNAL_FIAT')!.id
  ids.Wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!.id
  ids.CryptoAccount = accounts.find((a) => a.type === 'INTERNAL_CRYPTO')!.id
  ids.ExternalAccount = (
    await runJson(clabeAccountArgs(ids.Customer, '032180000118359719', 'Maria Garcia', '--json'))
  ).id
  ids.UsdAccount = (
    await runJson(externalAddArgs(ids.Customer, ...CHASE_USD_FLAGS, '--beneficiary-name', 'Ada Lovelace', '--json'))
  ).id
  await runJson(['customers', 'terms', ids.Customer, '--accept', '--json'])
  await runJson(['sandbox', 'fund', ids.InternalAccount, '--amount', '5000.00', '--json'])
  const quote = () => runJson(quoteArgs(ids.InternalAccount, ids.ExternalAccount, '--send', '10.00', '--json'))
  ids.Quote = (await quote()).id
  // `sandbox send` pays a quote funded in real time (the customer's crypto deposit arriving).
  ids.RealtimeQuote = (
    await runJson(
      realtimeQuoteArgs(
        ids.Customer,
        '--currency',
        'USDC',
        '--network',
        'SOLANA',
        '--to',
        ids.ExternalAccount,
        '--send',
        '100',
        '--json',
      ),
    )
  ).id
  ids.Transaction = (await runJson(['quote', 'execute', (await quote()).id, '--yes', '--json'])).transactionId
  const login = await runJson(['wallet', 'login', ids.Wallet, '--json'])
  ids.Session = login.id ?? login.session?.id
  ids.AuthMethod = (await runJson(['wallet', 'credentials', 'list', ids.Wallet, '--json'])).data[0].id
  ids.Card = (
    await runJson([
      'cards',
      'issue',
      '--customer',
      ids.Customer,
      '--account',
      ids.InternalAccount,
      '--platform-card-id',
      'example-card-100',
      '--wait',
      '--json',
    ])
  ).id
  const authorize = async (descriptor = 'EXAMPLE SHOP') =>
    (
      await runJson([
        'sandbox',
        'card',
        'authorization',
        ids.Card,
        '--amount',
        '12.50',
        '--descriptor',
        descriptor,
        '--wait-for-event',
        '--json',
      ])
    ).event.data.id
  ids.CardTransaction = await authorize()
  // Expiry needs an authorization nothing has settled yet.
  ids.OpenCardTransaction = await authorize()
  // A resolution needs an EXCEPTION (descriptor suffix 006).
  ids.ExceptionCardTransaction = await authorize('EXAMPLE SHOP 006')
  ids.Webhook = (await runJson(['webhooks', 'events', 'list', '--json'])).data[0].id
  for (const k of ['Quote', 'Transaction', 'Session', 'AuthMethod', 'Webhook', 'Card', 'CardTransaction'])
    expect(ids[k], k).toMatch(new RegExp(`^${k}:`))
  expect(ids.RealtimeQuote).toMatch(/^Quote:/)
})
afterAll(async () => {
  await sbx.stop()
  rmSync(workDir, {recursive: true, force: true})
})

/** One example as argv for svc, with real ids; undefined when it cannot run here as printed. */
function runnable(commandId: string, example: string): string[] | undefined {
  const text = example.replaceAll('<%= config.bin %>', 'svc')
  const m = /^svc (.+)$/.exec(text.trim())
  if (!m) return undefined // piped from or into another program, or an environment prefix
  const words = m[1].match(/"[^"]*"|'[^']*'|\S+/g)!.map((w) => (/^["']/.test(w) ? w.slice(1, -1) : w))
  const out: string[] = []
  for (const w of words) {
    const ph = /^(\w+):(?:…|[0-9a-z]{4}\.\.\.)$/.exec(w)
    if (ph) {
      // The object each command's example is about: a wallet for wallet commands, a business for
      // owners, a US account for a same-currency ACH send.
      const kind =
        ph[1] === 'InternalAccount' && /^(wallet|api)/.test(commandId)
          ? 'Wallet'
          : ph[1] === 'Customer' && commandId.startsWith('kyc:owners')
            ? 'Business'
            : ph[1] === 'ExternalAccount' && commandId === 'quote:send'
              ? 'UsdAccount'
              : ph[1] === 'Quote' && commandId === 'sandbox:send'
                ? 'RealtimeQuote'
                : ph[1] === 'InternalAccount' && commandId === 'accounts:estimate-withdrawal-fee'
                  ? 'CryptoAccount'
                  : ph[1] === 'CardTransaction' && /authorization_expiry/.test(example)
                    ? 'OpenCardTransaction'
                    : ph[1] === 'CardTransaction' && /exception_resolution/.test(example)
                      ? 'ExceptionCardTransaction'
                      : ph[1]
      if (!ids[kind]) return undefined
      out.push(ids[kind])
      continue
    }
    if (/[<>|$]|…|\.\.\.|^@|\.(json|txt|pem|jpg|png|pdf|csv)$/.test(w)) return undefined
    out.push(w.replace(/(\/internal-accounts\/)InternalAccount:[0-9a-z]{4}\.\.\./, `$1${ids.Wallet}`))
  }
  if (LONG_RUNNING.some((re) => re.test(out.join(' ')))) return undefined
  if (NEEDS_TEAM_SERVER.test(out.join(' ')) || NEEDS_RECEIVER.test(out.join(' '))) return undefined
  // Named profiles are the reader's own (created with `svc login`); this test has only `local`.
  if (/--(?:from-)?profile (?!local\b)|^profiles use (?!local\b)/.test(out.join(' '))) return undefined
  return out
}

const cases = Object.values(manifest.commands)
  .flatMap((c) => (c.examples ?? []).map((e) => ({id: c.id, example: typeof e === 'string' ? e : e.command})))
  .sort((a, b) => Number(DESTRUCTIVE.test(a.example)) - Number(DESTRUCTIVE.test(b.example)))

describe('command examples against the local sandbox', () => {
  it('run past parsing and local checks, with no internal error; every command has one that runs here', async () => {
    const failures: string[] = []
    let ran = 0
    for (const {id, example} of cases) {
      const argv = runnable(id, example)
      if (!argv) continue
      ran++
      // In this process (run-command.ts), but `svc mcp`, a server on the process's own stdin, in its own.
      // A --follow goes on until Ctrl-C or --timeout (30 s): it follows on a fake clock, polling the
      // sandbox as it would and stopping at the same deadline, in milliseconds.
      const r =
        argv[0] === 'mcp'
          ? await svc(argv, {env: sbx.env, timeoutMs: 30_000, cwd: workDir})
          : await svcInProcess(argv, {env: sbx.env, cwd: workDir, ...(argv.includes('--follow') ? fakeTime() : {})})
      if (r.code === 2 || /INTERNAL_CLI_ERROR|Unexpected error/.test(r.stdout + r.stderr))
        failures.push(`${example}\n  -> exit ${r.code}: ${(r.stderr || r.stdout).split('\n').slice(0, 3).join(' | ')}`)
    }
    expect(failures).toEqual([])
    expect(ran).toBeGreaterThan(40)
    const covered = new Set(cases.filter((c) => runnable(c.id, c.example)).map((c) => c.id))
    expect(
      Object.keys(manifest.commands).filter(
        (id) => !covered.has(id) && !NEEDS_OUTSIDE.includes(id) && !OBJECTS_NOT_CREATED_HERE.includes(id),
      ),
    ).toEqual([])
  }, 300_000)
})
