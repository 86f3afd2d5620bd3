const UNITS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** "30s", "10m", "1h", "250ms" or a bare number of seconds -> milliseconds; undefined if malformed. */
export function parseDuration(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim())
  if (!m) return undefined
  const ms = Number(m[1]) * UNITS[m[2] ?? 's']
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : undefined
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const s = Math.round(ms / 1000)
  if (s < 120) return `${s}s`
  const m = Math.floor(s / 60)
  return s % 60 ? `${m}m${s % 60}s` : `${m}m`
}
