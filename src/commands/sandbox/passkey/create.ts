import {randomBytes} from 'node:crypto'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {loadPasskey, savePasskey} from '../../../lib/keystore-passkeys.js'
import {createPasskey, DEFAULT_ORIGIN, DEFAULT_RP_ID} from '../../../lib/wallet/passkey-authenticator.js'
import {InputError} from '../../../lib/errors.js'

export default class SandboxPasskeyCreate extends BaseCommand<typeof SandboxPasskeyCreate> {
  static override summary =
    'Software authenticator: create a P-256 passkey and print its WebAuthn registration (attestation "none")'
  static override description =
    'For sandbox work with no browser. The registration JSON feeds `svc wallet credentials add --type ' +
    'PASSKEY --attestation @file`; the private key stays in the config dir (0600).'
  static override examples = ['<%= config.bin %> sandbox passkey create --json > registration.json']
  static override flags = {
    challenge: Flags.string({description: 'registration challenge, base64url (default: 32 random bytes)'}),
    'rp-id': Flags.string({description: 'relying party id', default: DEFAULT_RP_ID}),
    origin: Flags.string({description: 'origin written into clientDataJSON', default: DEFAULT_ORIGIN}),
    'credential-id': Flags.string({
      description:
        're-register a credential this authenticator already holds (reproduces PASSKEY_CREDENTIAL_ALREADY_EXISTS)',
    }),
  }

  async run() {
    const f = this.flags
    if (f.challenge !== undefined && !/^[A-Za-z0-9_-]+$/.test(f.challenge))
      throw new InputError([{field: 'challenge', message: 'must be base64url text'}])
    const existing = f['credential-id'] ? loadPasskey(f['credential-id'], this.ctx.env) : undefined
    const {passkey, registration} = createPasskey({
      challenge: f.challenge ?? randomBytes(32).toString('base64url'),
      rpId: f['rp-id'],
      origin: existing ? undefined : f.origin,
      existing,
    })
    savePasskey(passkey, this.ctx.env)
    this.out.success(`Created passkey ${registration.credentialId} for ${passkey.rpId}`)
    if (!this.jsonEnabled()) this.out.printJson(registration)
    return registration
  }
}
