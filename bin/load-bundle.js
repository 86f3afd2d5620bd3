// The one loader of svc's one-file builds (dist/svc.cjs, dist/yaml.cjs, dist/emulator.cjs): each is
// compiled through vm.Script with a V8 code cache (Node 20 has no
// module.enableCompileCache) and registered as a normal CommonJS module. Used by bin/run.js for the
// CLI and yaml, and by src/emulator/load.ts for the sandbox.
'use strict'
const {accessSync, constants, mkdirSync, readFileSync, renameSync, statSync, writeFileSync} = require('node:fs')
const Module = require('node:module')
const {dirname} = require('node:path')
const vm = require('node:vm')

/**
 * The exports of the build `file` (written by the build inside CommonJS's module wrapper), or
 * undefined when it is missing or older than `notOlderThan` (someone ran only tsc: the caller falls
 * back to the unbundled output, never to stale code).
 *
 * The code cache is read from `cacheFile`. When that file is missing (or V8 rejects it: another
 * Node), this run compiles from source and writes the cache when the process ends, so the cache
 * holds exactly the functions such a run compiles (best effort: a read-only install cannot).
 * `ascii: true` reads the file as latin1: a plain copy instead of UTF-8 decoding, for builds made
 * pure ASCII.
 */
function loadBundle(file, {notOlderThan, cacheFile = file + '.cache', ascii = false} = {}) {
  let src
  try {
    if (notOlderThan && statSync(file).mtimeMs + 1 < statSync(notOlderThan).mtimeMs) return undefined
    src = readFileSync(file, ascii ? 'latin1' : 'utf8')
  } catch {
    return undefined
  }
  const cachedData = readIfThere(cacheFile)
  // The builds are written inside the module wrapper (compiled as read); a build from before that is not.
  if (!src.startsWith('(function (exports, require, module, __filename, __dirname) {')) src = Module.wrap(src)
  const script = new vm.Script(src, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const mod = new Module(file)
  mod.filename = file
  mod.paths = Module._nodeModulePaths(dirname(file))
  const requireFromBundle = Module.createRequire(file)
  script.runInThisContext().call(mod.exports, mod.exports, requireFromBundle, mod, file, dirname(file))
  mod.loaded = true
  // Whoever require()s the file by name (oclif's explicit command target) gets this instance.
  requireFromBundle.cache[file] = mod
  if (!cachedData || script.cachedDataRejected) {
    // Written at exit so it covers the functions this run compiled; best effort.
    process.once('exit', () => {
      try {
        mkdirSync(dirname(cacheFile), {recursive: true})
        const tmp = `${cacheFile}.${process.pid}.tmp`
        writeFileSync(tmp, script.createCachedData())
        renameSync(tmp, cacheFile)
      } catch {}
    })
  }
  return mod.exports
}

function readIfThere(file) {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** Whether a cache can be written in `dir` (made if missing). */
function canWriteIn(dir) {
  try {
    mkdirSync(dir, {recursive: true})
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

module.exports = {loadBundle, canWriteIn}
