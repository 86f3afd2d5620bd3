import {io, type Io} from './io.js'

/**
 * The server's clock as its answers' Date header gives it, as an offset from this machine's. A
 * sandbox runs on its own clock (frozen, or advanced by days), and a real server's clock may be
 * skewed: "3m ago" is only true against the clock that stamped the time. Kept per Io, so a command
 * run in-process by a test does not inherit another's. Under 2 s of difference (the header's
 * one-second resolution) counts as none.
 */
const offsets = new WeakMap<Io, number>()

export function noteServerDate(date: string | undefined): void {
  const at = Date.parse(date ?? '')
  if (Number.isNaN(at)) return
  const offset = at - io().now()
  offsets.set(io(), Math.abs(offset) < 2_000 ? 0 : offset)
}

/** Now on the clock of the server this command last heard from (this machine's before any answer). */
export const serverNow = (): number => io().now() + (offsets.get(io()) ?? 0)
