import {appendFileSync, existsSync, renameSync, rmSync, statSync} from 'node:fs'

/** How emulator.log is kept: rotated past `maxBytes`, with `keep` older files (emulator.log.1 the newest). */
export interface LogLimit {
  maxBytes: number
  keep: number
}

/** 10 MB and two old files: at most ~30 MB of log, about a day of a busy shared sandbox's lines. */
export const DEFAULT_LOG_LIMIT: LogLimit = {maxBytes: 10 * 1024 * 1024, keep: 2}

/**
 * An append-only log file rotated by size: a line that would take the file past `maxBytes` goes to
 * a fresh file, the full one becoming `<path>.1` (and `.1` becoming `.2` ..., the oldest past `keep`
 * deleted). Only the serving process writes it, so the size is counted here, not stat'ed per line.
 * Writing is best effort: a log line never fails a request.
 */
export class LogFile {
  private size: number

  constructor(
    readonly path: string,
    private readonly limit: LogLimit = DEFAULT_LOG_LIMIT,
  ) {
    this.size = existsSync(path) ? statSync(path).size : 0
  }

  append(line: string): void {
    const text = line + '\n'
    const bytes = Buffer.byteLength(text)
    try {
      if (this.size > 0 && this.size + bytes > this.limit.maxBytes) this.rotate()
      appendFileSync(this.path, text, {mode: 0o600})
      this.size += bytes
    } catch {
      // the log is a convenience; never fail a request over it
    }
  }

  private rotated(): string[] {
    return Array.from({length: this.limit.keep}, (_, i) => `${this.path}.${i + 1}`)
  }

  private rotate(): void {
    const old = this.rotated()
    if (old.length) rmSync(old.at(-1)!, {force: true})
    for (let i = old.length - 1; i > 0; i--) if (existsSync(old[i - 1]!)) renameSync(old[i - 1]!, old[i]!)
    if (old.length) renameSync(this.path, old[0]!)
    else rmSync(this.path, {force: true})
    this.size = 0
  }
}
