#!/usr/bin/env node
// Start-up is the product here: every millisecond spent before a command runs is paid by every
// script that calls svc. So:
//  1. `svc --version` is answered from package.json without loading oclif.
//  2. Otherwise the bundle dist/svc.cjs (esbuild.config.mjs) is compiled through vm.Script with a
//     V8 code cache next to it (Node 20 has no module.enableCompileCache), registered as a normal
//     CommonJS module, and handed to oclif with the explicit command strategy: one file, lazy
//     command modules, no directory scans.
//  3. If the bundle is missing or older than the manifest (someone ran only tsc), the unbundled
//     tsc output is used exactly as before: slower, never broken.
import {readFileSync, renameSync, statSync, writeFileSync} from 'node:fs'
import Module, {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import v8 from 'node:v8'
import vm from 'node:vm'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

if (argv[0] === '--version') {
  // Same text as oclif's config.userAgent.
  process.stdout.write(`${pjson.name}/${pjson.version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  // undici parses HTTP with a WebAssembly module; V8 tiers it up with an optimising compile on a
  // background thread, and Node waits for that thread before it exits: up to ~200 ms after the
  // command is done. The baseline compiler alone is plenty for one CLI's worth of responses.
  v8.setFlagsFromString('--liftoff-only')
  // package.json engines already says >= 20.19; oclif's own check loads and runs semver each start.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true'
  const bundleFile = join(root, 'dist', 'svc.cjs')
  const bundle = process.env.SVC_NO_BUNDLE ? undefined : loadBundle(bundleFile)
  // ESM that stays outside the bundle (the local sandbox) is imported from here: functions
  // restored from a V8 code cache have no import() callback of their own.
  globalThis.__svcImport = (url) => import(url)
  if (bundle) {
    pjson.oclif.commands = {strategy: 'explicit', target: './dist/svc.cjs', identifier: 'COMMANDS'}
    await bundle
      .run(argv, {root, pjson})
      .then(() => bundle.flush())
      .catch((error) => (notFound(error) ? undefined : bundle.handle(error)))
  } else {
    const {execute} = await import('@oclif/core')
    await execute({dir: import.meta.url})
  }
}

/**
 * An unknown command is a usage error (exit 2) like any other; under --json its error document goes
 * to stdout so a script still parses exactly one JSON document.
 */
function notFound(error) {
  const m = /^command (\S+) not found/.exec(error?.message ?? '')
  if (!m) return false
  const reason = `"${m[1].replaceAll(':', ' ')}" is not an svc command`
  const hint = 'Run `svc help` for the command list.'
  if (argv.includes('--json')) process.stdout.write(JSON.stringify({error: {status: null, code: 'USAGE', reason, details: {}, hint}}, null, 2) + '\n')
  else process.stderr.write(`Error: ${reason}\nHint: ${hint}\n`)
  process.exitCode = 2
  return true
}

function loadBundle(file) {
  let src
  try {
    if (statSync(file).mtimeMs + 1 < statSync(join(root, 'oclif.manifest.json')).mtimeMs) return undefined
    src = readFileSync(file, 'latin1') // the build makes it pure ASCII: no UTF-8 decoding needed
  } catch {
    return undefined
  }
  const cacheFile = file + '.cache'
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {}
  const script = new vm.Script(Module.wrap(src), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const mod = new Module(file)
  mod.filename = file
  mod.paths = Module._nodeModulePaths(dirname(file))
  const require = createRequire(file)
  script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, dirname(file))
  mod.loaded = true
  // oclif loads the explicit target with require(); this makes it the instance already loaded.
  require.cache[file] = mod
  if (!cachedData || script.cachedDataRejected) {
    // Written at exit so it covers the functions this run compiled; best effort (read-only installs).
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`
        writeFileSync(tmp, script.createCachedData())
        renameSync(tmp, cacheFile)
      } catch {}
    })
  }
  return mod.exports
}
