import {redact} from '../secret.js'

/** A --debug trace line, then the headers (credentials and signatures hidden) and the body (secret fields redacted). */
export function traceExchange(
  sink: ((line: string) => void) | undefined,
  line: string,
  headers?: Record<string, string>,
  body?: unknown,
): void {
  if (!sink) return
  sink(line)
  if (headers) {
    for (const [k, v] of Object.entries(headers)) {
      const hidden = /authorization|signature/i.test(k)
      sink(`  ${k}: ${hidden ? '[REDACTED]' : v}`)
    }
  }
  if (body !== undefined) sink('  ' + JSON.stringify(redact(typeof body === 'string' ? safeJson(body) : body)))
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
