/**
 * The MCP tools, derived from the commands' own descriptions (oclif.manifest.json: ids, summaries,
 * arguments, flags with their descriptions and choices), never written a second time: a new
 * command or flag is a new tool or input property at the next build. A command with --dry-run
 * changes something, so its tool plans before it sends (plans.ts); the others only read.
 */

export interface ManifestFlag {
  type: 'boolean' | 'option'
  description?: string
  summary?: string
  multiple?: boolean
  options?: string[]
  required?: boolean
  hidden?: boolean
  default?: unknown
}

export interface ManifestArg {
  description?: string
  required?: boolean
  options?: string[]
}

export interface ManifestCommand {
  id: string
  summary?: string
  description?: string
  hidden?: boolean
  args?: Record<string, ManifestArg>
  flags: Record<string, ManifestFlag>
}

export interface JsonSchema {
  type: 'object'
  properties: Record<string, Record<string, unknown>>
  required?: string[]
  additionalProperties: false
}

export interface Tool {
  name: string
  command: ManifestCommand
  /**
   * 'write': plans first and sends only a confirmed plan. 'read': runs at once, and its transport
   * refuses anything but a GET (an empty plan), unless the command is one of READ_POSTS.
   */
  kind: 'read' | 'write'
  /** A read that is a POST changing nothing (a fee estimate): run without the GET-only guard. */
  readPost: boolean
  description: string
  inputSchema: JsonSchema
  /** Positional arguments, in order. */
  args: string[]
  /** The flags the tool takes, by input property name (the flag's own name). */
  flags: Record<string, ManifestFlag>
}

/** Commands left out on purpose, with why (docs/mcp.md lists them). */
export const OMITTED: Record<string, string> = {
  mcp: 'the server itself',
  help: 'terminal help; the tools carry their own descriptions',
  version: 'local: the version of the binary',
  autocomplete: 'shell completion scripts',
  login: 'stores a client secret read from a prompt or stdin: the operator logs in, never the assistant',
  logout: 'forgets the stored client secret: a local credential operation',
  'profiles:list': 'local config; the server runs against the one profile it was started with',
  'profiles:use': 'changes the active profile of the operator’s own shell',
  'profiles:remove': 'edits the local config',
  'agents:login': 'stores an agent access token in a local profile',
  doctor: 'checks the local installation and config, not the Service',
  'tokens:create': 'its answer is a client secret shown once; tool output never carries secrets',
  'wallet:login': 'interactive: an OTP, OIDC token or passkey from the person, stored as a local session key',
  'wallet:logout': 'removes a local session key',
  'wallet:export': 'decrypts a wallet’s mnemonic: a secret that must never reach a tool output',
  'wallet:keys:list': 'the local key store',
  'wallet:keys:purge': 'the local key store',
  'wallet:stamp': 'signs with a local session key',
  'webhooks:listen': 'a long-running local receiver',
  'webhooks:verify': 'verifies a signature of a local file',
  'sandbox:serve': 'starts the local sandbox process',
  'sandbox:stop': 'stops the local sandbox process',
  'sandbox:backup': 'local files of the sandbox’s data dir',
  'sandbox:restore': 'local files of the sandbox’s data dir',
  // A snapshot over the wire is sandbox_create with from-snapshot, a planned write (docs/mcp.md, Snapshots).
  'sandbox:snapshot:save': 'sends no request: copies the sandbox database to a local file',
  'sandbox:snapshot:load':
    'sends no request: replaces the whole sandbox database from a local file, with no dry run to plan it',
  'sandbox:passkey:create': 'a software authenticator writing a local key file',
  'sandbox:passkey:sign': 'signs with a local authenticator key',
  'flow:run': 'runs a file of arbitrary commands, which would bypass the plan of each write',
  'flow:capture': 'writes a local flow file',
  'flow:init': 'copies example files into a local folder',
  history: 'reads the local record of this machine’s writes',
  'history:finish': 're-sends a recorded write, which would bypass the plan of that write',
  'history:clear': 'removes a local file',
  'webhooks:certify': 'sends signed requests to a receiver URL outside the Service',
}

