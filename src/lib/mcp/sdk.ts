// The parts of the MCP SDK the server uses, in one module: the build bundles this file alone into
// dist/mcp-sdk.cjs (loaded with a V8 code cache by `svc mcp` only; esbuild.config.mjs), so the SDK,
// zod and ajv it brings are in no command's bundle and cost no other command's start.
export {Server} from '@modelcontextprotocol/sdk/server/index.js'
export {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
export {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
