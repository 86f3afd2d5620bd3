import {Flags} from '@oclif/core'
import {registerStablecoin} from '../../lib/api/stablecoins.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idFlag, idempotencyKeyFlag} from '../../lib/flags.js'
import {renderStablecoin} from '../../lib/output/stablecoin.js'
import {stablecoinRegisterRequest} from '../../lib/schemas/stablecoins.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class StablecoinsCreate extends BaseCommand<typeof StablecoinsCreate> {
  static override summary = 'Register a provider-created stablecoin with the Service'
  static override examples = [
    '<%= config.bin %> stablecoins create --token ACME --network-token btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
  ]
  static override flags = {
    token: Flags.string({
      description: 'provider token identifier; becomes the symbol (3-5 capital letters)',
      required: true,
    }),
    'network-token': Flags.string({description: 'token identifier on the network', required: true}),
    network: Flags.string({description: 'network family', options: ['L2'], default: 'L2'}),
    'provider-account': idFlag('StablecoinProviderAccount', {
      description: 'provider account link to use (needed when several are active)',
      name: 'stablecoinProviderAccountId',
    }),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = checkWith(
      stablecoinRegisterRequest,
      compact({
        providerTokenIdentifier: f.token,
        networkTokenIdentifier: f['network-token'],
        network: f.network,
        stablecoinProviderAccountId: f['provider-account'],
      }),
    )
    const req = registerStablecoin(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const coin = await this.ctx.client.call(req)
    this.out.success(`Registered ${coin.id} (${coin.symbol}); Service operations: ${coin.gridOperationsStatus}`)
    renderStablecoin(this.out, coin)
    return coin
  }
}
