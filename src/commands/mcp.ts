import {Flags} from '@oclif/core'
import {BaseCommand} from '../lib/base-command.js'
import {parseDuration} from '../lib/duration.js'
import {usageError} from '../lib/errors.js'

export default class Mcp extends BaseCommand<typeof Mcp> {
  static override summary =
    'Serve svc to AI assistants over MCP (stdio): reads answer, every write is planned, then confirmed'
  static override description =
    'Every command that sends a request is a tool (`customers list` -> customers_list), with its flags as the input schema and its --json document as the answer. ' +
    'A write sends nothing until a second call confirms the plan the first returned (single-use, expires in minutes, bound to the exact request). ' +
    'The default profile is the local sandbox. See docs/mcp.md.'
  static override examples = [
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --read-only --tools "customers_*,quote_get"',
    '<%= config.bin %> mcp --profile prod --read-only',
  ]
  static override handlesInterrupt = true
  static override flags = {
    'read-only': Flags.boolean({description: 'offer read tools only: no write tool exists at all'}),
    tools: Flags.string({
      description:
        'offer only the tools matching these comma-separated patterns (* and ? wildcards: "customers_*,quote_get")',
    }),
    'plan-ttl': Flags.string({
      description: 'how long a plan can be confirmed (at most 15m)',
      default: '5m',
      parse: async (v) => {
        const ms = parseDuration(v)
        if (ms === undefined || ms > 15 * 60_000)
          throw usageError(`--plan-ttl: "${v}" is not a duration of at most 15m`)
        return v
      },
    }),
    'allow-production': Flags.boolean({
      description: 'let write tools plan and confirm against a production profile (refused otherwise)',
    }),
  }

  async run() {
    const f = this.flags
    const profile = this.ctx.profile
    const production = profile.environment === 'production'
    const {serveMcp} = await import('../lib/mcp/server.js')
    await serveMcp({
      root: this.config.root,
      version: this.config.version,
      config: this.config,
      env: process.env,
      globalFlags: [
        ...(f.profile ? [`--profile=${f.profile}`] : []),
        ...(f['base-url'] ? [`--base-url=${f['base-url']}`] : []),
      ],
      readOnly: f['read-only'],
      planTtlMs: parseDuration(f['plan-ttl'])!,
      tools: f.tools
        ?.split(',')
        .map((p) => p.trim())
        .filter(Boolean),
      writesRefused:
        production && !f['allow-production']
          ? `Profile ${profile.name} is production: writes are refused unless the server was started with --allow-production`
          : undefined,
      log: (line) => this.out.info(line),
    })
  }
}
