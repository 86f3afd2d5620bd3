import {writeFileSync} from 'node:fs'
import {Errors, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {io} from '../../lib/io.js'
import {webhookUrl} from '../../lib/schemas/webhooks.js'
import {certify, junitXml, loadSigningKey} from '../../lib/webhook-certify/run.js'

export default class WebhooksCertify extends BaseCommand<typeof WebhooksCertify> {
  static override summary =
    'Certify your webhook receiver: send it signed deliveries of every case and judge each answer'
  static override description = [
    'Sends signed events to URL (only there, never to the Service) and judges each case: signatures, ' +
      'duplicates, retries, the pending-payment approval contract, every webhook type of the contract and an unknown one, ' +
      "and answers within the Service's 5 s timeout. Exits 0 when every case passes, 1 otherwise.",
    "Deliveries are signed with the local sandbox's webhook key (its data dir), so a receiver that trusts " +
      '`GET /sandbox/webhook-public-key` trusts them; --key signs with another P-256 private key.',
    'The same --seed gives the same event ids and bodies (timestamps follow the clock).',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> webhooks certify --url http://127.0.0.1:3000/webhooks',
    '<%= config.bin %> webhooks certify --url http://127.0.0.1:3000/webhooks --junit certify.xml --seed 7 --json',
  ]
  static override flags = {
    url: Flags.string({description: 'your receiver (http or https)', required: true}),
    junit: Flags.string({description: 'also write the cases as JUnit XML to this file'}),
    seed: Flags.integer({description: 'seed of the event ids and bodies (same seed, same run)', default: 1, min: 0}),
    key: Flags.string({description: "PEM P-256 private key to sign with (default: the local sandbox's webhook key)"}),
    sandbox: Flags.boolean({
      description:
        "also the cases the sandbox observes: real PENDING payments are made there (the profile's credentials); a 202 must be followed by the receiver's approve or reject within 5 s, and copies of one payment's event decided once",
    }),
  }

  async run() {
    const f = this.flags
    if (!webhookUrl.safeParse(f.url).success) throw usageError(`--url ${f.url} must be an http(s) URL`)
    const key = loadSigningKey(f.key, io().env)
    let sandbox
    if (f.sandbox) {
      this.ctx.refuseInProduction('webhooks certify --sandbox')
      sandbox = (await import('../../lib/webhook-certify/sandbox-probe.js')).sandboxProbe(this.ctx)
    }
    const result = await certify({url: f.url, key, seed: f.seed, startMs: io().now(), sandbox})
    if (f.junit) writeFileSync(f.junit, junitXml(result))
    const failed = result.cases.filter((c) => !c.passed)
    if (!this.jsonEnabled()) {
      for (const c of result.cases) {
        this.out.print(`${c.passed ? this.out.green('✓') : this.out.red('✗')} ${c.name}`)
        if (!c.passed) this.out.print(this.out.dim(`    expected ${c.expected}; observed ${c.observed}`))
      }
      this.out.print(`${result.cases.length - failed.length}/${result.cases.length} cases passed`)
    }
    if (result.passed) return result
    // The scorecard is the answer either way; the exit code tells CI the receiver is not ready.
    if (this.jsonEnabled()) this.out.printJson(result)
    throw new Errors.ExitError(ExitCode.FAILED)
  }
}
