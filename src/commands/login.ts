import {resolve} from 'node:path'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../lib/base-command.js'
import {ENVIRONMENTS, saveProfile, useProfile, type Profile} from '../lib/config.js'
import {usageError} from '../lib/errors.js'
import {loginBaseUrl, loginEnvironment, readClientSecret, refuseSecretOnArgv, verifyCredentials} from '../lib/login.js'
import {renderKeyValue} from '../lib/output/render.js'

export default class Login extends BaseCommand<typeof Login> {
  static override summary = 'Save API credentials as a profile bound to one environment, and make it the active one'
  static override description =
    'The client secret comes from --secret-stdin, SVC_CLIENT_SECRET or a hidden prompt (never a flag value) and is stored in a 0600 file in the config dir. ' +
    'The base URL comes from --base-url, else SVC_BASE_URL (else the local sandbox). The credentials are checked with GET /config before anything is saved (--no-verify to skip).'
  static override examples = [
    'printf %s "$SECRET" | <%= config.bin %> login --profile prod --environment production --base-url https://api.example.com/2025-10-13 --token-id tok_123 --secret-stdin',
    'SVC_CLIENT_SECRET=... <%= config.bin %> login --profile sbx --environment sandbox --base-url https://sandbox.example.com --token-id tok_456',
    '<%= config.bin %> login --profile local --token-id local_abc --secret-stdin < secret.txt',
  ]
  static override flags = {
    environment: Flags.string({
      description: 'environment the profile is bound to (default: local for a loopback URL)',
      options: [...ENVIRONMENTS],
    }),
    'token-id': Flags.string({description: 'API token id (or SVC_TOKEN_ID)', env: 'SVC_TOKEN_ID'}),
    'secret-stdin': Flags.boolean({description: 'read the client secret from stdin'}),
    verify: Flags.boolean({
      description: 'check the credentials with GET /config before saving',
      default: true,
      allowNo: true,
    }),
  }

  public override async init(): Promise<void> {
    refuseSecretOnArgv(this.argv)
    await super.init()
  }

  async run() {
    const f = this.flags
    // Flag > env, as for every command (the README's precedence).
    const urlGiven = f['base-url'] ?? (this.ctx.env.SVC_BASE_URL || undefined)
    const environment = loginEnvironment(f.environment, urlGiven)
    const baseUrl = loginBaseUrl(environment, urlGiven)
    const name = f.profile ?? environment
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name))
      throw usageError(`Profile name "${name}" must be letters, digits, . _ - (up to 64)`)
    // The flag's own `env` is read by the parser from the process; the command's env decides (lib/io.ts).
    const tokenId = f['token-id'] ?? (this.ctx.env.SVC_TOKEN_ID || undefined)
    if (!tokenId) throw usageError('Missing flag: --token-id (or set SVC_TOKEN_ID)')
    const secret = await readClientSecret({stdin: f['secret-stdin'], env: this.ctx.env})
    // --ca-file is kept in the profile, so every later command against it trusts the same CA.
    const caFile = f['ca-file'] ? resolve(f['ca-file']) : undefined
    if (f.verify)
      await verifyCredentials({baseUrl, tokenId, secret, environment}, this.config.version, this.ctx.remainingMs(), {
        network: {env: this.ctx.env, ca: caFile ? {file: caFile, from: '--ca-file'} : undefined},
      })
    const profile: Profile = {environment, baseUrl, tokenId, ...(caFile ? {caFile} : {})}
    await saveProfile(name, profile, secret, this.ctx.env)
    await useProfile(name, this.ctx.env)
    this.out.success(
      `Logged in: profile ${name} (${environment}) is now active${f.verify ? '' : ' (credentials not verified)'}`,
    )
    renderKeyValue(this.out, [
      ['profile', name],
      ['environment', environment],
      ['baseUrl', baseUrl],
      ['tokenId', tokenId],
    ])
    return {profile: name, ...profile, verified: f.verify, active: true}
  }
}
