#!/usr/bin/env node
// Start-up is the product here: every millisecond spent before a command runs is paid by every
// script that calls svc. So (each step's saving is in docs/performance.md):
//  1. This file is CommonJS (bin/package.json): an ES module entry starts Node's ESM loader first.
//  2. `svc --version` is answered from package.json without loading oclif.
//  3. Otherwise the bundle dist/svc.cjs (esbuild.config.mjs) is compiled through vm.Script with a
//     V8 code cache, from the bundle of the command's topic (bin/load-bundle.js, bundleFor below), registered as
//     a normal CommonJS module, and handed to oclif with the explicit command strategy: one file,
//     lazy command modules, no directory scans.
//  4. When the command line names a command and asks for no help, oclif gets a root plugin with
//     that one command from the index built into the bundle (ids, aliases, argument names) instead
//     of reading and walking the 0.5 MB oclif.manifest.json that help and topics need; the root
//     help gets one with just what it lists (root commands, the ids topics come from).
//  5. If the bundle is missing or not of the build the per-file output (build/emit.mjs) belongs to (someone ran only build/emit.mjs:
//     bin/load-bundle.js compares build ids, never mtimes, which an npm install rewrites), the
//     unbundled per-file output is used the same way (same error handling): slower, never broken.
'use strict'
const {existsSync, readFileSync} = require('node:fs')
const {basename, join} = require('node:path')
const {buildIdOf, cacheDirFor, canWriteIn, loadBundle} = require('./load-bundle.js')

const root = join(__dirname, '..')
const argv = process.argv.slice(2)
// The test suite counts the processes it starts (test/helpers/process-count-global.ts): one line per start.
if (process.env.SVC_COUNT_STARTS) countStart(process.env.SVC_COUNT_STARTS)
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

main().catch((error) => {
  process.exitCode = 1
  process.stderr.write(`${error?.stack ?? error}\n`)
})

async function main() {
  if (argv[0] === '--version' && argv.every((a) => a === '--version' || a === '--json')) {
    // Same text as oclif's config.userAgent; with --json the document `svc version --json` prints.
    const info = {
      name: pjson.name,
      version: pjson.version,
      platform: process.platform,
      arch: process.arch,
      node: process.version,
    }
    process.stdout.write(
      argv.includes('--json')
        ? JSON.stringify(info, null, 2) + '\n'
        : `${pjson.name}/${pjson.version} ${process.platform}-${process.arch} node-${process.version}\n`,
    )
    return
  }
  // `svc mcp` answers the client's `initialize` before anything else loads (src/lib/mcp/front.ts).
  if (argv[0] === 'mcp' && !wantsHelp(argv)) await answerInitializeFirst()
  // undici parses HTTP with a WebAssembly module; V8 tiers it up with an optimising compile on a
  // background thread, and Node waits for that thread before it exits, long after the
  // command is done. The baseline compiler alone is plenty for one CLI's worth of responses.
  require('node:v8').setFlagsFromString('--liftoff-only')
  // package.json engines already says >= 20.19; oclif's own check loads and runs semver each start.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true'
  // `svc autocomplete` runs the plugin's command module, which oclif loads with import(): code
  // compiled from the bundle's code cache cannot, so it runs from the unbundled oclif (rare, slower).
  let bundleFile
  let bundle
  const buildId = buildIdOf(join(root, 'dist'))
  const cacheDir = buildId ? cacheDirFor(buildId) : undefined
  if (buildId && !process.env.SVC_NO_BUNDLE && argv[0] !== 'autocomplete') {
    // A topic's bundle of another build (an interrupted build) gives way to the full one.
    for (const pick of [bundleFor(argv, cacheDir), bundleAt('svc', cacheDir)]) {
      bundle = loadBundle(pick.file, {buildId, cacheFile: pick.cacheFile, shippedCache: pick.shippedCache, ascii: true})
      bundleFile = pick.file
      if (bundle) break
    }
  }
  // ESM that stays outside the bundle (the local sandbox) is imported from here: functions
  // restored from a V8 code cache have no import() callback of their own.
  globalThis.__svcImport = (url) => import(url)
  // CommonJS packages the bundle keeps out (yaml, for flows) from their own one-file bundle with a
  // code cache, dist/<name>.cjs, else from node_modules.
  const required = new Map()
  globalThis.__svcRequire = (name) => {
    if (!required.has(name))
      required.set(
        name,
        loadBundle(bundleAt(name, cacheDir).file, {...bundleAt(name, cacheDir), buildId, ascii: true}) ?? require(name),
      )
    return required.get(name)
  }
  // Plugins (package.json oclif.plugins: shell completion) are read only by the commands that need
  // them: `svc autocomplete ...`, and the root help that lists it. Every other command skips
  // finding, reading and parsing their package.json and manifest.
  if (!needsPlugins(argv)) pjson.oclif.plugins = []
  const target = bundle && `./dist/${basename(bundleFile)}`
  if (bundle) pjson.oclif.commands = {strategy: 'explicit', target, identifier: 'COMMANDS'}
  if (bundle) pjson.oclif.helpClass = {target, identifier: 'HELP'}
  const oclif = bundle ?? (await import('@oclif/core'))
  const options = bundle ? await runOptions(bundle, argv) : {root, pjson}
  await oclif
    .run(argv, options)
    .then(() => oclif.flush())
    .catch(async (error) => ((await notFound(error)) ? undefined : oclif.handle(error)))
  // The command is done and its output written: end the process here. Left to itself, Node would
  // first run the callbacks still queued (idle keep-alive sockets being released) and tear down the
  // heap and every handle, which is time the caller waits for and no one uses. Output a slow pipe
  // still holds is left to drain the usual way. Commands that serve (sandbox serve, webhooks listen)
  // return only when they are stopped.
  if (!process.stdout.writableLength && !process.stderr.writableLength) process.exit()
}

