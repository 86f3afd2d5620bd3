import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {loadPasskey, savePasskey} from '../../../lib/keystore-passkeys.js'
import {signAssertion} from '../../../lib/wallet/passkey-authenticator.js'

export default class SandboxPasskeySign extends BaseCommand<typeof SandboxPasskeySign> {
  static override summary = 'Software authenticator: sign a passkey challenge and print the WebAuthn assertion'
  static override description =
    'The challenge is UTF-8 encoded as the Service asks (not base64-decoded). The output feeds `svc ' +
    'wallet login --type PASSKEY --assertion @file`.'
  static override examples = [
    '<%= config.bin %> sandbox passkey sign --credential-id q1w2... --challenge 3f5a... --json > assertion.json',
  ]
  static override flags = {
    'credential-id': Flags.string({description: 'the passkey to use (from `sandbox passkey create`)', required: true}),
    challenge: Flags.string({
      description: 'the challenge printed by `svc wallet login --type PASSKEY`',
      required: true,
    }),
    origin: Flags.string({description: 'origin for clientDataJSON (default: the one the passkey was created with)'}),
  }

  async run() {
    const {assertion, passkey} = signAssertion(
      loadPasskey(this.flags['credential-id'], this.ctx.env),
      this.flags.challenge,
      {origin: this.flags.origin},
    )
    savePasskey(passkey, this.ctx.env)
    this.out.success(`Signed with ${passkey.credentialId} (counter ${passkey.counter})`)
    if (!this.jsonEnabled()) this.out.printJson(assertion)
    return assertion
  }
}
