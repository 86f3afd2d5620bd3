import {request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import type {ReceivedEvent} from './webhook-listener.js'

export interface ForwardResult {
  url: string
  status?: number
  error?: string
  durationMs: number
}

/**
 * Re-posts deliveries to the app being debugged, one at a time in arrival order, with the original
 * body bytes and signature headers (so the app's own verification runs).
 */
export class Forwarder {
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  forward(e: ReceivedEvent, done: (r: ForwardResult) => void): void {
    this.queue = this.queue.then(async () => done(await this.post(e)))
  }

  idle(): Promise<void> {
    return this.queue
  }

  private async post(e: ReceivedEvent): Promise<ForwardResult> {
    const request = this.url.startsWith('https:') ? httpsRequest : httpRequest
    const started = Date.now()
    return new Promise((resolve) => {
      const finish = (r: Omit<ForwardResult, 'url' | 'durationMs'>) =>
        resolve({url: this.url, ...r, durationMs: Date.now() - started})
      const req = request(
        this.url,
        {
          method: 'POST',
          headers: {...e.headers, 'content-length': String(Buffer.byteLength(e.raw))},
          timeout: this.timeoutMs,
        },
        (res) => {
          res.resume()
          res.on('end', () => finish({status: res.statusCode ?? 0}))
          res.on('error', (err) => finish({error: err.message}))
        },
      )
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs / 1000}s`)))
      req.on('error', (err) => finish({error: (err as NodeJS.ErrnoException).code ?? err.message}))
      req.end(e.raw)
    })
  }
}