/**
 * An MCP client waits for the answer to `initialize` before anything else, and the answer is the
 * same whatever the flags: dist/mcp-front.cjs (a few KB) reads the first message and answers it
 * when it is `initialize`; oclif, the command and the SDK load after that, and the SDK's Server
 * takes over the streams (src/lib/mcp/server.ts). Without a current build: the Server answers.
 */
async function answerInitializeFirst() {
  const buildId = buildIdOf(join(root, 'dist'))
  if (!buildId || process.env.SVC_NO_BUNDLE) return
  const pick = bundleAt('mcp-front', cacheDirFor(buildId))
  const front = loadBundle(pick.file, {...pick, buildId, ascii: true})
  if (!front) return
  globalThis.__svcMcpFront = front.startFront(pjson.version, process.stdin, process.stdout)
  await globalThis.__svcMcpFront.firstMessage
}

/**
 * oclif's load options for this command line. A command line that names a command and asks for no
 * help gets a root plugin holding that one command, from the index built into the bundle: oclif
 * neither reads the 0.5 MB manifest nor builds the table of all commands and topics. Anything else
 * (help, a topic, a mistyped command) goes through the full manifest. oclif's debug logger is used
 * only when DEBUG asks for it (the `debug` package probes the terminal's colours when loaded).
 */
async function runOptions(bundle, args) {
  const options = {root, pjson}
  if (!process.env.DEBUG) {
    options.logger = silentLogger('oclif')
    bundle.setLogger(options) // before the plugin below logs anything
  }
  const index = bundle.COMMAND_INDEX
  // `svc mcp` runs the commands of its tools in its own process (src/lib/mcp/runner.ts): oclif
  // reads the whole manifest, so every command can be found.
  if (args[0] === 'mcp') return options
  const id = index && !wantsHelp(args) ? commandNamed(args, index) : undefined
  // `svc flow run` runs its steps' commands in its own process (src/lib/scenario/run/svc-step.ts):
  // it gets every command of the full bundle's index (oclif finds them; their modules load on use).
  if (id === 'flow:run') return withPlugin(bundle, options, {version: index.version, commands: index.commands})
  // The root help lists topics and root commands only: the bundle's small index of them, with the
  // core plugins' commands in it, instead of the manifest, every command and the plugins' own.
  const manifest = id
    ? {version: index.version, commands: {[id]: index.commands[id]}}
    : isRootHelp(args)
      ? bundle.ROOT_HELP_INDEX
      : undefined
  return manifest ? withPlugin(bundle, options, manifest) : options
}

