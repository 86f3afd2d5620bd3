import {createPublicKey, verify} from 'node:crypto'

/**
 * Verifies `X-Service-Signature`: ECDSA P-256 over SHA-256 of the raw body, DER, base64. The header
 * is either bare base64 or `{"v":"1","s":"<base64>"}` (both forms are published).
 */
export function verifyWebhookSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  publicKeyPem: string,
): boolean {
  if (!header) return false
  let sig = header.trim()
  if (sig.startsWith('{')) {
    try {
      sig = String((JSON.parse(sig) as {s?: string}).s ?? '')
    } catch {
      return false
    }
  }
  try {
    return verify(
      'sha256',
      Buffer.from(rawBody),
      {key: createPublicKey(publicKeyPem), dsaEncoding: 'der'},
      Buffer.from(sig, 'base64'),
    )
  } catch {
    return false
  }
}
