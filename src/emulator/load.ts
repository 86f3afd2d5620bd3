import {createRequire} from 'node:module'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

type EmulatorModule = typeof import('./emulator.js')

/**
 * The sandbox's code, for `svc sandbox serve`: from the one-file build dist/emulator.cjs
 * (build/emulator-bundle.mjs) compiled with a V8 code cache beside it, which saves most of a
 * start's time (resolving and compiling ~200 ES modules); from the tsc output when the bundle is
 * missing or of another build than it (someone ran only tsc). The cache, in the user's cache dir, is
 * written when the process ends, so it also holds the functions the start and the first requests compiled.
 */
export async function loadEmulator(): Promise<EmulatorModule> {
  const dist = fileURLToPath(new URL('..', import.meta.url))
  const loaded = bundled(join(dist, 'emulator.cjs'), dist)
  return loaded ?? import('./emulator.js')
}

/**
 * The exports of the one-file build `file`, or undefined when it is missing or not of the build
 * whose id the tsc output in `distDir` holds (bin/load-bundle.js).
 */
export function bundled<T = EmulatorModule>(file: string, distDir: string, env = process.env): T | undefined {
  const {buildIdOf, cacheDirFor, loadBundle} = loader()
  const buildId = buildIdOf(distDir)
  if (!buildId) return undefined
  return loadBundle(file, {buildId, cacheFile: join(cacheDirFor(buildId, env), 'emulator.cache')}) as T | undefined
}

/** bin/load-bundle.js, the loader the CLI's own bundle goes through (CommonJS, beside bin/run.js). */
const loader = () =>
  createRequire(import.meta.url)('../../bin/load-bundle.js') as {
    buildIdOf(distDir: string): string
    cacheDirFor(buildId: string, env?: NodeJS.ProcessEnv): string
    loadBundle(file: string, opts: {buildId: string; cacheFile: string}): unknown
  }
