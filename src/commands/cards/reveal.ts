import {Flags} from '@oclif/core'
import {revealCard} from '../../lib/api/cards.js'
import {BaseCommand} from '../../lib/base-command.js'
import {ApiError, cancelled, usageError} from '../../lib/errors.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {checkOutPath, writeSecretFile} from '../../lib/workflows/wallet/secret-file.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {canPrompt, promptConfirm} from '../../lib/prompts.js'

export default class CardsReveal extends BaseCommand<typeof CardsReveal> {
  static override summary = "Reveal a card's full number, CVV and expiry through a short-lived link"
  static override description =
    "The API answers with a signed link (panEmbedUrl) to the processor's page that shows the card " +
    'details; the link is a bearer secret for minutes. It is shown only on a terminal after a ' +
    'confirmation, or written to a new 0600 file with --out; never in --json, --debug or logs. Every ' +
    'reveal is audit-logged by the Service.'
  static override examples = [
    '<%= config.bin %> cards reveal Card:… --out card-link.json',
    '<%= config.bin %> cards reveal Card:… --out card-link.json --force --json',
  ]
  static override args = {cardId: idArg('Card')}
  static override flags = {
    out: Flags.string({description: 'write the reveal link and its expiry to this new file (mode 0600), as JSON'}),
    force: Flags.boolean({description: 'with --out: overwrite an existing file', dependsOn: ['out']}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const id = this.args.cardId
    const req = revealCard(id)
    // The request carries no secret (the answer does): shown without the terminal or --out checks.
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    // Every refusal happens before the reveal is requested (each reveal is audit-logged).
    if (f.out) checkOutPath(f.out, f.force)
    else {
      if (this.jsonEnabled() || !this.out.stdoutIsTTY || !canPrompt(this.ctx.env)) {
        throw usageError(
          'The card details link is shown only on a terminal',
          'Use --out <file> to write it to a 0600 file.',
        )
      }
      this.out.warn('The link shows the full card number and CVV to anyone who opens it until it expires.')
      if (!(await promptConfirm(`Reveal ${id} on this screen now?`, false)))
        throw cancelled('Not confirmed; nothing was requested.')
    }
    this.ctx.banner(`reveal ${id}`)
    const reveal = await this.ctx.client.call(req).catch(async (e: unknown) => {
      // The hint names this cardholder's login commands (the catalogue's is generic).
      if (!(e instanceof ApiError) || e.code !== 'SCA_SESSION_REQUIRED') throw e
      const {explainSessionRequired} = await import('../../lib/workflows/sca/execute.js')
      throw explainSessionRequired(e)
    })
    if (f.out)
      writeSecretFile(
        f.out,
        JSON.stringify({cardId: id, panEmbedUrl: reveal.panEmbedUrl, expiresAt: reveal.expiresAt}, null, 2) + '\n',
        f.force,
      )
    else this.out.print(reveal.panEmbedUrl)
    this.out.success(
      `Revealed ${id}: the link expires at ${reveal.expiresAt}${f.out ? `; written to ${f.out} (0600)` : ''}`,
    )
    const summary = {cardId: id, expiresAt: reveal.expiresAt, ...(f.out ? {out: f.out} : {})}
    if (f.out)
      renderKeyValue(this.out, [
        ['card', id],
        ['expires', reveal.expiresAt],
        ['file', f.out],
      ])
    return summary
  }
}
