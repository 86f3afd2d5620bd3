// The one loader of svc's one-file builds (dist/svc.cjs, dist/yaml.cjs, dist/emulator.cjs): each is
// compiled through vm.Script with a V8 code cache (Node 20 has no
// module.enableCompileCache) and registered as a normal CommonJS module. Used by bin/run.js for the
// CLI and yaml, and by src/emulator/load.ts for the sandbox.
//
// Freshness is a build id, never an mtime: npm stamps every file of an installed package with its
// extraction time (in no useful order), so an mtime test sent every install to the slow unbundled
// tree. The build (build/build-id.mjs) writes one id into the per-file output (build/emit.mjs) dist/lib/build-id.js and
// into the first line of every bundle; an emit alone (build/emit.mjs) rewrites dist/lib/build-id.js with no id, and
// the bundles then give way to the unbundled tree: never stale code.
//
// Code caches are written to the user's cache dir (cacheDirFor), never into the package: an install
// may be read-only or shared. The caches the build primed ship in dist/cache and are read when the
// user's dir has none yet.
'use strict'
const {accessSync, constants, mkdirSync, readFileSync, renameSync, writeFileSync} = require('node:fs')
const Module = require('node:module')
const {homedir} = require('node:os')
const {dirname, join} = require('node:path')
const vm = require('node:vm')

const WRAPPER = '(function (exports, require, module, __filename, __dirname) {'

/** The id the last full build stamped into dist/lib/build-id.js, or '' (none: only the emit ran). */
function buildIdOf(distDir) {
  try {
    return /BUILD_ID = '([^']*)'/.exec(readFileSync(join(distDir, 'lib', 'build-id.js'), 'latin1'))?.[1] ?? ''
  } catch {
    return ''
  }
}

/** The first line every bundle of build `id` starts with. */
const stampOf = (id) => `/*svc-build:${id}*/`

/**
 * Where this build's code caches go: $SVC_CACHE_DIR, else $XDG_CACHE_HOME/svc, else ~/.cache/svc,
 * in a directory per build id and Node (V8 rejects a cache from another Node, and a cache of another
 * build's source of the same length could be accepted).
 */
function cacheDirFor(buildId, env = process.env) {
  const base = env.SVC_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc')
  return join(base, `${buildId}-node${process.versions.node}-${process.arch}`)
}

/**
 * The exports of the build `file` (written by the build inside CommonJS's module wrapper), or
 * undefined when it is missing or is not of build `buildId` (someone ran only the emit, or the build
 * was interrupted: the caller falls back to the unbundled output, never to stale code). Without
 * `buildId` any build is run (tests that load each bundle).
 *
 * The code cache is read from `cacheFile`, else from `shippedCache` (primed by the build). When
 * neither is there (or V8 rejects it: another Node), this run compiles from source and writes
 * `cacheFile` atomically when the process ends, so the cache holds exactly the functions such a run
 * compiles (best effort: never fails the command). `ascii: true` reads the file as latin1: a plain
 * copy instead of UTF-8 decoding, for builds made pure ASCII.
 */
function loadBundle(file, {buildId, cacheFile, shippedCache, ascii = false} = {}) {
  let src
  try {
    src = readFileSync(file, ascii ? 'latin1' : 'utf8')
  } catch {
    return undefined
  }
  // The stamp is a comment before the module wrapper: the text is compiled as read, no copy per start.
  const stampEnd = src.startsWith('/*svc-build:') ? src.indexOf('*/') + 2 : 0
  if (buildId !== undefined && (!buildId || src.slice(0, stampEnd) !== stampOf(buildId))) return undefined
  if (src.slice(stampEnd, stampEnd + WRAPPER.length) !== WRAPPER) src = Module.wrap(src.slice(stampEnd))
  let cachedData = cacheFile && readIfThere(cacheFile)
  if (!cachedData && shippedCache) cachedData = readIfThere(shippedCache)
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
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
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

module.exports = {loadBundle, canWriteIn, buildIdOf, cacheDirFor, stampOf}
