import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {SvcError, usageError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {verifyWebhookSignature} from '../../lib/webhook-signature.js'
import {io} from '../../lib/io.js'

/** `@file` or `-` (stdin) as exact bytes: a signature covers the raw body, so nothing is re-encoded. */
function readRaw(value: string, what: string): Buffer {
  try {
    if (value === '-') return io().readStdin()
    if (value.startsWith('@')) return readFileSync(value.slice(1))
  } catch (error) {
    throw usageError(`Cannot read ${what} from ${value}: ${(error as Error).message}`)
  }
  return Buffer.from(value, 'utf8')
}

export default class WebhooksVerify extends BaseCommand<typeof WebhooksVerify> {
  static override summary = 'Verify a saved webhook delivery: its exact body against its X-Service-Signature'
  static override description =
    'Exit 0 when the signature is valid, 4 when it is not. The public key defaults to the one the sandbox ' +
    'serves (GET /sandbox/webhook-public-key).'
  static override examples = [
    '<%= config.bin %> webhooks verify --payload @event.json --signature "$SIG"',
    '<%= config.bin %> webhooks verify --payload - --signature @sig.txt --public-key webhook.pem < event.json',
  ]
  static override flags = {
    payload: Flags.string({description: 'the raw body: @file, - for stdin, or inline', required: true}),
    signature: Flags.string({description: 'the X-Service-Signature header value: inline or @file', required: true}),
    'public-key': Flags.string({description: 'PEM file of the webhook public key (default: fetched from the API)'}),
  }

  async run() {
    const f = this.flags
    if (f.payload === '-' && f.signature === '-')
      throw usageError('Only one of --payload and --signature can read stdin')
    const body = readRaw(f.payload, '--payload')
    const signature = readRaw(f.signature, '--signature').toString('utf8').trim()
    const pem = f['public-key']
      ? readRaw('@' + f['public-key'], '--public-key').toString('utf8')
      : await this.fetchPublicKey()
    if (!verifyWebhookSignature(body, signature, pem)) {
      throw new SvcError({
        code: 'WEBHOOK_SIGNATURE_INVALID',
        exitCode: ExitCode.AUTH,
        message: 'The signature does not match this body and key',
        hint: 'Verify the exact bytes received (no re-formatting) against the key of the environment that sent them.',
      })
    }
    let event: {id?: string; type?: string} = {}
    try {
      event = JSON.parse(body.toString('utf8'))
    } catch {}
    this.out.success(`Valid signature${event.type ? ` on ${event.type} ${event.id ?? ''}` : ''}`)
    return {valid: true, id: event.id ?? null, type: event.type ?? null}
  }

  private async fetchPublicKey(): Promise<string> {
    const res = await this.ctx.client.request({method: 'GET', path: ['sandbox', 'webhook-public-key']})
    if (typeof res.body !== 'string' || !res.body.includes('PUBLIC KEY'))
      throw usageError('Could not fetch the webhook public key', 'Pass it with --public-key <file.pem>.')
    return res.body
  }
}
