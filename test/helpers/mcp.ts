import {fileURLToPath} from 'node:url'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {Tool} from '@modelcontextprotocol/sdk/types.js'
import type {TestSandbox} from './sandbox.js'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface McpSession {
  client: Client
  /** Every tool, page after page (tools/list gives them in pages of 50 with a cursor). */
  tools(): Promise<Tool[]>
  /** Calls a tool: isError and the structured answer (the command's --json document, a plan or an error). */
  call(name: string, args?: Record<string, unknown>): Promise<{isError: boolean; doc: any}>
  /** Every text a tool answered in this session, for grepping for secrets. */
  outputs: string[]
  /** What the server wrote on stderr (its log). */
  log(): string
  close(): Promise<void>
}

/** `svc mcp …args` spawned by the SDK's own client over stdio, pointed at the sandbox (its env, laid over with `env`). */
export async function mcpSession(
  sbx: Pick<TestSandbox, 'env'>,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: {PATH: process.env.PATH ?? '', ...sbx.env, ...env},
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  const client = new Client({name: 'svc-test', version: '0'})
  await client.connect(transport)
  const outputs: string[] = []
  return {
    client,
    async tools() {
      const all: Tool[] = []
      let cursor: string | undefined
      do {
        const page = await client.listTools(cursor === undefined ? undefined : {cursor})
        all.push(...page.tools)
        cursor = page.nextCursor
      } while (cursor !== undefined)
      return all
    },
    outputs,
    async call(name, toolArgs = {}) {
      const r = await client.callTool({name, arguments: toolArgs}, undefined, {timeout: 60_000})
      const text = (r.content as Array<{type: string; text?: string}>).map((c) => c.text ?? '').join('\n')
      outputs.push(text, JSON.stringify(r.structuredContent ?? null))
      return {isError: Boolean(r.isError), doc: r.structuredContent}
    },
    log: () => stderr,
    close: () => client.close(),
  }
}
