import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'
import {listen, type ReceivedEvent} from '../../lib/webhook-listener.js'

export default class WebhooksListen extends BaseCommand<typeof WebhooksListen> {
  static override handlesInterrupt = true
  static override summary = 'Receive webhooks locally, verify their signatures and print them'
  static override description = 'Prints one line per verified event (one JSON document per line with --json). With --register the sandbox is pointed at this listener (PATCH /config webhookEndpoint).'
  static override examples = [
    '<%= config.bin %> webhooks listen --port 4020 --register',
    '<%= config.bin %> webhooks listen --port 0 --register --json --max-events 3',
  ]
  static override defaultTimeout = '24h'
  static override flags = {
    port: Flags.integer({description: 'port on 127.0.0.1 (0 picks a free one)', default: 4020, min: 0, max: 65535}),
    register: Flags.boolean({description: 'set this listener as the webhook endpoint of the profile (PATCH /config)'}),
    'public-key': Flags.string({description: 'PEM file of the webhook public key (default: fetched from the sandbox)'}),
    'max-events': Flags.integer({description: 'exit after this many events', min: 1}),
  }

  async run() {
    const f = this.flags
    const pem = f['public-key'] ? readFileSync(f['public-key'], 'utf8') : await this.fetchPublicKey()
    let count = 0
    let done!: () => void
    const finished = new Promise<void>((r) => (done = r))
    const {server, url} = await listen({
      port: f.port,
      publicKeyPem: pem,
      onRejected: (reason) => this.out.warn(reason),
      onEvent: (e) => {
        this.print(e)
        if (f['max-events'] && ++count >= f['max-events']) done()
      },
    })
    if (f.register) {
      await this.ctx.client.request({method: 'PATCH', path: ['config'], body: {webhookEndpoint: url}})
      this.out.info(`Registered ${url} as the webhook endpoint`)
    }
    this.out.info(`Listening on ${url} (Ctrl-C to stop)`)
    const timer = setTimeout(done, this.ctx.remainingMs())
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
    await finished
    clearTimeout(timer)
    server.close()
    return undefined
  }

  private print(e: ReceivedEvent): void {
    if (this.jsonEnabled()) this.out.write(JSON.stringify(e.event) + '\n')
    else {
      const data = e.event.data as {id?: string; status?: string; kycStatus?: string; kybStatus?: string} | undefined
      const state = data?.status ?? data?.kycStatus ?? data?.kybStatus ?? ''
      this.out.print(`${e.event.timestamp}  ${this.out.bold(e.event.type)}  ${data?.id ?? ''} ${state}  ${this.out.dim(e.event.id)}`)
    }
  }

  private async fetchPublicKey(): Promise<string> {
    const res = await this.ctx.client.request({method: 'GET', path: ['sandbox', 'webhook-public-key']})
    if (typeof res.body !== 'string' || !res.body.includes('PUBLIC KEY')) throw usageError('Could not fetch the webhook public key', 'Pass it with --public-key <file.pem>.')
    return res.body
  }
}