/** Flags that are the server's business, not the assistant's: output shape, credentials, confirmation, local files. */
const SERVER_FLAGS = new Set([
  'json',
  'profile',
  'base-url',
  'debug',
  'no-color',
  'yes',
  'dry-run',
  'idempotency-key',
  'output',
  'columns',
  'wide',
  'show-secret',
  'secret',
  'secret-file',
  'data-dir',
  'ca-file',
  'query',
])

/**
 * Flags of one command a tool does not take, with why: `quote create --execute` sends a second
 * request whose quote id its dry run cannot know, so it could not be planned (quote_execute plans
 * the payment, with the quote's totals).
 */
const COMMAND_FLAGS_OMITTED: Record<string, string[]> = {'quote:create': ['execute', 'wait']}

/** Commands without --dry-run that send a POST which changes nothing (dry-run-coverage.test.ts says why each). */
const READ_POSTS = new Set(['accounts:estimate-withdrawal-fee'])

/** A tool's name: the command's words joined by `_` (`customers list` -> customers_list). */
export function toolName(id: string): string {
  return id.replace(/[:-]/g, '_')
}

/** Every tool the manifest's commands give, in id order. */
export function deriveTools(commands: Record<string, ManifestCommand>): Tool[] {
  return Object.keys(commands)
    .sort()
    .filter((id) => !OMITTED[id] && !commands[id].hidden && !id.startsWith('autocomplete'))
    .map((id) => toolOf(commands[id]))
}

function toolOf(command: ManifestCommand): Tool {
  const kind = 'dry-run' in command.flags ? 'write' : 'read'
  const properties: JsonSchema['properties'] = {}
  const required: string[] = []
  const args = Object.keys(command.args ?? {})
  for (const name of args) {
    const a = command.args![name]
    properties[name] = {type: 'string', description: a.description ?? name, ...(a.options ? {enum: a.options} : {})}
    if (a.required) required.push(name)
  }
  const flags: Record<string, ManifestFlag> = {}
  for (const [name, f] of Object.entries(command.flags)) {
    // Secrets come from stdin or prompts only (`--secret-stdin`): a tool never takes one.
    if (SERVER_FLAGS.has(name) || name.endsWith('-stdin') || f.hidden) continue
    if (COMMAND_FLAGS_OMITTED[command.id]?.includes(name)) continue
    flags[name] = f
    properties[name] = flagSchema(f)
    if (f.required) required.push(name)
  }
  if (kind === 'write')
    properties.confirm = {
      type: 'string',
      description:
        'The token of a plan this tool returned for exactly these arguments. Without it nothing is sent: the answer is the plan.',
    }
  return {
    name: toolName(command.id),
    command,
    kind,
    readPost: READ_POSTS.has(command.id),
    description: describeTool(command, kind),
    inputSchema: {type: 'object', properties, ...(required.length ? {required} : {}), additionalProperties: false},
    args,
    flags,
  }
}

function flagSchema(f: ManifestFlag): Record<string, unknown> {
  const base = (f.description ?? f.summary ?? '').trim()
  const description = f.default !== undefined ? `${base} (default: ${String(f.default)})` : base
  if (f.type === 'boolean') return {type: 'boolean', description}
  const item = {type: 'string', ...(f.options ? {enum: f.options} : {})}
  return f.multiple ? {type: 'array', items: item, description} : {...item, description}
}

function describeTool(command: ManifestCommand, kind: Tool['kind']): string {
  const what = `\`svc ${command.id.replaceAll(':', ' ')}\`: ${command.summary ?? ''}`.trim()
  if (kind === 'read') return `${what}. Reads only; the answer is the command's --json document.`
  return (
    `${what}. Changes something, so it takes two calls: without \`confirm\` nothing is sent and the answer is a plan ` +
    `(the exact request, redacted, and a single-use token that expires in minutes); call again with the same ` +
    `arguments and \`confirm\` set to that token to send exactly that request.`
  )
}

/** `--tools` patterns: `*` any run of characters, `?` one; a tool is kept when any pattern matches its name. */
export function matchesAny(name: string, patterns: string[] | undefined): boolean {
  if (!patterns?.length) return true
  return patterns.some((p) => {
    const re = new RegExp(
      '^' +
        p
          .split('')
          .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
          .join('') +
        '$',
    )
    return re.test(name)
  })
}