/** oclif's load options with a root plugin whose manifest is `manifest` (from the bundle's index). */
async function withPlugin(bundle, options, manifest) {
  if (typeof bundle.Plugin?.prototype?._manifest !== 'function') return options
  class IndexPlugin extends bundle.Plugin {
    async _manifest() {
      this.hasManifest = true
      this.commandIDs = Object.keys(manifest.commands)
      return manifest
    }
  }
  const plugin = new IndexPlugin({root, pjson, isRoot: true})
  await plugin.load()
  return {...options, plugins: new Map([[plugin.name, plugin]])}
}

/** `svc`, `svc help`, `svc --help`, `svc -h`: exactly, nothing else (`help --all`, a topic ...). */
function isRootHelp(args) {
  return args.length === 0 || (args.length === 1 && ['help', '--help', '-h'].includes(args[0]))
}

/**
 * The command the leading words name (`customers get X` -> customers:get), the longest match
 * first, by id or alias: the same id oclif settles on, since arguments only follow the command.
 */
function commandNamed(args, index) {
  const words = []
  for (const a of args) {
    if (a.startsWith('-')) break
    words.push(a)
  }
  for (let n = Math.min(words.length, 4); n > 0; n--) {
    const candidate = words.slice(0, n).join(':')
    if (index.commands[candidate]) return candidate
    if (index.aliases[candidate]) return index.aliases[candidate]
  }
  return undefined
}

function silentLogger(namespace) {
  const no = () => {}
  return {
    namespace,
    child: (ns, delimiter = ':') => silentLogger(`${namespace}${delimiter}${ns}`),
    debug: no,
    error: no,
    info: no,
    trace: no,
    warn: no,
  }
}

/** Help reads every command's flags, descriptions and examples: those are in the full manifest only. */
function wantsHelp(args) {
  const words = args.filter((a) => !a.startsWith('-'))
  return args.length === 0 || words[0] === 'help' || args.some((a) => a === '--help' || a === '-h')
}

function needsPlugins(args) {
  const words = args.filter((a) => !a.startsWith('-'))
  if (words[0] === 'autocomplete' || (words[0] === 'help' && words[1] === 'autocomplete')) return true
  return words.length === 0
    ? args.length === 0 || args.some((a) => a === '--help' || a === '-h')
    : words.length === 1 && words[0] === 'help'
}

/**
 * An unknown command is a usage error (exit 2) like any other; under --json its error document goes
 * to stdout so a script still parses exactly one JSON document. The hint names the closest command
 * (dist/lib/suggest.js, loaded only here). The guess is only ever suggested, on a terminal too:
 * running it, even after a "(Y/n)", could run a destructive command the person never typed (a
 * mistyped `custmers delete X --yes`), and the same line then behaves the same in a script.
 */
/**
 * The words of argv that oclif joined into the id it did not find, as typed: an argument such as
 * `Customer:x` keeps its colon (the id's colons are oclif's, the argument's are the user's).
 */
function typedCommand(id) {
  const want = id.split(':').length
  const words = []
  let pieces = 0
  for (const a of argv) {
    if (pieces >= want || a.startsWith('-')) break
    words.push(a)
    pieces += a.split(':').length
  }
  return pieces === want ? words.join(' ') : id.replaceAll(':', ' ')
}

