import {Flags} from '@oclif/core'
import {createDelegatedKeyOp} from '../../../lib/api/delegated-keys.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {dryRunFlag, idFlag} from '../../../lib/flags.js'
import {createDelegatedKey} from '../../../lib/workflows/delegated-keys.js'
import {renderDelegatedKey} from '../../../lib/output/delegated-key.js'
import {delegatedKeyCreateRequest} from '../../../lib/schemas/delegated-keys.js'
import {checkWith} from '../../../lib/validate.js'

export default class DelegatedKeysCreate extends BaseCommand<typeof DelegatedKeysCreate> {
  static override summary =
    'Create a delegated signing key for a card funded by a wallet (three-leg signed retry with a session key)'
  static override description =
    'The Service makes and keeps the key pair; svc never sees its private half. Needs a wallet session ' +
    '(`svc wallet login <InternalAccount>`). One ACTIVE key per card funding source.'
  static override examples = [
    '<%= config.bin %> wallet delegated-keys create --card Card:… --account InternalAccount:… --nickname "Card payments key"',
  ]
  static override baseFlags = withTimeout('5m')
  static override flags = {
    card: idFlag('Card', {
      description: 'the card whose wallet funding the key signs for',
      required: true,
      name: 'cardId',
    }),
    account: idFlag('InternalAccount', {
      description: 'the embedded wallet funding the card',
      required: true,
      name: 'internalAccountId',
    }),
    nickname: Flags.string({description: 'label for the key (1-256 characters)', required: true}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = checkWith(delegatedKeyCreateRequest, {
      cardId: f.card,
      internalAccountId: f.account,
      nickname: f.nickname,
    })
    const op = createDelegatedKeyOp(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(op))
    this.ctx.banner(`delegate signing for ${body.cardId}`)
    const key = await createDelegatedKey(this.ctx, op)
    this.out.success(`Created ${key.id}: ${key.status}`)
    renderDelegatedKey(this.out, key)
    return key
  }
}
