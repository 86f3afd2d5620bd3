// The start-up edits of dependencies (build/dependency-edits.mjs) still match the installed
// dependencies, and the last build applied every one of them. A dependency update that changes
// the edited text fails here instead of quietly losing the milliseconds.
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../../../', import.meta.url))

interface Edit {
  name: string
  savesMs: number
  why: string
  kind: 'replace' | 'module' | 'stub'
  path: string
  guards: string[]
  edits?: Array<[string, string]>
  partOf?: string
}
const {dependencyEdits, pathFilter} = (await import(
  pathToFileURL(join(root, 'build', 'dependency-edits.mjs')).href
)) as {
  dependencyEdits: (http2Constants: string) => Edit[]
  pathFilter: (path: string) => RegExp
}
const edits = dependencyEdits('{}')

describe('build-time dependency edits', () => {
  it.each(edits.map((e) => [e.name, e] as const))('%s: every guard still matches the installed file', (_name, edit) => {
    const file = join(root, 'node_modules', edit.path)
    expect(existsSync(file), `${edit.path} is gone`).toBe(true)
    const text = readFileSync(file, 'utf8')
    for (const guard of edit.guards)
      expect(text.includes(guard), `${edit.path} no longer contains: ${guard}`).toBe(true)
    for (const [from] of edit.edits ?? [])
      expect(text.includes(from), `${edit.path} no longer contains: ${from}`).toBe(true)
    expect(pathFilter(edit.path).test(file)).toBe(true)
  })

  it('each edit says why and what it saves; a part names the edit it belongs to', () => {
    for (const e of edits) {
      expect(e.why.length, e.name).toBeGreaterThan(20)
      expect(e.savesMs >= 0, e.name).toBe(true)
      if (e.partOf) expect(edits.some((x) => x.name === e.partOf && !x.partOf)).toBe(true)
    }
    expect(new Set(edits.map((e) => e.name)).size).toBe(edits.length)
  })

  it("oclif-sort-without-icu: code-point order of svc's command ids is the order localeCompare gives", () => {
    const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, unknown>
    }
    const ids = Object.keys(manifest.commands)
    expect(ids.length).toBeGreaterThan(100)
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual([...ids].sort((a, b) => a.localeCompare(b)))
  })

  it("string-width-ascii: the edited measure gives what the full one gives, on all of svc's help text", async () => {
    const edit = edits.find((e) => e.name === 'string-width-ascii')!
    const file = join(root, 'node_modules', edit.path)
    let text = readFileSync(file, 'utf8')
    for (const [from, to] of edit.edits ?? []) text = text.replace(from, to)
    const {createRequire} = await import('node:module')
    const requireNear = createRequire(file)
    const mod = {exports: {} as unknown}
    new Function('module', 'exports', 'require', text)(mod, mod.exports, requireNear)
    const edited = mod.exports as (s: string) => number
    const full = requireNear('./index.js') as (s: string) => number
    const manifest = readFileSync(join(root, 'oclif.manifest.json'), 'utf8')
    const samples = [
      ...manifest.split(/\\n|"/),
      ...manifest.split(/\s+/),
      'caf\u00e9',
      '\u001b[1mbold\u001b[22m',
      '\u{1F600} smile',
      '\u6f22\u5b57',
      '1\ufe0f\u20e3',
      'tab\there',
      '',
    ]
    expect(samples.length).toBeGreaterThan(10_000)
    for (const s of samples) expect(edited(s), JSON.stringify(s)).toBe(full(s))
    expect(edited('\u{1F600}')).toBe(2)
    expect(edited('abc')).toBe(3)
  })

  it('the last build applied every edit (dist/dependency-edits.json)', () => {
    const report = JSON.parse(readFileSync(join(root, 'dist', 'dependency-edits.json'), 'utf8')) as {
      skipped: string[]
      edits: Record<string, string>
    }
    expect(report.skipped).toEqual([])
    expect(report.edits).toEqual(Object.fromEntries(edits.map((e) => [e.name, 'applied'])))
  })
})