async function notFound(error) {
  const m = /^command (\S+) not found/.exec(error?.message ?? '')
  if (!m) return false
  process.exitCode = 2
  const reason = `"${typedCommand(m[1])}" is not an svc command`
  let suggestion
  try {
    const {suggestAnywhere: suggestCommand} = await import('../dist/lib/suggest.js')
    const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
    const ids = Object.values(manifest.commands)
      .filter((c) => !c.hidden)
      .flatMap((c) => [c.id, ...(c.aliases ?? [])])
    suggestion = suggestCommand(argv, ids)
  } catch {}
  const hint = suggestion
    ? `Did you mean \`svc ${suggestion.id.replaceAll(':', ' ')}\`? Run \`svc help\` for the command list.`
    : 'Run `svc help` for the command list.'
  if (argv.includes('--json'))
    process.stdout.write(
      JSON.stringify({error: {status: null, code: 'USAGE', reason, details: {}, hint}}, null, 2) + '\n',
    )
  else process.stderr.write(`Error: ${reason}\nHint: ${hint}\n`)
  return true
}

/**
 * Which one-file build runs this command line, and the V8 code cache it is compiled with. A
 * command runs from the deepest bundle named by its leading words: its subtopic's
 * (dist/svc-wallet.keys.cjs) where the build made one, else its topic's (dist/svc-wallet.cjs),
 * each holding only those commands; the root help from the help command's; help of a command or
 * topic, and anything else, from dist/svc.cjs, which holds every command. Each bundle has its own
 * cache in dist/cache, written by its first run, so it holds what that kind of command compiles
 * and no more, in the user's cache dir (bin/load-bundle.js cacheDirFor). Where that cache cannot
 * be written and is neither there nor primed by the build (dist/cache), the full bundle runs with
 * the cache the build primed for it. SVC_ONE_BUNDLE=1 always runs the full bundle.
 */
function bundleFor(args, cacheDir) {
  const full = bundleAt('svc', cacheDir)
  if (process.env.SVC_ONE_BUNDLE || (wantsHelp(args) && !isRootHelp(args)) || runsCommands(args)) return full
  const words = []
  for (const a of isRootHelp(args) ? ['help'] : args) {
    if (!/^[a-z][a-z0-9-]*$/.test(a) || words.length === 3) break
    words.push(a)
  }
  for (let n = words.length; n > 0; n--) {
    const bundle = bundleAt(`svc-${words.slice(0, n).join('.')}`, cacheDir)
    if (!existsSync(bundle.file)) continue
    return existsSync(bundle.cacheFile) || existsSync(bundle.shippedCache) || canWriteIn(cacheDir) ? bundle : full
  }
  return full
}

/**
 * `svc flow run` runs the commands of its steps in its own process: from the bundle that holds them
 * all, when its file has an `svc:` step (a flow of API, clock and webhook steps only starts from the
 * flow topic's bundle, ~20 ms sooner). A file that cannot be read here gets the full bundle; a step
 * this look misses would run as a child process (svc-step.ts), slower but the same.
 */
function runsCommands(args) {
  if (args[0] !== 'flow' || args[1] !== 'run') return false
  const file = args.slice(2).find((a) => !a.startsWith('-'))
  try {
    return /(^|[\s{,-])svc\s*:/m.test(readFileSync(file, 'utf8'))
  } catch {
    return true
  }
}

/** The bundle dist/<name>.cjs, its code cache in the user's cache dir, and the one the build primed. */
function bundleAt(name, cacheDir) {
  return {
    file: join(root, 'dist', `${name}.cjs`),
    cacheFile: cacheDir && join(cacheDir, `${name}.cache`),
    shippedCache: join(root, 'dist', 'cache', `${name}.cache`),
  }
}

function countStart(file) {
  const words = []
  for (const a of argv) {
    if (!/^[a-z][a-z0-9-]*$/.test(a) || words.length === 3) break
    words.push(a)
  }
  try {
    require('node:fs').appendFileSync(file, `${process.env.SVC_COUNT_TEST ?? ''}\t${words.join(' ')}\n`)
  } catch {}
}
