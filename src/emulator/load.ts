import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'

type EmulatorModule = typeof import('./emulator.js')

/**
 * The sandbox's code, for `svc sandbox serve`: from the one-file build dist/emulator.cjs
 * (build/emulator-bundle.mjs) compiled with a V8 code cache beside it, which saves most of a
 * start's time (resolving and compiling ~200 ES modules); from the tsc output when the bundle is
 * missing or older than it (someone ran only tsc). The cache is written when the process ends, so
 * it also holds the functions the start and the first requests compiled.
 */
export async function loadEmulator(): Promise<EmulatorModule> {
  const file = fileURLToPath(new URL('../emulator.cjs', import.meta.url))
  const loaded = bundled(file, fileURLToPath(new URL('./emulator.js', import.meta.url)))
  return loaded ?? import('./emulator.js')
}

/** The exports of the one-file build `file`, or undefined when it is missing or older than `tscOutput`. */
export function bundled<T = EmulatorModule>(file: string, tscOutput: string): T | undefined {
  return loader().loadBundle(file, {notOlderThan: tscOutput}) as T | undefined
}

/** bin/load-bundle.js, the loader the CLI's own bundle goes through (CommonJS, beside bin/run.js). */
const loader = () =>
  createRequire(import.meta.url)('../../bin/load-bundle.js') as {
    loadBundle(file: string, opts: {notOlderThan: string}): unknown
  }
