// svc as users get it: `npm pack`, installed into an empty project from the tarball (offline: the
// dependencies from npm's cache through a lockfile made from the clone's), then run from another
// directory. npm stamps every extracted file with its extraction time, so this is where a freshness
// test by mtime sent every command to the slow unbundled tree (issue 32): the installed package
// must run from its bundles, write nothing inside itself, and start as fast as the clone.
import {execFileSync} from 'node:child_process'
import {readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const cloneBin = join(root, 'bin', 'run.js')
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const project = tempDir('svc-install-')
const pkgDir = join(project, 'node_modules', pjson.name)
const installedBin = join(pkgDir, 'bin', 'run.js')
// Records the CommonJS modules a run loaded: a bundle registers itself there (bin/load-bundle.js).
const probe = join(project, 'probe.cjs')
let tarball = ''
let sbx: TestSandbox

/** Every file of the installed package (its dependencies aside) with size and mtime. */
function snapshot(dir: string, out: Record<string, string> = {}): Record<string, string> {
  for (const e of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') snapshot(path, out)
    } else {
      const st = statSync(path)
      out[relative(pkgDir, path)] = `${st.size}:${st.mtimeMs}`
    }
  }
  return out
}

beforeAll(async () => {
  tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], {
    cwd: root,
    encoding: 'utf8',
  }).trim()
  // The clone's lockfile, its production entries only, with svc-cli from the tarball: npm ci then
  // resolves nothing and reads every dependency from its cache (no network).
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const spec = `file:${tarball}`
  const packages: Record<string, unknown> = {
    '': {dependencies: {[pjson.name]: spec}},
    [`node_modules/${pjson.name}`]: {
      version: pjson.version,
      resolved: spec,
      dependencies: pjson.dependencies,
      bin: pjson.bin,
    },
  }
  for (const [path, entry] of Object.entries(lock.packages as Record<string, {dev?: boolean; link?: boolean}>))
    if (path && !entry.dev && !entry.link) packages[path] = entry
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({name: 'p', private: true, dependencies: {[pjson.name]: spec}}),
  )
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify({name: 'p', lockfileVersion: 3, requires: true, packages}),
  )
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--silent'], {cwd: project, stdio: 'ignore'})
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify(Object.keys(require.cache))))\n",
  )
  sbx = await startSandbox()
}, 180_000)

describe('the installed package', () => {
  it('ships what the README and help refer to: flows, docs, a licence, where it lives', () => {
    const files = execFileSync('tar', ['-tzf', join(project, tarball)], {encoding: 'utf8'}).split('\n')
    for (const f of ['LICENSE', 'README.md', 'flows/onboarding-individual.yaml', 'docs/flows.md', 'dist/svc.cjs'])
      expect(files).toContain(`package/${f}`)
    expect(readFileSync(join(pkgDir, 'LICENSE'), 'utf8')).toContain('Apache License')
    const installed = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
    expect(installed).toMatchObject({license: 'Apache-2.0'})
    // No public repository address exists yet: none is made up (issue 32 stays open for it).
    for (const k of ['repository', 'homepage', 'bugs']) expect(installed[k]).toBeUndefined()
  })

  it('runs the quick start from another directory from its bundles, writing nothing inside itself', async () => {
    const before = snapshot(pkgDir)
    const elsewhere = tempDir('svc-elsewhere-')
    const run = (args: string[]) =>
      svc(args, {
        bin: installedBin,
        cwd: elsewhere,
        env: {...sbx.env, NODE_OPTIONS: `--require ${probe}`, PROBE_OUT: join(elsewhere, 'loaded.json')},
      })
    const created = await run([
      'customers',
      'create',
      '--type',
      'individual',
      '--full-name',
      'Ada Lovelace',
      '--email',
      'ada@example.com',
      '--currency',
      'USD',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    const id = created.json().id as string
    const listed = await run(['customers', 'list', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(JSON.stringify(listed.json())).toContain(id)
    const loaded = JSON.parse(readFileSync(join(elsewhere, 'loaded.json'), 'utf8')) as string[]
    expect(loaded).toContain(join(pkgDir, 'dist', 'svc-customers.cjs'))
    // A topic without a cache the build primed writes its own, in the user's cache dir.
    expect((await run(['profiles', 'list', '--json'])).code).toBe(0)
    const cacheRoot = join(sbx.env.HOME, '.cache', 'svc')
    const [keyed] = readdirSync(cacheRoot)
    expect(readdirSync(join(cacheRoot, keyed))).toContain('svc-profiles.cache')
    expect(snapshot(pkgDir)).toEqual(before)
  })

  it('starts `customers list` as fast as the clone (interleaved medians, <= 1.5x while the other worker runs)', async () => {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    const times: Record<string, number[]> = {installed: [], clone: []}
    const bins: Record<string, string> = {installed: installedBin, clone: cloneBin}
    // Each with a cache dir of its own, warmed by the first round (not counted).
    const caches = {installed: tempDir('svc-cache-'), clone: tempDir('svc-cache-')}
    // Eleven counted rounds of each, interleaved: with six, a busy machine moved the median past the bound.
    for (let round = 0; round < 12; round++)
      for (const which of ['installed', 'clone'] as const) {
        const start = performance.now()
        const r = await svc(['customers', 'list', '--limit', '10', '--json'], {
          bin: bins[which],
          cwd: project,
          env: {...sbx.env, SVC_CACHE_DIR: caches[which]},
        })
        expect(r.code, r.stderr).toBe(0)
        if (round > 0) times[which].push(performance.now() - start)
      }
    const ratio = median(times.installed) / median(times.clone)
    console.log(
      `customers list: installed ${median(times.installed).toFixed(1)} ms, clone ${median(times.clone).toFixed(1)} ms, ${ratio.toFixed(2)}x`,
    )
    // The bug was 2.64x (the unbundled tree). The suite's other worker shares the 2 cores, so the bound
    // leaves room for its noise; the quiet-machine figure (0.88-1.12x) is in docs/performance.md.
    expect(ratio).toBeLessThanOrEqual(1.5)
  }, 120_000)
})
