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
