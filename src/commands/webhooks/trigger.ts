import {Args, Flags} from '@oclif/core'
import {sendTestEvent} from '../../lib/api/sandbox-events.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'
import {dryRunFlag} from '../../lib/flags.js'
import {refuseRecipe, triggerInput} from '../../lib/webhook-trigger/catalogue.js'

export default class WebhooksTrigger extends BaseCommand<typeof WebhooksTrigger> {
  static override summary = 'Make the sandbox emit a real, signed event of a type (default TEST) and show its delivery'
  static override description = [
    'Without a type: a signed TEST event goes to the webhook endpoint now and its answer is shown.',
    'With a type: a short recipe of real API calls makes the sandbox do the thing (a throwaway customer is onboarded, an account funded, a payout executed, a card simulator run ...); ' +
      "the command then waits, up to --timeout, for that event about the object it made in the sandbox's event log and prints its id and delivery. " +
      'Against a sandbox without the local event log, it says what it did: the event goes to the configured endpoint.',
    'With --object: no recipe; the sandbox takes that existing object through the transition that emits the type (a PENDING incoming payment to COMPLETED, a PENDING customer to APPROVED, an open card transaction to SETTLED ...), ' +
      'when its state allows (exit 6 naming its state and the states needed otherwise). --set gives the parameters the transition has (amount, failureReason, state).',
    'See `svc webhooks trigger --list` for the types, what each recipe does, and which take --object.',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> webhooks trigger',
    '<%= config.bin %> webhooks trigger --list',
    '<%= config.bin %> webhooks trigger OUTGOING_PAYMENT.COMPLETED --json',
    '<%= config.bin %> webhooks trigger CARD_TRANSACTION.SETTLED --url http://127.0.0.1:4020/webhooks',
    '<%= config.bin %> webhooks trigger OUTGOING_PAYMENT.COMPLETED --object Transaction:…',
    '<%= config.bin %> webhooks trigger CARD_TRANSACTION.PARTIALLY_SETTLED --object CardTransaction:… --set amount=5.00',
  ]
  static override baseFlags = withTimeout('2m')
  static override args = {
    type: Args.string({
      description: 'event type to produce (TEST when omitted; `--list` shows them all)',
      ignoreStdin: true,
    }),
  }
  static override flags = {
    url: Flags.string({
      description:
        "local sandbox only: deliver TEST here instead of the configured endpoint; another type's event is also re-delivered here once it happened",
    }),
    list: Flags.boolean({description: 'list the event types this command can produce and how'}),
    object: Flags.string({
      description:
        'an existing object (Transaction:..., Customer:..., CardTransaction:..., Card:..., ExternalAccount:...) to take through the transition that emits the type, instead of a recipe',
    }),
    set: Flags.string({
      description: 'with --object: a parameter of the transition as field=value (repeatable), e.g. amount=5.00',
      multiple: true,
      dependsOn: ['object'],
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    if (this.flags.list) return this.list()
    const type = triggerInput(this.args.type, this.flags.url)
    this.ctx.refuseInProduction('webhooks trigger')
    if (this.flags.object !== undefined) return this.onObject(type)
    refuseRecipe(type, {local: this.ctx.profile.environment === 'local', dryRun: Boolean(this.flags['dry-run'])})
    if (type === 'TEST') return this.test()
    this.ctx.banner(`webhooks trigger ${type}`)
    const [{triggerEvent}, {renderTriggerResult}] = await Promise.all([
      import('../../lib/webhook-trigger/run.js'),
      import('../../lib/webhook-trigger/render.js'),
    ])
    const r = await triggerEvent(this.ctx, type, {url: this.flags.url})
    renderTriggerResult(this.out, r, this.jsonEnabled())
    return r
  }

  /** `--object`: one request (so --dry-run shows it); the transition is the sandbox's, the event its own. */
  private async onObject(type: string) {
    const {objectTriggerInput, objectTriggerRequest, triggerOnObject} =
      await import('../../lib/webhook-trigger/on-object.js')
    const input = objectTriggerInput(type, this.flags.object!, this.flags.set)
    if (this.ctx.profile.environment !== 'local')
      throw usageError(
        '--object can be used only against the local sandbox: it uses a local-sandbox helper',
        'Use the local profile (`svc sandbox serve`).',
      )
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(objectTriggerRequest(input)))
    this.ctx.banner(`webhooks trigger ${type} --object ${input.objectId}`)
    const {renderTriggerResult} = await import('../../lib/webhook-trigger/render.js')
    const r = await triggerOnObject(this.ctx, input, {url: this.flags.url})
    renderTriggerResult(this.out, r, this.jsonEnabled())
    return r
  }

  private async list() {
    const {renderTriggerList} = await import('../../lib/webhook-trigger/render.js')
    return renderTriggerList(this.out, this.jsonEnabled())
  }

  private async test() {
    const req = sendTestEvent(this.flags.url)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const res = await this.ctx.client.request(req)
    const result = (res.body ?? {}) as {url?: string; response_status?: number}
    this.out.success(`TEST event delivered to ${result.url ?? 'the endpoint'} (HTTP ${result.response_status ?? '?'})`)
    return result
  }
}
