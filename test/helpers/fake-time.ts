import {advanceClock} from '../../src/emulator/domain/clock.js'
import type {Emulator} from '../../src/emulator/emulator.js'

/**
 * A clock for in-process runs (`sbx.run(args, fakeTime())`): `sleep` moves `now` on at once, after
 * letting pending I/O run, so a `--timeout 10m` wait that polls the sandbox ends in milliseconds of real
 * time and stops exactly where the real one would.
 */
export function fakeTime(start = Date.now()): {
  now: () => number
  sleep: (ms: number) => Promise<void>
  slept: () => number
} {
  let t = start
  let total = 0
  return {
    now: () => t,
    async sleep(ms: number) {
      t += ms
      total += ms
      await new Promise((resolve) => setImmediate(resolve))
    },
    slept: () => total,
  }
}

/**
 * The sandbox's own clock as an in-process run's (`sbx.run(args, sandboxTime(sbx))`): `now` reads it and
 * `sleep` advances it, running every job due on the way as time passing would. For waits the sandbox
 * must see pass too (a Retry-After it measures, a challenge's TTL, a payment still processing): both
 * sides move together, in milliseconds of real time.
 */
export function sandboxTime(sbx: {emu: Emulator}): {
  now: () => number
  sleep: (ms: number) => Promise<void>
  slept: () => number
} {
  let total = 0
  return {
    now: () => sbx.emu.now(),
    async sleep(ms: number) {
      total += ms
      if (ms > 0) await advanceClock(sbx.emu, {by: `${Math.ceil(ms)}ms`})
    },
    slept: () => total,
  }
}
