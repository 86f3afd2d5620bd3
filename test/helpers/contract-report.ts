import type {Finding} from './contract-check.js'

/** Findings grouped by operation, status and message (bodies are never printed: they may hold secrets). */
export function formatFindings(findings: Finding[]): string {
  const groups = new Map<string, {count: number; tests: Set<string>}>()
  for (const f of findings) {
    const x = f.exchange
    for (const line of f.errors) {
      const code =
        x.status >= 400 && typeof (x.responseBody as {code?: unknown})?.code === 'string'
          ? ` ${(x.responseBody as {code: string}).code}`
          : ''
      const key = `${f.kind} ${f.operation ?? `${x.method} ${x.path}`} -> ${x.status}${code}${x.fromCli ? ' (CLI)' : ''}: ${line}`
      const g = groups.get(key) ?? {count: 0, tests: new Set<string>()}
      g.count++
      g.tests.add(x.test)
      groups.set(key, g)
    }
  }
  const lines = [...groups].map(([k, g]) => `  ${k}  [x${g.count}; ${[...g.tests].slice(0, 2).join(' | ')}]`)
  return `Contract violations (../shared/spec/openapi.yaml), not in test/helpers/contract-allow.ts:\n${lines.join('\n')}`
}
