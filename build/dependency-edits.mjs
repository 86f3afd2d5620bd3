// Every build-time edit of a dependency's code, in one place, with what it saves.
//
// esbuild.config.mjs applies these while bundling dist/svc.cjs. Each edit names the file it changes
// (a path under node_modules) and the exact text it relies on (`guards`). When a dependency update
// changes that text, the build keeps the original code and warns, and test/unit/build/
// dependency-edits.test.ts fails: the speed would otherwise be lost without anyone noticing.
//
// savesMs: CPU milliseconds (user + system) that `svc customers get <id> --json` spends at start
// without the edit minus with every edit, as `node test/bench/edits.mjs` last measured them (how, and
// the history of edits removed because they bought less than 0.5 ms, is in docs/performance.md).
// An edit stays only while it pays: 0.5 ms or more there, or on the path it was made for.
//
// partOf: an edit that pays only together with another one; measured and skipped with it.
//
// Kinds:
//   replace  text replacements in `path` ([from, to] pairs, each `from` must occur)
//   module   `path` is replaced as a whole by `contents` (guards: what the replacement must match)
//   stub     imports of `specifier` (from importers matching `importer`) resolve to `contents`;
//            guards are checked in `path`, the file that imports it
const lazy = (mod) => `new Proxy({}, {get: (_, key) => require(${JSON.stringify(mod)})[key]})`

