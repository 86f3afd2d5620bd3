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

const SPAN_UNITS: Record<string, number> = {d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1}
const SPAN_ORDER = ['d', 'h', 'm', 's', 'ms']

/**
 * A span of time to move a clock by: one or more whole amounts with units, largest first, each unit
 * once ("6m", "30s", "2h", "1d", "1h30m", "1d12h", "1500ms"); a bare number is refused, since
 * seconds and milliseconds are both plausible. Undefined if malformed or zero.
 */
export function parseSpan(value: string): number | undefined {
  const text = value.trim()
  if (!/^(\d+(d|h|ms|m|s))+$/.test(text)) return undefined
  let ms = 0
  let last = -1
  for (const [, n, unit] of text.matchAll(/(\d+)(d|h|ms|m|s)/g)) {
    const rank = SPAN_ORDER.indexOf(unit)
    if (rank <= last) return undefined
    last = rank
    ms += Number(n) * SPAN_UNITS[unit]
  }
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined
}

/** A span for people: 6m, 1h30m, 2d3h, 1500ms. */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  let rest = ms
  let out = ''
  for (const unit of SPAN_ORDER) {
    const n = Math.floor(rest / SPAN_UNITS[unit])
    if (n) out += `${n}${unit}`
    rest -= n * SPAN_UNITS[unit]
  }
  return out
}
