import {readFileSync} from 'node:fs'
import {Errors, Flags} from '@oclif/core'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {InputError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {webhookUrl} from '../../lib/schemas/webhooks.js'
import {Forwarder} from '../../lib/webhook-forward.js'
import {fetchWebhookPublicKey, listen} from '../../lib/webhook-listener.js'
import {printReceivedEvent} from '../../lib/output/webhook-event.js'
import {listenerInterrupted, registerListener} from '../../lib/webhook-register.js'
import {io} from '../../lib/io.js'

export default class WebhooksListen extends BaseCommand<typeof WebhooksListen> {
  static override handlesInterrupt = true
  static override summary =
    'Receive webhooks locally, verify their signatures and print them; optionally forward them to your app'
  static override description =
    'Prints one line per verified event (one JSON document per line with --json). With --register the sandbox is pointed at this listener (PATCH /config webhookEndpoint). ' +
    'With --forward-to each event is re-posted to your app, in order, with the original body and ' +
    'signature headers, and the app\'s HTTP status is printed per event (--json: a "forward" key).'
  static override examples = [
    '<%= config.bin %> webhooks listen --port 4020 --register',
    '<%= config.bin %> webhooks listen --port 0 --register --json --max-events 3',
    '<%= config.bin %> webhooks listen --register --forward-to http://localhost:3000/webhooks',
  ]
  static override baseFlags = withTimeout('24h')
  static override flags = {
    port: Flags.integer({description: 'port on 127.0.0.1 (0 picks a free one)', default: 4020, min: 0, max: 65535}),
    register: Flags.boolean({description: 'set this listener as the webhook endpoint of the profile (PATCH /config)'}),
    'public-key': Flags.string({description: 'PEM file of the webhook public key (default: fetched from the sandbox)'}),
    'max-events': Flags.integer({description: 'exit after this many events', min: 1}),
    'forward-to': Flags.string({
      description: 're-post each verified event to this URL (your app) with its original body and signature headers',
    }),
  }

  async run() {
    const f = this.flags
    if (f['forward-to'] !== undefined && !webhookUrl.safeParse(f['forward-to']).success)
      throw new InputError([{field: 'forward-to', message: `must be an http(s) URL, got "${f['forward-to']}"`}])
    const forwarder = f['forward-to'] ? new Forwarder(f['forward-to']) : undefined
    const pem = f['public-key'] ? readFileSync(f['public-key'], 'utf8') : await fetchWebhookPublicKey(this.ctx.client)
    let count = 0
    let done!: () => void
    const finished = new Promise<void>((r) => (done = r))
    const {server, url} = await listen({
      port: f.port,
      publicKeyPem: pem,
      onRejected: (reason) => this.out.warn(reason),
      onEvent: (e) => {
        const counted = () => {
          if (f['max-events'] && ++count >= f['max-events']) done()
        }
        if (!forwarder) {
          printReceivedEvent(this.out, e)
          counted()
        } else
          forwarder.forward(e, (r) => {
            printReceivedEvent(this.out, e, r)
            counted()
          })
      },
    })
    let interrupted = false
    const stop = (signal?: string) => {
      interrupted = signal === 'SIGINT'
      done()
    }
    const offSignals = [io().onSignal('SIGINT', stop), io().onSignal('SIGTERM', stop)]
    const registration = f.register
      ? await registerListener(this.ctx.client, url).catch((e) => (server.close(), Promise.reject(e)))
      : undefined
    if (registration) this.out.info(`Registered ${url} as the webhook endpoint (put back when this stops)`)
    this.out.info(`Listening on ${url}${forwarder ? `, forwarding to ${f['forward-to']}` : ''} (Ctrl-C to stop)`)
    const timer = setTimeout(done, this.ctx.remainingMs())
    await finished
    clearTimeout(timer)
    for (const off of offSignals) off()
    // Unregister first: no new deliveries to this listener while what was received reaches the app.
    const restored = await registration?.restore()
    await forwarder?.idle() // events already received still reach the app (each post is bounded by a timeout)
    server.close()
    // Ctrl-C is how a listener is meant to stop: still exit 130 (the exit-code table), but a person
    // sees where the endpoint was left, not an "Error:". Under --json the INTERRUPTED document stays
    // the script's answer, as for every interrupted command.
    if (interrupted && this.jsonEnabled()) throw listenerInterrupted(restored)
    if (interrupted) this.out.info('Stopped listening (Ctrl-C).')
    if (restored)
      restored.fix
        ? this.out.warn(`${restored.said}. Point it elsewhere with: ${restored.fix}`)
        : this.out.info(restored.said)
    if (interrupted) throw new Errors.ExitError(ExitCode.INTERRUPTED)
    return undefined
  }
}
