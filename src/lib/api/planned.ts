import {createHash} from 'node:crypto'
import type {DescribedRequest} from './describe.js'

/**
 * `svc mcp` confirms a plan by running the command again with the digests of the requests its
 * dry run showed (SVC_PLANNED_REQUESTS). The transport then refuses any request that would change
 * something (anything but a GET) whose description differs from every planned one: what was
 * confirmed is what is sent, or nothing is. Digests are over the redacted description, the same
 * text `--dry-run` prints, so the plan never needs to hold a secret.
 */
export function requestDigest(d: DescribedRequest): string {
  return createHash('sha256').update(canonicalJson(d)).digest('hex')
}

/** JSON with object keys sorted at every level: the same value gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    )
  return value
}
