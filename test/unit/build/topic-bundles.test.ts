import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

// The build writes dist/svc.cjs with every command and dist/svc-<word>.cjs per first word of a
// command id, holding that topic's commands only; bin/run.js runs a command line from its topic's
// bundle. A command missing from its topic's bundle would not run; one from another topic would
// cost every start of this one.
const dist = resolve('dist')
const {loadBundle} = createRequire(import.meta.url)('../../../bin/load-bundle.js') as {
  loadBundle(file: string, opts: {cacheFile: string}): {COMMAND_INDEX: {commands: object}; COMMANDS: object} | undefined
}
const manifest = JSON.parse(readFileSync(resolve('oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
const ids = Object.keys(manifest.commands).filter((id) => !id.startsWith('autocomplete'))
const words = [...new Set(ids.map((id) => id.split(':')[0]))]
// Loaded without a code cache, at a path under /dev/null: the cache the loader tries to write at exit can never be.
const exportsOf = (file: string) => loadBundle(join(dist, file), {cacheFile: join('/dev/null', `${file}.cache`)})!

describe('the topic bundles', () => {
  it('one per first word of a command id, and no other', () => {
    const bundles = readdirSync(dist).filter((f) => /^svc-.*\.cjs$/.test(f))
    expect(bundles.sort()).toEqual(words.map((w) => `svc-${w}.cjs`).sort())
  })

  it("each holds exactly its topic's commands, in its index and its command map; the full bundle holds all", () => {
    for (const w of words) {
      const bundle = exportsOf(`svc-${w}.cjs`)
      const mine = ids.filter((id) => id.split(':')[0] === w).sort()
      expect(Object.keys(bundle.COMMANDS).sort(), w).toEqual(mine)
      expect(Object.keys(bundle.COMMAND_INDEX.commands).sort(), w).toEqual(mine)
    }
    expect(Object.keys(exportsOf('svc.cjs').COMMANDS).sort()).toEqual([...ids].sort())
  })
})
