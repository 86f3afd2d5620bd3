import {readFileSync, renameSync, statSync, writeFileSync} from 'node:fs'
import {Module, createRequire} from 'node:module'
import {dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import vm from 'node:vm'

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
  let src: string
  try {
    if (statSync(file).mtimeMs + 1 < statSync(tscOutput).mtimeMs) return undefined
    src = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  const cacheFile = file + '.cache'
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    // first run after a build: compiled from source, the cache is written at exit
  }
  const script = new vm.Script(src, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const mod = new Module(file)
  mod.filename = file
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file))
  if (!cachedData || script.cachedDataRejected)
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`
        writeFileSync(tmp, script.createCachedData())
        renameSync(tmp, cacheFile)
      } catch {
        // best effort: a read-only install starts without a cache
      }
    })
  return mod.exports as T
}
