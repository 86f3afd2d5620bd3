/** Field readers shared by the JSON-shaped bundles; errors say which field is wrong, never its value. */
import {hexToBytes} from './encoding.js'
import {WalletCryptoError} from './errors.js'

export function bundleMalformed(what: string, reason: string): WalletCryptoError {
  return new WalletCryptoError('BUNDLE_MALFORMED', `the ${what} is malformed: ${reason}`)
}

export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
    if (typeof value === 'string') value = JSON.parse(value) // one level of string wrapping, as sent over the API
  } catch {
    throw bundleMalformed(what, 'it is not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bundleMalformed(what, 'it is not a JSON object')
  return value as Record<string, unknown>
}

export function hexField(record: Record<string, unknown>, key: string, what: string): Uint8Array {
  const value = record[key]
  if (typeof value !== 'string' || value === '') throw bundleMalformed(what, `${key} is missing`)
  try {
    return hexToBytes(value)
  } catch {
    throw bundleMalformed(what, `${key} is not hex`)
  }
}
