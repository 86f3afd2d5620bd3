import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Config} from '@oclif/core'
import {callTool} from './calls.js'
import {deriveTools, matchesAny, type ManifestCommand, type Tool} from './catalogue.js'
import {pageOf} from './pages.js'
import {PlanStore} from './plans.js'
import {PROMPTS, promptMessages} from './prompts.js'
import type {McpFront} from './front.js'
import {CAPABILITIES, INSTRUCTIONS, SERVER_NAME} from './identity.js'
import {guideResources, readGuide} from './resources.js'
import {cliRunner, inProcessRunner} from './runner.js'

export interface McpOptions {
  /** The installation's root: bin/run.js, oclif.manifest.json, docs/. */
  root: string
  version: string
  /** The running oclif config: tools run their commands in this process through it (runner.ts). */
  config: Config
  env: NodeJS.ProcessEnv
  /** --profile and --base-url as given, passed on to every command the server runs. */
  globalFlags: string[]
  readOnly: boolean
  planTtlMs: number
  tools?: string[]
  /** Why writes are refused (a production profile without --allow-production), if they are. */
  writesRefused?: string
  log: (line: string) => void
}

/** The tools this server offers: every derived tool, less writes under --read-only, filtered by --tools. */
export function selectTools(root: string, opts: Pick<McpOptions, 'readOnly' | 'tools'>): Tool[] {
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, ManifestCommand>
  }
  return deriveTools(manifest.commands).filter(
    (t) => (!opts.readOnly || t.kind === 'read') && matchesAny(t.name, opts.tools),
  )
}

/** Serves MCP over stdio until the client closes the stream. */
export async function serveMcp(opts: McpOptions): Promise<void> {
  // Derived at the first list or call, not before `initialize` is answered (the manifest is 0.5 MB of JSON).
  let tools: Tool[] | undefined
  let byName: Map<string, Tool> | undefined
  const catalogue = () => {
    tools ??= selectTools(opts.root, opts)
    byName ??= new Map(tools.map((t) => [t.name, t]))
    return {tools, byName}
  }
  const deps = {
    runner: inProcessRunner(
      opts.config,
      opts.env,
      opts.globalFlags,
      cliRunner(join(opts.root, 'bin', 'run.js'), opts.env, opts.globalFlags),
    ),
    plans: new PlanStore(Date.now, undefined, opts.planTtlMs),
    writesRefused: opts.writesRefused,
    audit: (line: string) => opts.log(`svc mcp: ${line}`),
  }
  // Loaded on use (sdk.ts): the SDK is read by this command only.
  const {
    Server,
    StdioServerTransport,
    CallToolRequestSchema,
    GetPromptRequestSchema,
    ListPromptsRequestSchema,
    ListResourcesRequestSchema,
    ListToolsRequestSchema,
    ReadResourceRequestSchema,
  } = await import('./sdk.js')
  const server = new Server(
    {name: SERVER_NAME, version: opts.version},
    {capabilities: CAPABILITIES, instructions: INSTRUCTIONS},
  )
  server.setRequestHandler(ListToolsRequestSchema, (req) => {
    const page = pageOf(catalogue().tools, req.params?.cursor)
    return {tools: page.items.map(listedTool), ...(page.nextCursor ? {nextCursor: page.nextCursor} : {})}
  })
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = catalogue().byName.get(req.params.name)
    if (!tool) {
      const why = opts.readOnly ? ' (the server runs --read-only: no write tools)' : ''
      return errorResult({code: 'UNKNOWN_TOOL', message: `No tool named ${req.params.name}${why}`})
    }
    const result = await callTool(tool, req.params.arguments, deps)
    return {
      content: [{type: 'text' as const, text: JSON.stringify(result.doc, null, 2)}],
      structuredContent: result.doc,
      isError: !result.ok,
    }
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({resources: guideResources(opts.root)}))
  server.setRequestHandler(ReadResourceRequestSchema, (req) => ({contents: [readGuide(opts.root, req.params.uri)]}))
  server.setRequestHandler(ListPromptsRequestSchema, () => ({prompts: PROMPTS}))
  server.setRequestHandler(GetPromptRequestSchema, (req) => promptMessages(req.params.name, req.params.arguments))
  const closed = new Promise<void>((resolve) => (server.onclose = resolve))
  // bin/run.js may have answered `initialize` already (front.ts): the Server reads what it read.
  const front = (globalThis as {__svcMcpFront?: McpFront}).__svcMcpFront
  const streams = front?.handOver((why) => opts.log(`svc mcp: ${why}`))
  await server.connect(new StdioServerTransport(streams?.input, streams?.output))
  await closed
}

/** A tool as tools/list shows it. */
function listedTool(t: Tool) {
  return {
    name: t.name,
    title: `svc ${t.command.id.replaceAll(':', ' ')}`,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations:
      t.kind === 'read'
        ? {readOnlyHint: true, openWorldHint: false}
        : {readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false},
  }
}

function errorResult(error: {code: string; message: string}) {
  const doc = {error}
  return {content: [{type: 'text' as const, text: JSON.stringify(doc)}], structuredContent: doc, isError: true}
}
