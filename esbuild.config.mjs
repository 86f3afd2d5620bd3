// Bundles the CLI into dist/svc.cjs for fast start-up (see bin/run.js). Run after `tsc` and
// `oclif manifest`: the manifest (help, flags) still comes from the tsc output in dist/commands,
// while commands execute from this bundle.
//
// - The command map is GENERATED from src/commands/**/*.ts (same id rules as oclif's pattern
//   strategy), so new commands need no registration. Each entry is a lazy stub: the command's
//   module (and everything only it imports: zod schemas, wallet crypto, undici ...) is evaluated
//   only when that command runs. oclif's explicit strategy reads the map (identifier COMMANDS).
// - CommonJS output so bin/run.js can compile it through vm.Script with a V8 code cache
//   (Node 20 has no module.enableCompileCache).
// - `import.meta.url` in a source file is rewritten to the URL of that file's tsc output, so
//   relative paths (e.g. ../../bin/run.js) mean the same in both builds.
//
// Usage: node esbuild.config.mjs [--dev]   (--dev: a failed bundle warns and exits 0; bin/run.js
// then falls back to the unbundled tsc output, so parallel work in progress never breaks the CLI)
import {readdirSync, readFileSync, renameSync, rmSync, existsSync, mkdtempSync, writeFileSync} from 'node:fs'
import {spawnSync} from 'node:child_process'
import {tmpdir} from 'node:os'
import {dirname, join, relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'

const root = dirname(fileURLToPath(import.meta.url))
const dev = process.argv.includes('--dev')
const outfile = join(root, 'dist', 'svc.cjs')
const cacheFile = outfile + '.cache'

function commandFiles(dir, prefix = []) {
  if (!existsSync(dir)) return []
  const out = []
  for (const entry of readdirSync(dir, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) out.push(...commandFiles(join(dir, entry.name), [...prefix, entry.name]))
    else if (/\.ts$/.test(entry.name) && !/\.(d|test|spec)\.ts$/.test(entry.name)) {
      const name = entry.name.replace(/\.ts$/, '')
      const id = [...prefix, name === 'index' ? '' : name].filter(Boolean).join(':')
      out.push({id, file: join(dir, entry.name)})
    }
  }
  return out
}

const commands = commandFiles(join(root, 'src', 'commands'))
const entry = `
export {run, flush, handle, settings} from '@oclif/core'
const lazy = (load) => {
  const stub = {
    async run(argv, config) {
      const mod = await load()
      const C = mod.default ?? Object.values(mod).find((v) => v && typeof v.run === 'function')
      C.id = stub.id
      C.plugin = stub.plugin
      return C.run(argv, config)
    },
  }
  return stub
}
export const COMMANDS = {
${commands.map((c) => `  ${JSON.stringify(c.id)}: lazy(() => import(${JSON.stringify('./' + relative(root, c.file).split(sep).join('/'))})),`).join('\n')}
}
`

const distUrl = (distRel) => `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(distRel)})).href`

/**
 * - import.meta.url -> URL of the file's tsc output (dist/<same path>.js).
 * - A dynamic import of the local sandbox (src/emulator/**, only `svc sandbox serve` needs it)
 *   loads its tsc output instead of being bundled: the emulator and what only it uses stay out of
 *   the file every command reads and evaluates at start (a long-running server does not need a
 *   fast start). Static imports of emulator code stay bundled (a CommonJS bundle cannot require ESM).
 */
const sourceRewrites = {
  name: 'source-rewrites',
  setup(b) {
    b.onLoad({filter: /[\\/]src[\\/].*\.ts$/}, (args) => {
      let contents = readFileSync(args.path, 'utf8')
      const toDist = (file) => relative(join(root, 'src'), file).split(sep).join('/').replace(/\.ts$/, '.js')
      if (contents.includes('import.meta.url')) contents = contents.replaceAll('import.meta.url', distUrl(toDist(args.path)))
      const emulatorDir = join(root, 'src', 'emulator') + sep
      if (!args.path.startsWith(emulatorDir)) {
        contents = contents.replace(/\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g, (whole, _q, spec) => {
          const target = join(dirname(args.path), spec).replace(/\.js$/, '.ts')
          // Through bin/run.js's import(): code compiled from a V8 code cache cannot import() itself.
          return target.startsWith(emulatorDir) ? `globalThis.__svcImport(${distUrl(toDist(target))})` : whole
        })
      }
      return {contents, loader: 'ts'}
    })
  },
}

/**
 * Start-up trims for dependencies, each measured (cold `customers get`):
 * - oclif's logger loads `debug` (tty, util, supports-color) on every run; it is only needed when
 *   DEBUG is set, so the bundle loads it on demand and uses a no-op logger otherwise (~9 ms).
 * - undici's HTTP/2 client requires node:http2 (which loads http and tls) at module load just to
 *   read header-name constants; svc never speaks h2, so the constants are inlined and http2
 *   itself loads only if a connection ever asks for it (~9 ms).
 * - oclif's theme probes the terminal (supports-color) at load; it only needs the answer when it
 *   colours something, so the probe runs on first use (~4 ms).
 * - @inquirer/prompts' editor prompt pulls in an external-editor helper with every legacy text
 *   encoding (iconv-lite, chardet: ~0.5 MB read and cached on every start); svc never opens an
 *   editor prompt, so the helper is a stub that says so.
 * - Modules some dependencies require at load but use only on rare paths are required on first
 *   use instead (LAZY_REQUIRES below): child_process (oclif: Windows shell detection; on Linux it only needs is-wsl), tinyglobby
 *   (oclif: command discovery without a manifest), node:http (undici: one instanceof check, and a
 *   default header limit that svc passes explicitly). Each edit is checked: if a dependency update
 *   changes the text, the build says so and keeps the original code.
 */
const lazy = (mod) => `new Proxy({}, {get: (_, key) => require(${JSON.stringify(mod)})[key]})`
const LAZY_REQUIRES = [
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/,
    edits: [
      ['require("node:child_process")', lazy('node:child_process')],
      // wsl-utils (child_process, powershell helpers) only to ask is-wsl, which it re-exports.
      ["(await import('wsl-utils')).isWsl ? 'wsl'", "(await import('is-wsl')).default ? 'wsl'"],
    ],
  },
  {file: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/, edits: [['require("tinyglobby")', lazy('tinyglobby')]]},
  {
    file: /undici[\\/]lib[\\/]core[\\/]util\.js$/,
    edits: [
      ["const { IncomingMessage } = require('node:http')", ''],
      ['.constructor === IncomingMessage)', ".constructor === require('node:http').IncomingMessage)"],
    ],
  },
  {
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    edits: [
      ["const http = require('node:http')", `const http = ${lazy('node:http')}`],
      [
        `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
        `const getDefaultNodeMaxHeaderSize = () => {
  if (Number.isInteger(http.maxHeaderSize) && http.maxHeaderSize > 0) return http.maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
      ],
    ],
  },
]
const http2Constants = JSON.stringify((await import('node:http2')).constants)
const leanDeps = {
  name: 'lean-deps',
  setup(b) {
    b.onResolve({filter: /^debug$/}, (args) => (args.importer.includes(`${sep}@oclif${sep}core${sep}`) ? {path: 'debug', namespace: 'svc-debug'} : undefined))
    b.onLoad({filter: /.*/, namespace: 'svc-debug'}, () => ({
      resolveDir: root,
      contents: `
        const noop = Object.assign(function () {}, {enabled: false, log() {}, extend() { return noop }, destroy() {}})
        const stub = Object.assign(() => noop, {enable() {}, disable() { return '' }, enabled: () => false, formatters: {}, coerce: (v) => v})
        stub.default = stub.debug = stub
        module.exports = process.env.DEBUG ? require('debug') : stub`,
    }))
    for (const {file, edits} of LAZY_REQUIRES) {
      b.onLoad({filter: file}, (args) => {
        let contents = readFileSync(args.path, 'utf8')
        for (const [from, to] of edits) {
          if (!contents.includes(from)) {
            console.warn(`esbuild: ${relative(root, args.path)} changed; start-up edit skipped: ${from}`)
            return undefined
          }
          contents = contents.replace(from, to)
        }
        return {contents, loader: 'js'}
      })
    }
    b.onResolve({filter: /^@inquirer\/external-editor$/}, () => ({path: 'external-editor', namespace: 'svc-no-editor'}))
    b.onLoad({filter: /.*/, namespace: 'svc-no-editor'}, () => ({
      contents: `const no = () => { throw new Error('svc does not open an external editor') }
        module.exports = {editAsync: no, edit: no, ExternalEditor: class { constructor() { no() } }}`,
      loader: 'js',
    }))
    b.onLoad({filter: /@oclif[\\/]core[\\/]lib[\\/]ux[\\/]supports-color\.js$/}, () => ({
      resolveDir: root,
      contents: `let probed
        exports.supportsColor = () => {
          probed ??= require('supports-color')
          return Boolean(probed.stdout) && Boolean(probed.stderr)
        }`,
      loader: 'js',
    }))
    b.onLoad({filter: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/}, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(
        "require('node:http2')",
        `{constants: ${http2Constants}, connect: (...a) => require('node:http2').connect(...a)}`,
      ),
      loader: 'js',
    }))
  },
}

