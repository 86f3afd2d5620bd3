import {mkdtempSync, rmSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {bundled} from '../../../src/emulator/load.js'

// `svc sandbox serve` loads the sandbox from dist/emulator.cjs only while that build is at least as
// new as the tsc output: after a `tsc` alone it must fall back to dist/emulator/, never run stale code.

const dir = mkdtempSync(join(tmpdir(), 'svc-load-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const bundle = join(dir, 'emulator.cjs')
const tscOutput = join(dir, 'emulator.js')
const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds)

describe('loading the sandbox from its one-file build', () => {
  it('runs the build (inside its module wrapper) when it is current', () => {
    writeFileSync(
      bundle,
      '(function (exports, require, module, __filename, __dirname) { exports.where = __filename; exports.path = require("node:path").sep\n});',
    )
    writeFileSync(tscOutput, 'export {}')
    at(tscOutput, 1_000)
    at(bundle, 1_000)
    expect(bundled(bundle, tscOutput)).toEqual({where: bundle, path: '/'})
  })

  it('falls back when the tsc output is newer, or the build is missing', () => {
    at(bundle, 1_000)
    at(tscOutput, 1_010)
    expect(bundled(bundle, tscOutput)).toBeUndefined()
    rmSync(bundle)
    expect(bundled(bundle, tscOutput)).toBeUndefined()
  })
})
