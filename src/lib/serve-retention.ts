import {Flags} from '@oclif/core'
import {InputError, type FieldError} from './errors.js'
import {parseSpan} from './duration.js'

/** `svc sandbox serve`'s retention flags, as the command parsed them. */
export interface RetentionFlags {
  'idempotency-retention'?: string
  'event-retention'?: string
  'log-max-size'?: string
  'log-keep'?: number
}

/** What the sandbox takes from them (emulator/domain/retention.ts, emulator/log-file.ts); defaults for what is not given. */
export interface RetentionSettings {
  retention: {idempotencyMs?: number; eventsMs?: number}
  logLimit?: {maxBytes: number; keep: number}
}

/** The flags themselves: retention and log rotation, on the sandbox clock, for this run. */
export const retentionFlags = {
  'idempotency-retention': Flags.string({
    description:
      'how long an Idempotency-Key replays its first answer, on the sandbox clock; after it the key is new again (default 24h; e.g. 1h, 7d)',
  }),
  'event-retention': Flags.string({
    description:
      'how long a delivered, dead or never-addressed webhook event and its attempts are kept after its last attempt, on the sandbox clock (default 30d); pending events are never pruned',
  }),
  'log-max-size': Flags.string({
    description: 'rotate emulator.log when it would pass this size (default 10MB; e.g. 500KB, 1GB)',
  }),
  'log-keep': Flags.integer({
    description: 'rotated emulator.log files kept beside it: emulator.log.1 the newest (default 2)',
    min: 0,
    max: 9,
  }),
}

export const RETENTION_FLAG_NAMES = Object.keys(retentionFlags) as Array<keyof RetentionFlags>

const LOG_MAX_SIZE_DEFAULT = 10 * 1024 * 1024
const LOG_KEEP_DEFAULT = 2
const SIZE_UNITS: Record<string, number> = {b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3}

/** "10MB", "500KB", "1GB", "4096" (bytes) -> bytes; undefined if malformed. */
export function parseSize(value: string): number | undefined {
  const m = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(value.trim())
  if (!m) return undefined
  const bytes = Number(m[1]) * SIZE_UNITS[(m[2] ?? 'b').toLowerCase()]!
  return Number.isSafeInteger(bytes) ? bytes : undefined
}

/** Checks every retention flag at once (a bad one is named with the others, before anything starts). */
export function parseRetentionFlags(f: RetentionFlags): RetentionSettings {
  const errors: FieldError[] = []
  const span = (name: 'idempotency-retention' | 'event-retention'): number | undefined => {
    const v = f[name]
    if (v === undefined) return undefined
    const ms = parseSpan(v)
    if (ms === undefined) errors.push({field: name, message: `"${v}" is not a duration like 30m, 24h, 7d or 1d12h`})
    return ms
  }
  const idempotencyMs = span('idempotency-retention')
  const eventsMs = span('event-retention')
  let maxBytes = LOG_MAX_SIZE_DEFAULT
  if (f['log-max-size'] !== undefined) {
    const bytes = parseSize(f['log-max-size'])
    if (bytes === undefined || bytes < 1024)
      errors.push({
        field: 'log-max-size',
        message: `"${f['log-max-size']}" is not a size of at least 1KB, like 500KB or 10MB`,
      })
    else maxBytes = bytes
  }
  if (errors.length)
    throw new InputError(
      errors,
      undefined,
      'Example: --idempotency-retention 24h --event-retention 30d --log-max-size 10MB',
    )
  const logLimit =
    f['log-max-size'] === undefined && f['log-keep'] === undefined
      ? undefined
      : {maxBytes, keep: f['log-keep'] ?? LOG_KEEP_DEFAULT}
  return {
    retention: {
      ...(idempotencyMs === undefined ? {} : {idempotencyMs}),
      ...(eventsMs === undefined ? {} : {eventsMs}),
    },
    ...(logLimit ? {logLimit} : {}),
  }
}
