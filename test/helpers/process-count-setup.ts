import childProcess from 'node:child_process'
import {syncBuiltinESMExports} from 'node:module'
import {expect, inject} from 'vitest'

/**
 * Points every child this test file starts at the run's count file (process-count-global.ts), so the
 * `svc` processes among them, and the ones they start in turn, each add a line (bin/run.js reads
 * SVC_COUNT_STARTS). A child given its own `env` (most are: a clean environment per run) gets the two
 * variables added to it; the rest inherit them from process.env.
 */
const file = inject('svcCountFile')
if (file) {
  const extra = () => ({SVC_COUNT_STARTS: file, SVC_COUNT_TEST: expect.getState().testPath ?? ''})
  Object.assign(process.env, extra())
  const cp = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
    const original = cp[name]
    if ((original as {counted?: boolean}).counted) continue
    const wrapped = (...args: unknown[]) =>
      original(
        ...args.map((a, i) =>
          i > 0 && a && typeof a === 'object' && !Array.isArray(a) && 'env' in a && (a as {env?: object}).env
            ? {...a, env: {...(a as {env: object}).env, ...extra()}}
            : a,
        ),
      )
    // promisify(execFile) and friends keep their own promisified forms (util.promisify.custom).
    for (const key of Reflect.ownKeys(original))
      if (!['length', 'name', 'prototype'].includes(key as string))
        Object.defineProperty(wrapped, key, Object.getOwnPropertyDescriptor(original, key)!)
    cp[name] = Object.assign(wrapped, {counted: true})
  }
  // `import {spawn} from 'node:child_process'` in the helpers sees the wrapped functions too.
  syncBuiltinESMExports()
}
