// `npm test` after the build: the checks (eslint, prettier, one type-check) run beside vitest instead
// of before it. vitest keeps two cores only ~70% busy (its files wait on sockets, child processes and
// timers), and the checks are one process at a time, so they fit in that slack: the run takes about as
// long as vitest alone. Their output is held and printed after vitest's, and the run fails if either does.
import {spawn} from 'node:child_process'

const CHECKS = [
  ['eslint', ['.']],
  ['prettier', ['--check', '.']],
  ['tsc', ['--noEmit', '-p', 'tsconfig.test.json']],
]
const bin = (name) => `node_modules/.bin/${name}`

function run(cmd, args, capture) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit'})
    let out = ''
    if (capture) for (const s of [child.stdout, child.stderr]) s.on('data', (c) => (out += c))
    child.on('close', (code, signal) => resolve({code: code ?? 128, signal, out}))
  })
}

async function checks() {
  const failed = []
  const started = Date.now()
  for (const [name, args] of CHECKS) {
    const r = await run(bin(name), args, true)
    if (r.code !== 0) failed.push({name, out: r.out})
  }
  return {failed, seconds: ((Date.now() - started) / 1000).toFixed(1)}
}

const vitestArgs = ['run', ...process.argv.slice(2)]
const [lint, tests] = await Promise.all([checks(), run(bin('vitest'), vitestArgs, false)])
for (const f of lint.failed) process.stderr.write(`\n${f.name} failed:\n${f.out}\n`)
process.stdout.write(
  `checks (${CHECKS.map(([n]) => n).join(', ')}, beside vitest): ${lint.failed.length ? `FAILED: ${lint.failed.map((f) => f.name).join(', ')}` : 'passed'} in ${lint.seconds} s\n`,
)
process.exit(lint.failed.length ? 1 : tests.code)
