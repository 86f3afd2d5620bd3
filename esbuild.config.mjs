// Bundles the CLI into dist/svc.cjs for fast start-up (see bin/run.js). Run after build/emit.mjs and
// `oclif manifest`: the manifest (help, flags) still comes from the per-file output (build/emit.mjs) in dist/commands,
// while commands execute from this bundle.
//
// - The command map is GENERATED from src/commands/**/*.ts (same id rules as oclif's pattern
//   strategy), so new commands need no registration. Each entry is a lazy stub: the command's
//   module (and everything only it imports: zod schemas, wallet crypto, undici ...) is evaluated
//   only when that command runs. oclif's explicit strategy reads the map (identifier COMMANDS).
// - CommonJS output so bin/run.js can compile it through vm.Script with a V8 code cache
//   (Node 20 has no module.enableCompileCache).
// - `import.meta.url` in a source file is rewritten to the URL of that file's per-file output, so
//   relative paths (e.g. ../../bin/run.js) mean the same in both builds.
//
// Usage: node esbuild.config.mjs [--dev]   (--dev: a failed bundle warns and exits 0; bin/run.js
// then falls back to the unbundled per-file output, so parallel work in progress never breaks the CLI)
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import {createRequire} from 'node:module'
import {spawn} from 'node:child_process'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {basename, dirname, join, relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'
import {dependencyEdits, pathFilter} from './build/dependency-edits.mjs'
import {buildIdFor, stampOf} from './build/build-id.mjs'

const {cacheDirFor} = createRequire(import.meta.url)('./bin/load-bundle.js')

const root = dirname(fileURLToPath(import.meta.url))
const dev = process.argv.includes('--dev')
const outfile = join(root, 'dist', 'svc.cjs')
// The V8 code caches this build primes and ships, one per bundle (bin/run.js bundleFor): read
// where the user's cache dir has none yet. Stale after every build.
const cacheDir = join(root, 'dist', 'cache')
// Stamped into every bundle and into dist/lib/build-id.js (bin/load-bundle.js: freshness by id).
const buildId = buildIdFor(root, {fresh: true})
const stamp = stampOf(buildId)

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

/**
 * What oclif needs to find and run one command, from the manifest `oclif manifest` just wrote:
 * ids, aliases, visibility and argument names (they end a spaced command id). bin/run.js hands
 * oclif the entry of the command being run instead of the full manifest when no help is asked for.
 */
function commandIndex() {
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
  const keep = [
    'id',
    'aliases',
    'hiddenAliases',
    'hidden',
    'state',
    'deprecationOptions',
    'deprecateAliases',
    'strict',
    'pluginName',
    'pluginAlias',
    'pluginType',
  ]
  const commands = {}
  const aliases = {}
  for (const [id, c] of Object.entries(manifest.commands)) {
    const entry = Object.fromEntries(keep.filter((k) => c[k] !== undefined).map((k) => [k, c[k]]))
    entry.args = Object.fromEntries(Object.keys(c.args ?? {}).map((name) => [name, {name}]))
    commands[id] = entry
    for (const alias of [...(c.aliases ?? []), ...(c.hiddenAliases ?? [])]) aliases[alias.replaceAll(' ', ':')] = id
  }
  return {version: manifest.version, commands, aliases}
}

/**
 * What the root help (`svc`, `svc help`, `svc --help`, `-h`) shows, and nothing else: the root
 * commands whole (without flags and examples), and of each other top-level word one command, the
 * first in oclif's sort order, with its summary and description: oclif derives the topic from its
 * id, and a topic oclif names from a command (not from package.json) takes that command's summary.
 * The root help lists only top-level topics, so the other commands' ids would only give oclif more
 * topics to build and filter; kept are those that make oclif count a word as a topic (below). The core plugins' commands (shell completion) come after
 * svc's, as oclif loads them. Null when a plugin's manifest is missing: bin/run.js then reads
 * everything the usual way.
 */
function rootHelpIndex() {
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const manifests = [join(root, 'oclif.manifest.json')]
  for (const name of pjson.oclif.plugins ?? []) manifests.push(join(root, 'node_modules', name, 'oclif.manifest.json'))
  if (!manifests.every((file) => existsSync(file))) return null
  const parsed = manifests.map((file) => JSON.parse(readFileSync(file, 'utf8')))
  const commands = {}
  const named = new Set()
  const words = new Set(parsed.flatMap((m) => Object.keys(m.commands).map((id) => id.split(':')[0])))
  for (const m of parsed) {
    const entries = Object.entries(m.commands)
    // oclif sorts each plugin's commands before it derives topics (code-point order: the
    // oclif-sort-without-icu edit, checked equal to localeCompare for svc's ids).
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    for (const [id, c] of entries) {
      const aliases = [...(c.aliases ?? []), ...(c.hiddenAliases ?? [])]
      if (!id.includes(':') || aliases.length > 0) {
        const {flags: _flags, examples: _examples, ...listed} = c
        commands[id] = listed
      } else if (!c.hidden && !named.has(id.split(':')[0])) {
        commands[id] = {id, summary: c.summary, description: c.description}
      } else if (!c.hidden && [...words].some((w) => id.indexOf(`${w}:`, 1) > 0)) {
        // oclif counts a top-level word as a topic when any id contains `<word>:`, anywhere
        // (`sca:login:start` lists `login` among the topics): such ids stay.
        commands[id] = {id}
      }
      // Only a command under a word names its topic: a word that is also a command of its own
      // (`history`, with `history finish` under it) is still a topic to oclif.
      if (!c.hidden && id.includes(':')) named.add(id.split(':')[0])
    }
  }
  return {version: parsed[0].version, commands}
}

/**
 * The entry of one bundle: oclif's runner, the help class, the index of the commands it holds and a
 * lazy stub per command. `commands` are all of them for dist/svc.cjs, one topic's for
 * dist/svc-<topic>.cjs; the root help's index goes with the bundle that runs it.
 */
let commandIndexOnce
function entryFor(held, {rootHelp}) {
  const ids = new Set(held.map((c) => c.id))
  const index = (commandIndexOnce ??= commandIndex())
  return `
export {run, flush, handle, settings, Plugin} from '@oclif/core'
export {setLogger} from '@oclif/core/logger'
export {default as HELP} from './src/lib/help.ts'
export const COMMAND_INDEX = ${JSON.stringify({
    version: index.version,
    commands: Object.fromEntries(Object.entries(index.commands).filter(([id]) => ids.has(id))),
    aliases: Object.fromEntries(Object.entries(index.aliases).filter(([, id]) => ids.has(id))),
  })}
export const ROOT_HELP_INDEX = ${rootHelp ? JSON.stringify(rootHelpIndex()) : 'null'}
const lazy = (load) => {
  const stub = {
    // The command's class, for who runs it in-process (svc mcp: src/lib/mcp/runner.ts).
    async commandClass() {
      const mod = await load()
      const C = mod.default ?? Object.values(mod).find((v) => v && typeof v.run === 'function')
      C.id = stub.id
      C.plugin = stub.plugin
      return C
    },
    async run(argv, config) {
      return (await stub.commandClass()).run(argv, config)
    },
  }
  return stub
}
export const COMMANDS = {
${held.map((c) => `  ${JSON.stringify(c.id)}: lazy(() => import(${JSON.stringify('./' + relative(root, c.file).split(sep).join('/'))})),`).join('\n')}
}
`
}

/**
 * The bundles: dist/svc.cjs with every command (help of a command or topic, a mistyped command, a
 * read-only install), one per first word of a command id or alias, dist/svc-<word>.cjs, with only
 * that topic's commands, and one per subtopic, dist/svc-<word>.<word>.cjs (`wallet keys`), with
 * only the subtopic's, where that is worth a file (SUBTOPIC_SHARE). A command runs from the
 * deepest bundle that holds it (bin/run.js): V8 reads, and restores from the code cache, the scopes
 * of every function in the file it compiles, so a file with 25 topics' code costs each command the
 * other 24's, and `wallet keys list` paid for the wallet crypto of `wallet login`. The root help
 * runs from the help command's bundle, which carries the root help's index. Returns each bundle's
 * entry and, for a subtopic's, the topic bundle it is measured against.
 */
function bundleEntries() {
  const groups = new Map()
  const add = (name, c) => groups.set(name, [...(groups.get(name) ?? []), c])
  const aliasesOf = (commandIndexOnce ??= commandIndex()).aliases
  for (const c of commands) {
    const names = [c.id, ...Object.keys(aliasesOf).filter((a) => aliasesOf[a] === c.id)]
    // `svc mcp` runs every command in its own process (src/lib/mcp/runner.ts): it runs from the full
    // bundle. `svc flow run` is in the flow bundle too: bin/run.js starts it from the full one only
    // for a file with svc steps (src/lib/scenario/run/svc-step.ts runs them in its process).
    if (c.id === 'mcp') continue
    for (const w of new Set(names.map((x) => x.split(':')[0]))) add(`svc-${w}`, c)
    const parts = c.id.split(':')
    for (let n = 2; n < parts.length; n++) add(`svc-${parts.slice(0, n).join('.')}`, c)
  }
  const entries = {svc: entryFor(commands, {rootHelp: true})}
  const parentOf = {}
  for (const [name, held] of groups) {
    entries[name] = entryFor(held, {rootHelp: name === 'svc-help'})
    if (name.includes('.')) parentOf[name] = name.slice(0, name.lastIndexOf('.'))
  }
  return {entries, parentOf}
}

/** A subtopic gets a bundle of its own only when that is at most this share of its parent's size. */
const SUBTOPIC_SHARE = 0.8

/** Resolves `svc-entry:<bundle>` to that bundle's generated entry. */
const generatedEntries = (entries) => ({
  name: 'generated-entries',
  setup(b) {
    b.onResolve({filter: /^svc-entry:/}, (args) => ({
      path: args.path.slice('svc-entry:'.length),
      namespace: 'svc-entry',
    }))
    b.onLoad({filter: /.*/, namespace: 'svc-entry'}, (args) => ({
      contents: entries[args.path],
      resolveDir: root,
      loader: 'js',
    }))
  },
})

const distUrl = (distRel) =>
  `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(distRel)})).href`

/**
 * - import.meta.url -> URL of the file's per-file output (dist/<same path>.js).
 * - `await import('conf')` and `await import('undici')` go through bin/run.js's import() too and
 *   load from node_modules: ~0.7 MB of the bundle that every start read for a few commands.
 * - A dynamic import of the local sandbox (src/emulator/**, only `svc sandbox serve` needs it)
 *   loads its per-file output instead of being bundled: the emulator and what only it uses stay out of
 *   the file every command reads and evaluates at start (a long-running server does not need a
 *   fast start). Static imports of emulator code stay bundled (a CommonJS bundle cannot require ESM).
 */
const sourceRewrites = {
  name: 'source-rewrites',
  setup(b) {
    b.onLoad({filter: /[\\/]src[\\/].*\.ts$/}, (args) => {
      let contents = readFileSync(args.path, 'utf8')
      // yaml (flow files) from dist/yaml.cjs, one file with a code cache (bin/run.js), instead of
      // the ~60 modules of its package: resolving and compiling them cost `flow run` ~20 ms.
      contents = contents.replaceAll("createRequire(import.meta.url)('yaml')", "globalThis.__svcRequire('yaml')")
      const toDist = (file) => relative(join(root, 'src'), file).split(sep).join('/').replace(/\.ts$/, '.js')
      if (contents.includes('import.meta.url'))
        contents = contents.replaceAll('import.meta.url', distUrl(toDist(args.path)))
      const emulatorDir = join(root, 'src', 'emulator') + sep
      if (!args.path.startsWith(emulatorDir)) {
        // Packages only a few commands need, from node_modules on use: conf (writing profiles; it
        // brings ajv) and undici's full entry (multipart uploads; the client uses its Agent only).
        contents = contents.replace(
          /\bawait import\((['"])(conf|undici)\1\)/g,
          (_whole, _q, name) => `await globalThis.__svcImport(${JSON.stringify(name)})`,
        )
        // The MCP SDK (with the zod and ajv it brings), which only `svc mcp` reads: from its own
        // one-file build dist/mcp-sdk.cjs with a code cache (bundleLibrary below), in no command bundle.
        contents = contents.replace(
          /\bimport\((['"])\.\/sdk\.js\1\)/g,
          "Promise.resolve().then(() => globalThis.__svcRequire('mcp-sdk'))",
        )
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
 * Start-up trims for dependencies: build/dependency-edits.mjs lists each edit with what it saves
 * and the text it relies on. A guard that no longer matches keeps the dependency's original code
 * (the build warns) and fails test/unit/build/dependency-edits.test.ts, which also reads the report
 * written next to the bundle (dist/dependency-edits.json: which edits esbuild applied).
 * SVC_SKIP_EDITS=name,name builds without those edits (test/bench/edits.mjs measures each).
 */
const skipped = new Set((process.env.SVC_SKIP_EDITS ?? '').split(',').filter(Boolean))
const EDITS = dependencyEdits(JSON.stringify((await import('node:http2')).constants)).filter(
  (e) => !skipped.has(e.name),
)
const editReport = Object.fromEntries(EDITS.map((e) => [e.name, 'not loaded']))
function guardedBy(edit, contents) {
  const missing = [...edit.guards, ...(edit.edits ?? []).map(([from]) => from)].find((g) => !contents.includes(g))
  if (missing) {
    editReport[edit.name] = `guard not found: ${missing}`
    console.warn(`esbuild: ${edit.path} changed; start-up edit ${edit.name} skipped (guard not found: ${missing})`)
  }
  return !missing
}

const leanDeps = {
  name: 'lean-deps',
  setup(b) {
    for (const edit of EDITS) {
      const filter = pathFilter(edit.path)
      const guarded = (contents) => guardedBy(edit, contents)
      if (edit.kind === 'replace') {
        // esbuild takes the first onLoad that answers for a file: all replace edits of one file are
        // applied by the first of them (each still checks its own guards).
        if (EDITS.find((e) => e.kind === 'replace' && e.path === edit.path) !== edit) continue
        const sameFile = EDITS.filter((e) => e.kind === 'replace' && e.path === edit.path)
        b.onLoad({filter}, (args) => {
          let contents = readFileSync(args.path, 'utf8')
          let changed = false
          for (const e of sameFile) {
            if (!guardedBy(e, contents)) continue
            for (const [from, to] of e.edits) contents = contents.replace(from, to)
            editReport[e.name] = 'applied'
            changed = true
          }
          return changed ? {contents, loader: 'js'} : undefined
        })
      } else if (edit.kind === 'module') {
        b.onLoad({filter}, (args) => {
          if (!guarded(readFileSync(args.path, 'utf8'))) return undefined
          editReport[edit.name] = 'applied'
          return {contents: edit.contents, resolveDir: root, loader: 'js'}
        })
      } else {
        // A stub replaces what the importer gets; the guard checks that the importer still imports it.
        if (!guarded(readFileSync(join(root, 'node_modules', edit.path), 'utf8'))) continue
        const namespace = `svc-stub-${edit.name}`
        const specifier = new RegExp(`^${edit.specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`)
        b.onResolve({filter: specifier}, (args) => {
          if (!edit.importer.test(args.importer)) return undefined
          editReport[edit.name] = 'applied'
          return {path: edit.specifier, namespace}
        })
        b.onLoad({filter: /.*/, namespace}, () => ({contents: edit.contents, resolveDir: root, loader: 'js'}))
      }
    }
  },
}

/**
 * esbuild leaves some non-ASCII characters as they are (inside regular expressions). Escaping them
 * makes the bundle pure ASCII, so bin/run.js can read it as latin1: a plain copy instead of UTF-8
 * decoding on every start. `\uXXXX` means the same in strings, templates and regular
 * expressions (surrogate pairs included); bin/run.js relies on the check below.
 */
function asciiOnly(code) {
  const out = code.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
  if (/[^\x00-\x7f]/.test(out)) throw new Error('bundle is not ASCII after escaping')
  return out
}

/**
 * dist/<name>.cjs: a package as one file, for bin/run.js to load with a code cache
 * (globalThis.__svcRequire): yaml for flows, and the MCP SDK's parts `svc mcp` uses.
 */
async function bundleLibrary(name, entryPoint) {
  const file = join(root, 'dist', `${name}.cjs`)
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(
    tmp,
    `${stamp}(function (exports, require, module, __filename, __dirname) { ${asciiOnly(result.outputFiles[0].text)}\n});`,
  )
  renameSync(tmp, file)
  rmSync(file + '.cache', {force: true}) // where builds before dist/cache kept its cache
}

try {
  const {entries, parentOf} = bundleEntries()
  const result = await build({
    entryPoints: Object.fromEntries(Object.keys(entries).map((name) => [name, `svc-entry:${name}`])),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outdir: join(root, 'dist'),
    outExtension: {'.js': '.cjs'},
    // Written below with a rename: tests and other shells may be running the CLI during a build.
    write: false,
    minifySyntax: true,
    minifyWhitespace: true,
    // Short local names: a quarter less source to read and hold, and a smaller code cache.
    // Names that matter at run time (error names, command ids) are set explicitly, never inferred.
    minifyIdentifiers: true,
    legalComments: 'none',
    // oclif only needs these to run TypeScript sources in development. yaml (~190 KB) is needed by
    // `svc flow` only: required from node_modules when a flow file is read, not read by every start.
    external: ['typescript', 'ts-node', 'tsx', 'yaml'],
    plugins: [generatedEntries(entries), sourceRewrites, leanDeps],
    logLevel: 'warning',
  })
  // Bundles of topics that no longer exist would be run for a word that names nothing now.
  for (const f of readdirSync(join(root, 'dist'))) if (/^svc-.*\.cjs$/.test(f)) rmSync(join(root, 'dist', f))
  const sizeOf = new Map(result.outputFiles.map((out) => [out.path, out.text.length]))
  const outPath = (name) => join(root, 'dist', `${name}.cjs`)
  // A subtopic whose code is most of its parent's would only add a file (parents first: a.b.c is
  // measured against a.b, or a when a.b is not kept).
  const kept = (name) =>
    !parentOf[name] || sizeOf.get(outPath(name)) <= SUBTOPIC_SHARE * sizeOf.get(outPath(keptParent(name)))
  const keptParent = (name) => (kept(parentOf[name]) ? parentOf[name] : keptParent(parentOf[name]))
  for (const out of result.outputFiles) {
    if (!kept(basename(out.path, '.cjs'))) continue
    const tmp = `${out.path}.${process.pid}.tmp`
    // Written inside CommonJS's module wrapper, so bin/run.js compiles the file's text as read: no
    // concatenated copy of the whole bundle per start.
    writeFileSync(
      tmp,
      `${stamp}(function (exports, require, module, __filename, __dirname) { ${asciiOnly(out.text)}\n});`,
    )
    renameSync(tmp, out.path)
  }
  writeFileSync(
    join(root, 'dist', 'dependency-edits.json'),
    JSON.stringify({skipped: [...skipped], edits: editReport}, null, 2) + '\n',
  )
  await bundleLibrary('yaml', join(root, 'node_modules', 'yaml', 'dist', 'index.js'))
  await bundleLibrary('mcp-sdk', join(root, 'src', 'lib', 'mcp', 'sdk.ts'))
  // What `svc mcp` loads first, to answer `initialize` before anything else (bin/run.js).
  await bundleLibrary('mcp-front', join(root, 'src', 'lib', 'mcp', 'front.ts'))
} catch (error) {
  for (const f of readdirSync(join(root, 'dist'))) if (/^svc(-.*)?\.cjs$/.test(f)) rmSync(join(root, 'dist', f))
  rmSync(cacheDir, {recursive: true, force: true})
  console.error(`esbuild: bundling failed; bin/run.js will use the unbundled dist/ (slower start-up).`)
  process.exit(dev ? 0 : 1)
}
rmSync(cacheDir, {recursive: true, force: true})
rmSync(outfile + '.cache', {force: true}) // where builds before the per-topic caches kept the one cache

// Prime the customers topic's V8 code cache (and the full bundle's, which a read-only install or a
// mistyped command reads) with a representative run: `customers get` answered by a throwaway local server, so the
// cache holds the whole path (parse, config, client, response parsing, output) and not only the
// start. That beats priming with a refused connection (docs/performance.md).
const home = mkdtempSync(join(tmpdir(), 'svc-prime-'))
const primeCustomer = {
  id: 'Customer:prime',
  platformCustomerId: 'prime',
  customerType: 'INDIVIDUAL',
  fullName: 'Prime Run',
  umaAddress: '$prime@sandbox.uma.local',
  kycStatus: 'UNVERIFIED',
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}
const server = createServer((req, res) =>
  res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(primeCustomer)),
)
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const primeEnv = {
  PATH: process.env.PATH,
  // The runs write their caches where a user's would go; they are shipped from dist/cache below.
  SVC_CACHE_DIR: join(home, 'cache'),
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'c'),
  SVC_DATA_DIR: join(home, 'd'),
  SVC_BASE_URL: `http://127.0.0.1:${server.address().port}/2025-10-13`,
  SVC_TOKEN_ID: 'prime',
  SVC_CLIENT_SECRET: 'prime',
  SVC_NO_INPUT: '1',
}
const prime = (args, env = {}) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'run.js'), ...args], {
      env: {...primeEnv, ...env},
      stdio: 'ignore',
      timeout: 30_000,
    })
    child.on('exit', resolve).on('error', resolve)
  })
await prime(['customers', 'get', 'Customer:prime', '--json'])
// The full bundle's cache, which a read-only install runs every command with: the same run.
await prime(['customers', 'get', 'Customer:prime', '--json'], {SVC_ONE_BUNDLE: '1'})
// The root help's cache (no request); other topics write theirs at their first run.
await prime(['help'])
// The yaml bundle's cache, from a one-step flow against the same server.
writeFileSync(
  join(home, 'prime.yaml'),
  'name: prime\nsteps:\n  - name: read\n    api: {method: GET, path: /customers/Customer:prime}\n',
)
await prime(['flow', 'run', join(home, 'prime.yaml'), '--json'])
// The MCP SDK's cache (dist/mcp-sdk.cjs): `svc mcp` starts, loads it, finds stdin closed and ends.
await prime(['mcp'])
server.close()
const primed = cacheDirFor(buildId, {SVC_CACHE_DIR: primeEnv.SVC_CACHE_DIR})
if (existsSync(primed)) {
  mkdirSync(cacheDir, {recursive: true})
  for (const f of readdirSync(primed)) if (f.endsWith('.cache')) copyFileSync(join(primed, f), join(cacheDir, f))
}
rmSync(home, {recursive: true, force: true})
console.log(
  `esbuild: dist/svc.cjs (${commands.length} commands) + ${readdirSync(join(root, 'dist')).filter((f) => /^svc-.*\.cjs$/.test(f)).length} topic and subtopic bundles, code caches for ${
    existsSync(cacheDir)
      ? readdirSync(cacheDir)
          .map((f) => f.replace(/\.cache$/, ''))
          .join(', ')
      : 'none'
  }, build ${buildId}`,
)