/**
 * esbuild leaves some non-ASCII characters as they are (inside regular expressions). Escaping them
 * makes the bundle pure ASCII, so bin/run.js can read it as latin1: a plain copy instead of UTF-8
 * decoding, ~4 ms less per start. `\uXXXX` means the same in strings, templates and regular
 * expressions (surrogate pairs included); bin/run.js relies on the check below.
 */
function asciiOnly(code) {
  const out = code.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
  if (/[^\x00-\x7f]/.test(out)) throw new Error('bundle is not ASCII after escaping')
  return out
}

try {
  const result = await build({
    stdin: {contents: entry, resolveDir: root, sourcefile: 'svc-entry.js', loader: 'js'},
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    // Written below with a rename: tests and other shells may be running the CLI during a build.
    write: false,
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    // oclif only needs these to run TypeScript sources in development. yaml (~190 KB) is needed by
    // `svc flow` only: required from node_modules when a flow file is read, not read by every start.
    external: ['typescript', 'ts-node', 'tsx', 'yaml'],
    plugins: [sourceRewrites, leanDeps],
    logLevel: 'warning',
  })
  const tmp = `${outfile}.${process.pid}.tmp`
  writeFileSync(tmp, asciiOnly(result.outputFiles[0].text))
  renameSync(tmp, outfile)
} catch (error) {
  rmSync(outfile, {force: true})
  rmSync(cacheFile, {force: true})
  console.error(`esbuild: bundling failed; bin/run.js will use the unbundled dist/ (slower start-up).`)
  process.exit(dev ? 0 : 1)
}
rmSync(cacheFile, {force: true})

// Prime the V8 code cache with a representative run (parse, config, client, error path) so the
// first real command already starts fast. Nothing listens on port 9; failure is expected.
const home = mkdtempSync(join(tmpdir(), 'svc-prime-'))
spawnSync(process.execPath, [join(root, 'bin', 'run.js'), 'customers', 'get', 'Customer:prime', '--json'], {
  env: {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'c'), SVC_DATA_DIR: join(home, 'd'), SVC_BASE_URL: 'http://127.0.0.1:9/2025-10-13', SVC_TOKEN_ID: 'prime', SVC_CLIENT_SECRET: 'prime', SVC_NO_INPUT: '1'},
  stdio: 'ignore',
  timeout: 30_000,
})
rmSync(home, {recursive: true, force: true})
console.log(`esbuild: dist/svc.cjs (${commands.length} commands)${existsSync(cacheFile) ? ' + code cache' : ''}`)
