// The sandbox's layering (issue 18), measured by the shared import-graph tool: routes -> domain ->
// store with nothing running back up, no import circle inside src/emulator beyond 3 files, and
// src/lib never reaching the sandbox (directly or through another folder).
import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const tool = join(root, '..', 'shared', 'tools', 'import-graph.mjs')

interface Graph {
  emulatorFiles: number
  libToEmulator: string[]
  upward: string[]
  largestCycle: number
  cycleMembers: string[]
}

function graph(): Graph {
  const run = spawnSync(process.execPath, [tool], {cwd: root, encoding: 'utf8'})
  expect(run.stderr).toBe('')
  expect(run.status).toBe(0)
  return JSON.parse(run.stdout) as Graph
}

const walk = (dir: string): string[] =>
  readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )

describe.skipIf(!existsSync(tool))('sandbox layers (../shared/tools/import-graph.mjs)', () => {
  it('has no upward import, no import circle over 3 files, and src/lib never imports src/emulator', () => {
    const g = graph()
    expect(g.emulatorFiles).toBeGreaterThan(90) // the tool saw the sandbox, not an empty folder
    expect(g.upward).toEqual([])
    expect(g.libToEmulator).toEqual([])
    expect(g.largestCycle, `circle: ${g.cycleMembers.join(', ')}`).toBeLessThanOrEqual(3)
  })
})

describe('the composition root', () => {
  const emulator = join(root, 'src', 'emulator')

  it('no route, domain or store file imports emulator.ts: they take a SandboxContext', () => {
    const offenders = ['routes', 'domain', 'store']
      .flatMap((d) => walk(join(emulator, d)))
      .filter((f) => /from '(\.\.\/)+emulator\.js'/.test(readFileSync(f, 'utf8')))
    expect(offenders).toEqual([])
  })

  it('keeps no module-level hook array that other files push into', () => {
    // `export const x: Array<(...) => ...> = []` or `= [] as Array<...>` filled at import time is how reactions used to hide.
    const hooks = walk(emulator).filter((f) =>
      /^export const \w+(: Array<\(|\s*=\s*\{?\s*\w*:?\s*\[\] as Array<\()/m.test(readFileSync(f, 'utf8')),
    )
    expect(hooks).toEqual([])
  })
})
