// What `svc mcp` says about itself in its answer to `initialize`, in one place: the SDK's Server
// (server.ts) and the early answer (front.ts) both take it from here, so the two cannot drift
// (and front.ts compares them at run time). Imports nothing: front.ts is loaded before anything else.

export const SERVER_NAME = 'svc'

export const CAPABILITIES = {tools: {}, resources: {}, prompts: {}}

export const INSTRUCTIONS =
  'Tools run svc commands against the profile the server was started with (by default the local sandbox). ' +
  'Reads answer directly. Every write answers a plan first and sends nothing; show the plan to the person ' +
  'and call the tool again with `confirm` only if they agree.'

/**
 * The protocol revisions the SDK (@modelcontextprotocol/sdk 1.32) speaks, newest first: its
 * SUPPORTED_PROTOCOL_VERSIONS, copied because reading them from the SDK means loading it (the cost
 * the early answer avoids); test/unit/mcp/front.test.ts fails when they differ.
 */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']

/** The SDK's negotiation: the client's revision when the server speaks it, else the newest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSIONS[0]
}

/** The result of `initialize`, as the SDK's Server builds it. */
export function initializeResult(version: string, requested: unknown) {
  return {
    protocolVersion: negotiatedVersion(requested),
    capabilities: CAPABILITIES,
    serverInfo: {name: SERVER_NAME, version},
    instructions: INSTRUCTIONS,
  }
}
