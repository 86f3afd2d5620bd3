// Types of test/bench/mcp-startup.mjs for test/integration/mcp-startup.test.ts.
export interface McpStartup {
  version: number
  versionCommand: number
  initialize: number
  ratio: number
  runs: number
}
export function benchMcpStartup(opts?: {bin?: string; runs?: number; withVersionCommand?: boolean}): Promise<McpStartup>
export function timeToInitialize(opts: {bin?: string; env: Record<string, string | undefined>}): Promise<number>
export function timeToExit(
  args: string[],
  opts: {bin?: string; env: Record<string, string | undefined>},
): Promise<number>
export function median(xs: number[]): number
