import {randomBytes} from 'node:crypto'
import type {ApiClient} from '../api/client.js'
import type {Context} from '../context.js'
import {stillPending} from '../errors.js'

/**
 * What a recipe works with: the context's API client and clock, a run tag that keeps its throwaway
 * objects apart from everything else, and a log of what it did (shown to the user, in order).
 */
export class Kit {
  readonly tag = randomBytes(4).toString('hex')
  readonly steps: string[] = []

  constructor(readonly ctx: Context) {}

  get client(): ApiClient {
    return this.ctx.client
  }

  /** Records one thing done, for the summary (and on stderr as it happens). */
  did(step: string): void {
    this.steps.push(step)
    this.ctx.out.info(this.ctx.out.dim(`  ${step}`))
  }

  /** A key unique to this run, for the idempotent POSTs of a recipe. */
  key(scope: string): string {
    return `trigger-${this.tag}-${scope}`
  }

  /** Polls `read` until `done` holds; exit 8 (still pending) at --timeout, naming what was awaited. */
  async until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    let delay = 100
    for (;;) {
      const v = await read()
      if (done(v)) return v
      if (this.ctx.remainingMs() <= 0)
        throw stillPending(
          `Still waiting for ${what} at --timeout`,
          'Re-run with a longer --timeout; the sandbox may have slow delays configured (`svc api GET /config`).',
        )
      await this.ctx.sleep(Math.min(delay, this.ctx.remainingMs()))
      delay = Math.min(delay * 2, 1000)
    }
  }
}
