import {Flags} from '@oclif/core'
import {CREDENTIAL_TYPES} from './api/wallet.js'
import {idFlag} from './flags.js'

/** `wallet login`'s flags: which credential, and how each credential type's proof comes in. */
export const walletLoginFlags = {
  credential: idFlag('AuthMethod', {description: 'credential to verify (default: the only one of --type)'}),
  type: Flags.string({
    description: 'credential type (default EMAIL_OTP, or the only credential)',
    options: [...CREDENTIAL_TYPES],
  }),
  'otp-stdin': Flags.boolean({description: 'read the OTP code from stdin (instead of a hidden prompt)'}),
  'oidc-token-stdin': Flags.boolean({description: 'OAUTH: read the OIDC ID token from stdin'}),
  'print-nonce': Flags.boolean({
    description: 'OAUTH: prepare a client key and print the nonce (SHA-256 of its public key) to mint the token with',
  }),
  'legacy-key': Flags.boolean({
    description: 'OAUTH: send an uncompressed client key (legacy mode: the session key comes back sealed)',
  }),
  assertion: Flags.string({
    description: 'PASSKEY: the WebAuthn assertion JSON (@file, - or inline) answering the printed challenge',
  }),
  'allow-unsigned-envelope': Flags.boolean({
    description: 'sandbox only: accept an OTP target bundle with no enclave signature',
  }),
}
