import {Flags} from '@oclif/core'
import {issueCard} from '../../lib/api/cards.js'
import {BaseCommand} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'
import {checkId, dryRunFlag, idFlag, idempotencyKeyFlag} from '../../lib/flags.js'
import {checkAmountForm, maxSpendMinor, waitForCard} from '../../lib/workflows/cards.js'
import {renderCard} from '../../lib/output/cards.js'
import {cardCreateRequest} from '../../lib/schemas/cards.js'
import {checkWith} from '../../lib/validate.js'

export default class CardsIssue extends BaseCommand<typeof CardsIssue> {
  static override summary = 'Issue a virtual card to a customer whose KYC is APPROVED'
  static override description =
    'The card starts PROCESSING while the issuer provisions it; --wait follows it to ACTIVE (or CLOSED ' +
    'when the issuer rejects it). One live card per cardholder in the sandbox (409 CARD_LIMIT_REACHED; ' +
    'closing a card frees the slot).'
  static override examples = [
    '<%= config.bin %> cards issue --customer Customer:… --account InternalAccount:… --wait',
    '<%= config.bin %> cards issue --customer Customer:… --account InternalAccount:… --max-spend 250.00 --platform-card-id emp-042 --json',
  ]
  static override flags = {
    customer: idFlag('Customer', {
      description: 'cardholder (KYC must be APPROVED)',
      required: true,
      name: 'cardholderId',
    }),
    account: Flags.string({
      description: 'funding internal account; repeat for more, in priority order',
      required: true,
      multiple: true,
      multipleNonGreedy: true,
    }),
    'platform-card-id': Flags.string({
      description: 'your own id for the card (sandbox: its last three characters pick the issuance outcome)',
    }),
    'max-spend': Flags.string({
      description: 'largest single transaction, in real units of the card currency (250.00)',
      exclusive: ['max-spend-minor'],
    }),
    'max-spend-minor': Flags.string({description: 'largest single transaction, in smallest units'}),
    wait: Flags.boolean({description: 'wait until the card leaves PROCESSING (exit 8 at --timeout)'}),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const accounts = f.account.map((a, i) => checkId(a, ['InternalAccount'], `fundingSources.${i}`))
    checkAmountForm({amount: f['max-spend'], amountMinor: f['max-spend-minor']})
    const minor =
      f['max-spend-minor'] !== undefined ? Number(f['max-spend-minor']) : f['max-spend'] !== undefined ? 1 : undefined
    const draft = {
      cardholderId: f.customer,
      form: 'VIRTUAL' as const,
      fundingSources: accounts,
      ...(f['platform-card-id'] ? {platformCardId: f['platform-card-id']} : {}),
      ...(minor !== undefined ? {maxSpendPerTransaction: minor} : {}),
    }
    let body = checkWith(cardCreateRequest, draft)
    if (f['max-spend'] !== undefined) {
      if (f['dry-run'])
        throw usageError(
          "--dry-run sends nothing, so the funding account's currency is not looked up to convert --max-spend",
          'Give --max-spend-minor <smallest units> with --dry-run.',
        )
      const limit = await maxSpendMinor(this.ctx, f['max-spend'], accounts[0], f.customer!)
      body = checkWith(cardCreateRequest, {...body, maxSpendPerTransaction: limit})
    }
    const req = issueCard(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`issue a card to ${f.customer}`)
    let card = await this.ctx.client.call(req)
    if (f.wait && card.state === 'PROCESSING') card = await waitForCard(this.ctx, card.id)
    this.out.success(
      `Issued ${card.id} (•••• ${card.last4 ?? '????'}): ${card.state}${card.stateReason ? ` (${card.stateReason})` : ''}`,
    )
    renderCard(this.out, card)
    return card
  }
}