/** @param {string} http2Constants JSON of node:http2's constants (inlined into undici). */
export function dependencyEdits(http2Constants) {
  return [
    {
      name: 'undici-http2-constants',
      savesMs: 12.7,
      why: "undici's HTTP/2 client requires node:http2 (which loads http and tls) at load just for header-name constants; svc never speaks h2",
      kind: 'replace',
      path: 'undici/lib/dispatcher/client-h2.js',
      guards: ["require('node:http2')"],
      edits: [
        [
          "require('node:http2')",
          `{constants: ${http2Constants}, connect: (...a) => require('node:http2').connect(...a)}`,
        ],
      ],
    },
    {
      name: 'inquirer-no-external-editor',
      savesMs: 0.5,
      why: "@inquirer/prompts' editor prompt pulls in iconv-lite and chardet (~0.5 MB to read and cache); svc never opens an editor prompt",
      kind: 'stub',
      specifier: '@inquirer/external-editor',
      importer: /./,
      path: '@inquirer/editor/dist/commonjs/index.js',
      guards: ['require("@inquirer/external-editor")'],
      contents: `const no = () => { throw new Error('svc does not open an external editor') }
        module.exports = {editAsync: no, edit: no, ExternalEditor: class { constructor() { no() } }}`,
    },
    {
      name: 'undici-assert-on-use',
      savesMs: 1.4,
      why: "undici's modules require node:assert at load (with its AssertionError, call tracker and colour helpers) only to call assert(value) on invariants that hold; the real assert loads when one fails, and throws what it would have thrown",
      kind: 'stub',
      specifier: 'node:assert',
      importer: /[\\/]undici[\\/]lib[\\/]/,
      path: 'undici/lib/core/util.js',
      guards: ["const assert = require('node:assert')"],
      contents: `module.exports = function assert(value, message) { if (!value) require('node:assert')(value, message) }`,
    },
    {
      name: 'oclif-child-process-on-use',
      savesMs: 3.5,
      why: 'oclif requires child_process for Windows shell detection and wsl-utils (powershell helpers) only to ask is-wsl',
      kind: 'replace',
      path: '@oclif/core/lib/util/os.js',
      guards: ['require("node:child_process")', "(await import('wsl-utils')).isWsl ? 'wsl'"],
      edits: [
        ['require("node:child_process")', lazy('node:child_process')],
        ["(await import('wsl-utils')).isWsl ? 'wsl'", "(await import('is-wsl')).default ? 'wsl'"],
      ],
    },
    {
      name: 'undici-node-http-on-use',
      savesMs: 2.4,
      why: 'undici requires node:http for one instanceof check and a default header limit that svc passes explicitly',
      kind: 'replace',
      path: 'undici/lib/core/util.js',
      guards: ["const { IncomingMessage } = require('node:http')", '.constructor === IncomingMessage)'],
      edits: [
        ["const { IncomingMessage } = require('node:http')", ''],
        ['.constructor === IncomingMessage)', ".constructor === require('node:http').IncomingMessage)"],
      ],
      // Pays only together with its second half in client.js (both require node:http at load).
    },
    {
      name: 'undici-client-http-on-use',
      savesMs: 0,
      partOf: 'undici-node-http-on-use',
      why: 'second half of undici-node-http-on-use (its savesMs counts both)',
      kind: 'replace',
      path: 'undici/lib/dispatcher/client.js',
      guards: ["const http = require('node:http')", 'const getDefaultNodeMaxHeaderSize = http &&'],
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
    {
      name: 'oclif-help-ejs-on-template',
      savesMs: 0,
      why: "oclif's help runs every description, summary and topic line through ejs, which compiles each one into a function (root help: dozens), although only the examples carry a template (`<%= config.bin %>`); a text without '%' is returned as it is, which is what ejs returns for it, and ejs itself loads on the first template",
      kind: 'replace',
      path: '@oclif/core/lib/help/util.js',
      guards: ['const ejs_1 = __importDefault(require("ejs"));', 'return ejs_1.default.render(t, context);'],
      edits: [
        ['const ejs_1 = __importDefault(require("ejs"));', 'const ejs_1 = {get default() { return require("ejs") }};'],
        ['return ejs_1.default.render(t, context);', "return t.includes('%') ? ejs_1.default.render(t, context) : t;"],
      ],
    },
    {
      name: 'string-width-ascii',
      savesMs: 0,
      why: "oclif's help wraps every line with wrap-ansi, which measures the line so far at each word with string-width, which runs the 10 kB emoji regex over it: ~40 ms of root help. Printable ASCII has no ANSI escape and no emoji and each character is one column wide, so its width is its length, what the full measure returns for it (test/unit/build/dependency-edits.test.ts compares both on all of svc's help text)",
      kind: 'replace',
      path: 'string-width/index.js',
      guards: ['\tstring = stripAnsi(string);\n'],
      edits: [
        [
          '\tstring = stripAnsi(string);\n',
          '\tif (/^[\\x20-\\x7e]*$/.test(string)) return string.length;\n\tstring = stripAnsi(string);\n',
        ],
      ],
    },
    {
      name: 'oclif-help-topics-one-search',
      savesMs: 0,
      why: "oclif's help keeps the topics that have children by asking, for each topic, whether any topic's name contains `<topic>:`, reading config.topics (a fresh copy of every topic) each time: ~230 x 230 copies and searches for svc's root help. One search per topic in all the names joined by newlines (which no name contains) gives the same answer",
      kind: 'replace',
      path: '@oclif/core/lib/help/index.js',
      guards: ['const hasChild = this.config.topics.some((subTopic) => subTopic.name.includes(`${topic.name}:`));'],
      edits: [
        [
          'return this.config.topics.filter((topic) => {',
          "const names = this.config.topics.map((t) => t.name).join('\\n');\n        return this.config.topics.filter((topic) => {",
        ],
        [
          'const hasChild = this.config.topics.some((subTopic) => subTopic.name.includes(`${topic.name}:`));',
          'const hasChild = names.includes(`${topic.name}:`);',
        ],
      ],
    },
    {
      name: 'oclif-supports-color-on-use',
      savesMs: 0,
      why: "oclif's theme probes the terminal's colour support (loading tty, which loads net) when loaded; it needs the answer only when it colours a message. Made for the local-only commands (profiles list, wallet keys list), where nothing else needs tty",
      kind: 'replace',
      path: '@oclif/core/lib/ux/supports-color.js',
      guards: ['const supports_color_1 = require("supports-color");'],
      edits: [
        ['const supports_color_1 = require("supports-color");', `const supports_color_1 = ${lazy('supports-color')};`],
      ],
    },
    {
      name: 'chalk-no-default-probe',
      savesMs: 0,
      partOf: 'oclif-supports-color-on-use',
      why: 'second half of oclif-supports-color-on-use: chalk probes the terminal (tty, os, environment) when loaded, for its default instance; svc only builds instances with an explicit level (src/lib/output/output.ts decides it from --no-color, NO_COLOR, FORCE_COLOR and the TTY), so the default instance is colourless',
      kind: 'stub',
      specifier: '#supports-color',
      importer: /[\\/]chalk[\\/]source[\\/]index\.js$/,
      path: 'chalk/source/index.js',
      guards: [
        "import supportsColor from '#supports-color';",
        'const {stdout: stdoutColor, stderr: stderrColor} = supportsColor;',
      ],
      contents: 'export default {stdout: false, stderr: false}',
    },
    {
      name: 'oclif-debug-on-use',
      savesMs: 0.8,
      why: "oclif's logger requires the debug package (which loads tty and probes the terminal's colours) when loaded; bin/run.js gives oclif a silent logger unless DEBUG is set, so debug is needed only then",
      kind: 'replace',
      path: '@oclif/core/lib/logger.js',
      guards: ['const debug_1 = __importDefault(require("debug"));', '(0, debug_1.default)(namespace)'],
      edits: [
        [
          'const debug_1 = __importDefault(require("debug"));',
          'const debug_1 = {get default() { return require("debug") }};',
        ],
      ],
    },
    {
      name: 'oclif-perf-hooks-on-use',
      savesMs: 1.0,
      why: "oclif's performance markers require node:perf_hooks when loaded; they run only when performance tracing is switched on",
      kind: 'replace',
      path: '@oclif/core/lib/performance.js',
      guards: ['const node_perf_hooks_1 = require("node:perf_hooks");'],
      edits: [
        [
          'const node_perf_hooks_1 = require("node:perf_hooks");',
          `const node_perf_hooks_1 = ${lazy('node:perf_hooks')};`,
        ],
      ],
    },
    {
      name: 'oclif-readline-on-use',
      savesMs: 1.4,
      why: "oclif's flag parser requires node:readline when loaded; it reads stdin with it only for a flag or argument given as `-`",
      kind: 'replace',
      path: '@oclif/core/lib/parser/parse.js',
      guards: ['const node_readline_1 = require("node:readline");'],
      edits: [
        ['const node_readline_1 = require("node:readline");', `const node_readline_1 = ${lazy('node:readline')};`],
      ],
    },
    {
      name: 'oclif-fs-promises-on-use',
      savesMs: 1.4,
      why: "oclif's file helpers require node:fs/promises when loaded; with the command index (bin/run.js) a command that runs reads no file through them",
      kind: 'replace',
      path: '@oclif/core/lib/util/fs.js',
      guards: ['const promises_1 = require("node:fs/promises");'],
      edits: [['const promises_1 = require("node:fs/promises");', `const promises_1 = ${lazy('node:fs/promises')};`]],
    },
    {
      name: 'oclif-ts-path-fs-promises-on-use',
      savesMs: 0,
      partOf: 'oclif-fs-promises-on-use',
      why: "second half of oclif-fs-promises-on-use: oclif's TypeScript path mapping (development only) also requires node:fs/promises when loaded",
      kind: 'replace',
      path: '@oclif/core/lib/config/ts-path.js',
      guards: ['const promises_1 = require("node:fs/promises");'],
      edits: [['const promises_1 = require("node:fs/promises");', `const promises_1 = ${lazy('node:fs/promises')};`]],
    },
    {
      name: 'oclif-sort-without-icu',
      savesMs: 0.4,
      why: "oclif sorts a plugin's commands with localeCompare, and the first localeCompare of a process builds an ICU collator (help, topics and mistyped commands sort them all); command ids are lowercase ASCII words joined by ':' and '-', which code-point order sorts the same way (test/unit/build/dependency-edits.test.ts checks svc's ids)",
      kind: 'replace',
      path: '@oclif/core/lib/config/plugin.js',
      guards: ['.sort((a, b) => a.id.localeCompare(b.id));'],
      edits: [
        ['.sort((a, b) => a.id.localeCompare(b.id));', '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));'],
      ],
    },
    {
      name: 'oclif-read-tsconfig-fs-promises-on-use',
      savesMs: 0,
      partOf: 'oclif-fs-promises-on-use',
      why: "third part of oclif-fs-promises-on-use: oclif's tsconfig reader (development only) requires node:fs/promises when loaded (it comes in with the help module every error path loads)",
      kind: 'replace',
      path: '@oclif/core/lib/util/read-tsconfig.js',
      guards: ['const promises_1 = require("node:fs/promises");'],
      edits: [['const promises_1 = require("node:fs/promises");', `const promises_1 = ${lazy('node:fs/promises')};`]],
    },
    {
      name: 'oclif-lilconfig-on-use',
      savesMs: 1.6,
      why: "oclif's package.json reader requires lilconfig when loaded; it uses it only for a plugin whose package.json oclif must find and read itself, which svc's root plugin never is",
      kind: 'replace',
      path: '@oclif/core/lib/util/read-pjson.js',
      guards: ['const lilconfig_1 = require("lilconfig");', '(0, lilconfig_1.lilconfig)('],
      edits: [['const lilconfig_1 = require("lilconfig");', `const lilconfig_1 = ${lazy('lilconfig')};`]],
    },
    {
      name: 'oclif-theme-file-if-present',
      savesMs: 2.2,
      why: "oclif reads the user's theme.json on every start through node:fs/promises (which it then has to load) even when there is none; a stat first keeps the same result and skips the load when the file is absent",
      kind: 'replace',
      path: '@oclif/core/lib/config/config.js',
      guards: ['(0, fs_1.safeReadJson)(userThemeFile),'],
      edits: [
        [
          '(0, fs_1.safeReadJson)(userThemeFile),',
          'require("node:fs").existsSync(userThemeFile) ? (0, fs_1.safeReadJson)(userThemeFile) : undefined,',
        ],
      ],
    },
  ]
}

/** esbuild's filter for a node_modules path, with either separator. */
export function pathFilter(path) {
  const escaped = path
    .split('/')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\\\/]')
  return new RegExp(`[\\\\/]node_modules[\\\\/]${escaped}$`)
}
