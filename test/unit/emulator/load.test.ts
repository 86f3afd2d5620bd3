import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {bundled} from '../../../src/emulator/load.js'

// `svc sandbox serve` loads the sandbox from dist/emulator.cjs only while that build carries the id
// the tsc output holds (dist/lib/build-id.js): after a `tsc` alone (which writes the id empty) it
// must fall back to dist/emulator/, never run stale code; mtimes (rewritten by npm install) do not count.

const dist = mkdtempSync(join(tmpdir(), 'svc-load-'))
afterAll(() => rmSync(dist, {recursive: true, force: true}))

const bundle = join(dist, 'emulator.cjs')
const cacheEnv = {SVC_CACHE_DIR: join(dist, 'user-cache')}
const idFile = join(dist, 'lib', 'build-id.js')
mkdirSync(join(dist, 'lib'))
const writeId = (id: string) => writeFileSync(idFile, `export const BUILD_ID = '${id}';\n`)
const writeBundle = (id: string) =>
  writeFileSync(
    bundle,
    `/*svc-build:${id}*/(function (exports, require, module, __filename, __dirname) { exports.where = __filename; exports.path = require("node:path").sep\n});`,
  )

describe('loading the sandbox from its one-file build', () => {
  it('runs the build of the id the tsc output holds, whatever the mtimes', () => {
    writeId('b1')
    writeBundle('b1')
    // As npm leaves an install: the bundle older than the tsc output.
    utimesSync(bundle, 1_000, 1_000)
    utimesSync(idFile, 2_000, 2_000)
    expect(bundled(bundle, dist, cacheEnv)).toEqual({where: bundle, path: '/'})
  })

  it('falls back after a tsc alone (empty id), for a bundle of another build, or a missing one', () => {
    writeId('')
    expect(bundled(bundle, dist, cacheEnv)).toBeUndefined()
    writeId('b2')
    expect(bundled(bundle, dist, cacheEnv)).toBeUndefined()
    rmSync(bundle)
    expect(bundled(bundle, dist, cacheEnv)).toBeUndefined()
  })

  it('reads and writes its code cache in the user cache dir, never beside the bundle', () => {
    writeId('b3')
    writeBundle('b3')
    // The cache is written when the process ends: a child process loads the build.
    const loader = join(process.cwd(), 'bin', 'load-bundle.js')
    const script = `const l = require(${JSON.stringify(loader)}); const id = l.buildIdOf(${JSON.stringify(dist)});
      l.loadBundle(${JSON.stringify(bundle)}, {buildId: id, cacheFile: require('node:path').join(l.cacheDirFor(id), 'emulator.cache')})`
    execFileSync(process.execPath, ['-e', script], {env: {...process.env, ...cacheEnv}})
    const [keyed] = readdirSync(cacheEnv.SVC_CACHE_DIR)
    expect(keyed).toBe(`b3-node${process.versions.node}-${process.arch}`)
    expect(readdirSync(join(cacheEnv.SVC_CACHE_DIR, keyed))).toEqual(['emulator.cache'])
    expect(readdirSync(dist).sort()).toEqual(['emulator.cjs', 'lib', 'user-cache'])
    expect(readdirSync(join(dist, 'lib'))).toEqual(['build-id.js'])
  })
})
