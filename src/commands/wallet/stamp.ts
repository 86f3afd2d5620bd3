import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'
import {idArg} from '../../lib/flags.js'
import {keyStoreFor, requireSession, signerFor} from '../../lib/workflows/wallet/common.js'
import {readStdinText} from '../../lib/io.js'

export default class WalletStamp extends BaseCommand<typeof WalletStamp> {
  static override summary =
    'Stamp a payloadToSign with a stored session key and print the Service-Wallet-Signature value'
  static override description =
    'For interop with other tools: the payload is signed byte for byte (a trailing newline from a file or ' +
    'stdin is part of it unless --strip-newline).'
  static override examples = [
    '<%= config.bin %> wallet stamp InternalAccount:0b6f... --payload \'{"type":"ACTIVITY"}\'',
    'jq -j .payloadToSign challenge.json | <%= config.bin %> wallet stamp InternalAccount:0b6f... --payload -',
  ]
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {
    payload: Flags.string({description: 'the exact payloadToSign: inline, @file or - for stdin', required: true}),
    session: Flags.string({description: 'sign with this Session (default: the freshest stored one)'}),
    'strip-newline': Flags.boolean({description: 'drop one trailing newline read from a file or stdin'}),
  }

  async run() {
    const f = this.flags
    let payload =
      f.payload === '-' ? readStdinText() : f.payload.startsWith('@') ? readText(f.payload.slice(1)) : f.payload
    if (f['strip-newline']) payload = payload.replace(/\r?\n$/, '')
    const keys = keyStoreFor(this.ctx)
    const session = requireSession(keys, this.args.accountId, {sessionId: f.session})
    const header = await signerFor(keys, session)({payloadToSign: payload, requestId: '', expiresAt: ''})
    this.out.print(header)
    return {
      header: 'Service-Wallet-Signature',
      value: header,
      publicKey: session.publicKey,
      sessionId: session.sessionId,
    }
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    throw usageError(`--payload: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
}
