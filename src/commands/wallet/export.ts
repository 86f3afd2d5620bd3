import {Flags} from '@oclif/core'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {cancelled, usageError} from '../../lib/errors.js'
import {idArg} from '../../lib/flags.js'
import {exportWallet} from '../../lib/workflows/wallet/export.js'
import {checkOutPath, writeSecretFile} from '../../lib/workflows/wallet/secret-file.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {canPrompt, promptConfirm} from '../../lib/prompts.js'

export default class WalletExport extends BaseCommand<typeof WalletExport> {
  static override summary =
    'Export an embedded wallet: signed retry, envelope check and local decryption to its BIP-39 mnemonic'
  static override description =
    'The mnemonic controls the funds. It is shown only on a terminal after a warning and a confirmation, ' +
    'or written to a new 0600 file with --out; never in --json or logs. --verify-only checks everything ' +
    'and prints the word count and a fingerprint.'
  static override examples = [
    '<%= config.bin %> wallet export InternalAccount:0b6f... --out wallet.txt',
    '<%= config.bin %> wallet export InternalAccount:0b6f... --verify-only --json',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {
    out: Flags.string({description: 'write the mnemonic to this new file (mode 0600)', exclusive: ['verify-only']}),
    force: Flags.boolean({description: 'with --out: overwrite an existing file'}),
    'verify-only': Flags.boolean({
      description: 'decrypt and validate, print only word count and fingerprint',
      exclusive: ['out'],
    }),
    'allow-unsigned-envelope': Flags.boolean({
      description: 'sandbox only: accept an export envelope with no enclave signature',
    }),
  }

  async run() {
    const f = this.flags
    const toScreen = !f.out && !f['verify-only']
    // Every refusal happens before the export is requested.
    if (f.force && !f.out) throw usageError('--force: only with --out (it allows overwriting that file)')
    if (f.out) checkOutPath(f.out, f.force)
    if (toScreen) {
      if (this.jsonEnabled() || !this.out.stdoutIsTTY || !canPrompt(this.ctx.env)) {
        throw usageError(
          'The mnemonic is shown only on a terminal',
          'Use --out <file> to write it to a 0600 file, or --verify-only to check the export.',
        )
      }
      this.out.warn('The recovery phrase gives full control of this wallet. Anyone who sees it can take the funds.')
      if (!(await promptConfirm('Show the recovery phrase on this screen now?', false)))
        throw cancelled('Not confirmed; nothing was requested.')
    }
    this.ctx.banner(`export ${this.args.accountId}`)
    const result = await exportWallet(this.ctx, this.args.accountId, {allowUnsigned: f['allow-unsigned-envelope']})
    if (f.out) writeSecretFile(f.out, result.mnemonic.reveal() + '\n', f.force)
    if (toScreen) this.out.print(result.mnemonic.reveal())
    const summary = {
      accountId: result.accountId,
      wordCount: result.wordCount,
      fingerprint: result.fingerprint,
      envelope: result.trust,
      ...(f.out ? {out: f.out} : {}),
    }
    this.out.success(
      `Exported ${result.accountId}: ${result.wordCount} words, fingerprint ${result.fingerprint}${f.out ? `, written to ${f.out} (0600)` : ''}`,
    )
    if (!toScreen)
      renderKeyValue(this.out, [
        ['account', summary.accountId],
        ['words', summary.wordCount],
        ['fingerprint', summary.fingerprint],
        ['envelope', summary.envelope],
        ['file', f.out],
      ])
    return summary
  }
}
