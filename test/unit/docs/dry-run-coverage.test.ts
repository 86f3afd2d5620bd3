// product.md (Safety): "--dry-run on mutating commands prints the request (secrets redacted) and
// sends nothing". Walks oclif.manifest.json (written by `npm run build`): every command has a
// --dry-run flag or is exempt here with its reason, so a new command that sends a POST, PUT, PATCH
// or DELETE without --dry-run fails until it gets one (or a reason that holds).
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'

const manifest = JSON.parse(readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, {flags: Record<string, unknown>}>
}

const NOTHING = 'sends nothing to the API'
const LOCAL = 'local file operation on the sandbox data dir; sends nothing to the API'
const GET = 'read-only: sends only GETs'

/** Commands without --dry-run, each with why it needs none. */
const EXEMPT: Record<string, string> = {
  help: NOTHING,
  version: NOTHING,
  'profiles:list': `${NOTHING} (reads the local config)`,
  'profiles:remove': `${NOTHING} (edits the local config)`,
  'profiles:use': `${NOTHING} (edits the local config)`,
  logout: `${NOTHING} (forgets the stored client secret)`,
  history: `${NOTHING} (reads the local record of writes)`,
  'history:clear': `${NOTHING} (deletes the local record of writes)`,
  'wallet:keys:list': `${NOTHING} (reads the local key store)`,
  'wallet:keys:purge': `${NOTHING} (deletes expired keys from the local key store)`,
  'wallet:stamp': `${NOTHING} (signs a payload with a stored key, locally)`,
  'sandbox:passkey:create': `${NOTHING} (a software authenticator writing a local file)`,
  'sandbox:passkey:sign': `${NOTHING} (a software authenticator signing locally)`,
  'sandbox:serve': `${LOCAL} (starts the local sandbox)`,
  'sandbox:stop': `${LOCAL} (stops the local sandbox process)`,
  'sandbox:backup': LOCAL,
  'sandbox:restore': LOCAL,
  'sandbox:snapshot:save': LOCAL,
  'sandbox:snapshot:load': LOCAL,
  'accounts:external:get': GET,
  'accounts:external:list': GET,
  'accounts:internal:get': GET,
  'accounts:internal:list': GET,
  'agents:approvals': GET,
  'agents:device-code:status': GET,
  'agents:get': GET,
  'agents:list': GET,
  'agents:me:accounts': GET,
  'agents:me:actions': GET,
  'agents:me:show': GET,
  'agents:me:transactions': GET,
  'cards:get': GET,
  'cards:list': GET,
  'cards:transactions:get': GET,
  'cards:transactions:list': GET,
  'customers:get': GET,
  'customers:import-status': GET,
  'customers:list': GET,
  doctor: `${GET} (checks the setup)`,
  'flow:capture': `${GET} from --from-profile; writes a local flow file`,
  'flow:init': `${NOTHING} (copies the shipped example flows into a local folder)`,
  'invitations:get': GET,
  'kyc:documents:list': GET,
  'kyc:owners:list': GET,
  'kyc:status': GET,
  'kyc:wait': `${GET} (polls until a decision)`,
  login: `${GET} (GET /config checks the credentials); writes a local profile`,
  'quote:get': GET,
  'quote:receiver': GET,
  'quote:wait': `${GET} (polls a payment)`,
  rates: GET,
  'reference:banks': GET,
  'reference:uma-providers': GET,
  'reference:vasps': GET,
  'sandbox:clock': GET,
  'sandbox:list': GET,
  'sca:factors:list': GET,
  'sca:reset:get': GET,
  'stablecoins:get': GET,
  'stablecoins:list': GET,
  'stablecoins:operations:get': GET,
  'stablecoins:operations:list': GET,
  'stablecoins:provider-accounts:get': GET,
  'stablecoins:provider-accounts:list': GET,
  'tokens:get': GET,
  'tokens:list': GET,
  'transactions:get': GET,
  'transactions:list': GET,
  'wallet:credentials:list': GET,
  'wallet:delegated-keys:get': GET,
  'wallet:delegated-keys:list': GET,
  'wallet:sessions:list': GET,
  'webhooks:events:list': GET,
  'webhooks:certify':
    'posts test deliveries to the receiver given with --url, not to the Service; --sandbox makes a throwaway customer and payment by a recipe of dependent calls, as `webhooks trigger TYPE` does',
  'webhooks:verify': `${GET} (the webhook public key); verifies a signature locally`,
  whoami: `${GET} (GET /config checks the credentials)`,
  'accounts:estimate-withdrawal-fee': 'a POST that only computes a fee estimate: it changes nothing',
  'wallet:export':
    "a signed POST that fetches the wallet's mnemonic, sealed to a key drawn for the run: it changes nothing on the Service",
  'wallet:login':
    'an interactive login (OTP, OIDC token or passkey assertion exchanged for a session key): its first request is `wallet credentials challenge --dry-run`',
  'webhooks:listen': 'a local webhook listener; --register sends the PATCH `webhooks endpoint <url> --dry-run` shows',
  mcp: "a server of tools: it sends nothing itself, and each write tool plans with its command's --dry-run before it sends (docs/mcp.md)",
  'flow:run': "runs a flow file's steps: each is an svc command or API call of its own (see docs/flows.md)",
}

describe('every mutating command has --dry-run', () => {
  const ids = Object.keys(manifest.commands).sort()

  it('each command has --dry-run or is exempt with a reason', () => {
    const missing = ids.filter((id) => !('dry-run' in manifest.commands[id].flags) && !EXEMPT[id])
    expect(missing, 'give these --dry-run (src/lib/flags.ts dryRunFlag), or exempt them here with why').toEqual([])
  })

  it('the exemptions are current: each names a command that exists and has no --dry-run', () => {
    const stale = Object.keys(EXEMPT).filter((id) => !manifest.commands[id] || 'dry-run' in manifest.commands[id].flags)
    expect(stale).toEqual([])
  })

  it('the count holds: commands with --dry-run plus exemptions are all the commands', () => {
    const withDryRun = ids.filter((id) => 'dry-run' in manifest.commands[id].flags)
    expect(withDryRun.length).toBeGreaterThanOrEqual(90)
    expect(withDryRun.length + Object.keys(EXEMPT).length).toBe(ids.length)
  })
})
