// What each build-time dependency edit (build/dependency-edits.mjs) saves at start-up.
//
//   npm run build && node test/bench/edits.mjs [--runs 31]
//
// Builds the bundle with every edit, without each edit (SVC_SKIP_EDITS) and without any, copies
// each into a root of its own (bin/run.js, bin/package.json, package.json and the manifest copied, the rest linked),
// and times `svc customers get <id> --json` against one local sandbox, round-robin across all
// variants so that load from other work on the machine hits each alike. Prints medians and the
// difference to the full build. Leaves the full build in dist/.
import {spawn, spawnSync} from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {dependencyEdits} from '../../build/dependency-edits.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const bin = join(root, 'bin', 'run.js')
const i = process.argv.indexOf('--runs')
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 31
const work = mkdtempSync(join(tmpdir(), 'svc-edits-'))

const server = spawn(
  process.execPath,
  [bin, 'sandbox', 'serve', '--port', '0', '--json', '--data-dir', join(work, 'sbx')],
  {stdio: ['ignore', 'pipe', 'ignore'], env: {...process.env, HOME: work}},
)
const ready = await new Promise((resolve) => {
  let buf = ''
  server.stdout.on('data', (c) => {
    buf += c
    if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]))
  })
})
const env = {
  PATH: process.env.PATH,
  HOME: work,
  SVC_CONFIG_DIR: join(work, 'c'),
  SVC_BASE_URL: ready.url,
  SVC_TOKEN_ID: ready.tokenId,
  SVC_CLIENT_SECRET: ready.clientSecret,
  SVC_NO_INPUT: '1',
}
const created = spawnSync(
  process.execPath,
  [bin, 'customers', 'create', '--type', 'individual', '--full-name', 'Bench', '--json'],
  {env, encoding: 'utf8'},
)
const id = JSON.parse(created.stdout).id

function build(skip) {
  const r = spawnSync(process.execPath, [join(root, 'esbuild.config.mjs')], {
    cwd: root,
    env: {...process.env, SVC_SKIP_EDITS: skip.join(',')},
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(r.stderr)
}

/** A root of its own for one bundle variant; returns its bin/run.js. */
function variantRoot(name, skip) {
  build(skip)
  const dir = join(work, name)
  mkdirSync(join(dir, 'bin'), {recursive: true})
  mkdirSync(join(dir, 'dist'))
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'))
  copyFileSync(join(root, 'oclif.manifest.json'), join(dir, 'oclif.manifest.json'))
  copyFileSync(bin, join(dir, 'bin', 'run.js'))
  copyFileSync(join(root, 'bin', 'package.json'), join(dir, 'bin', 'package.json')) // run.js is CommonJS
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  for (const f of readdirSync(join(root, 'dist')))
    if (!f.startsWith('svc.cjs')) symlinkSync(join(root, 'dist', f), join(dir, 'dist', f))
  copyFileSync(join(root, 'dist', 'svc.cjs'), join(dir, 'dist', 'svc.cjs')) // newer than the manifest copy
  return join(dir, 'bin', 'run.js')
}

// CPU time (user + system) of the child, written at exit: far less sensitive than wall time to
// other work on a shared machine.
const hook = join(work, 'cpu-hook.cjs')
writeFileSync(
  hook,
  "process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeFileSync(process.env.SVC_BENCH_CPU, String((u.user + u.system) / 1000)) })",
)
const cpuFile = join(work, 'cpu.txt')
function time(runJs) {
  const t = process.hrtime.bigint()
  const r = spawnSync(process.execPath, ['--require', hook, runJs, 'customers', 'get', id, '--json'], {
    env: {...env, SVC_BENCH_CPU: cpuFile},
    stdio: 'ignore',
  })
  if (r.status !== 0) throw new Error(`customers get failed (${runJs})`)
  return {wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: Number(readFileSync(cpuFile, 'utf8'))}
}

const all = dependencyEdits('{}')
const variants = [
  {name: 'all', skip: []},
  ...all
    .filter((e) => !e.partOf)
    .map((e) => ({
      name: e.name,
      skip: [e.name, ...all.filter((p) => p.partOf === e.name).map((p) => p.name)],
      listed: e.savesMs,
    })),
  {name: 'none', skip: all.map((e) => e.name)},
]
try {
  for (const v of variants) v.run = variantRoot(v.name, v.skip)
  for (const v of variants) for (let k = 0; k < 3; k++) time(v.run) // code caches written
  const times = new Map(variants.map((v) => [v, []]))
  for (let r = 0; r < RUNS; r++) for (const v of variants) times.get(v).push(time(v.run))
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const m = (v, key) => median(times.get(v).map((t) => t[key]))
  const [wall0, cpu0] = [m(variants[0], 'wall'), m(variants[0], 'cpu')]
  console.log(
    `svc customers get --json, medians of ${RUNS} interleaved runs; every edit: wall ${wall0.toFixed(1)} ms, cpu ${cpu0.toFixed(1)} ms`,
  )
  for (const v of variants.slice(1)) {
    const [wall, cpu] = [m(v, 'wall'), m(v, 'cpu')]
    console.log(
      `without ${v.name.padEnd(30)} wall ${wall.toFixed(1)} ms (${(wall - wall0).toFixed(1)})  cpu ${cpu.toFixed(1)} ms (saves ${(cpu - cpu0).toFixed(1)})${v.listed !== undefined ? `  listed ${v.listed}` : ''}`,
    )
  }
} finally {
  build([])
  server.kill()
  rmSync(work, {recursive: true, force: true})
}
