// Bundles the local sandbox (src/emulator/emulator.ts and everything it imports, libsql aside) into
// dist/emulator.cjs, which src/emulator/load.ts compiles with a V8 code cache. `svc sandbox serve`
// then reads one file instead of resolving, reading and compiling ~200 ES modules (most of its
// start-up: docs/performance.md). Run after `tsc` (npm run build); a failed bundle is removed and
// the sandbox loads from the tsc output as before (slower to start, never broken).
//
// Usage: node build/emulator-bundle.mjs [--dev]   (--dev: a failure warns and exits 0)
import {renameSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'
import {buildIdFor, stampOf} from './build-id.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outfile = join(root, 'dist', 'emulator.cjs')
const dev = process.argv.includes('--dev')
/** What the sandbox bundle and its snapshot worker share: Node 20 CommonJS, libsql left to node_modules. */
const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  write: false,
  minifySyntax: true,
  legalComments: 'none',
  // A native addon: required from node_modules at run time.
  external: ['libsql'],
  // The one use, `createRequire(import.meta.url)('libsql')`, resolves from the bundle's own place.
  define: {'import.meta.url': '__svcBundleUrl'},
  banner: {js: "const __svcBundleUrl = require('node:url').pathToFileURL(__filename).href;"},
  logLevel: 'warning',
}

try {
  const result = await build({
    ...nodeBundle,
    entryPoints: [join(root, 'src', 'emulator', 'emulator.ts')],
    minifyWhitespace: true,
  })
  const tmp = `${outfile}.${process.pid}.tmp`
  // Inside CommonJS's module wrapper, so the loader compiles the file's text as read.
  // Stamped with the build's id (bin/load-bundle.js), which the CLI's bundling step made.
  const stamp = stampOf(buildIdFor(root))
  writeFileSync(
    tmp,
    `${stamp}(function (exports, require, module, __filename, __dirname) { ${result.outputFiles[0].text}\n});`,
  )
  renameSync(tmp, outfile)
  rmSync(outfile + '.cache', {force: true}) // where builds before the user cache dir kept its cache
  console.log('esbuild: dist/emulator.cjs')
  await bundleSnapshotWorker()
} catch (error) {
  rmSync(outfile, {force: true})
  rmSync(outfile + '.cache', {force: true})
  rmSync(join(root, 'dist', 'snapshot-worker.cjs'), {force: true}) // a branch then imports on the server's thread, sliced
  console.error(
    `esbuild: bundling the sandbox failed (${error?.message ?? error}); it loads from dist/emulator/ instead.`,
  )
  process.exit(dev ? 0 : 1)
}

/**
 * The snapshot import's worker thread (src/emulator/store/snapshot-offload.ts) beside the bundle, as
 * dist/snapshot-worker.cjs: the bundle finds it by its own place, and the TypeScript sources (tests)
 * use it too, since a worker cannot load .ts.
 */
async function bundleSnapshotWorker() {
  const workerFile = join(root, 'dist', 'snapshot-worker.cjs')
  const result = await build({
    ...nodeBundle,
    entryPoints: [join(root, 'src', 'emulator', 'store', 'snapshot-worker.ts')],
  })
  const tmp = `${workerFile}.${process.pid}.tmp`
  writeFileSync(tmp, result.outputFiles[0].text)
  renameSync(tmp, workerFile)
  console.log('esbuild: dist/snapshot-worker.cjs')
}
