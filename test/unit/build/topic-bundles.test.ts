import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

// The build writes dist/svc.cjs with every command, dist/svc-<word>.cjs per first word of a command
// id holding that topic's commands only, and dist/svc-<word>.<word>.cjs for a subtopic whose code is
// a small part of its topic's; bin/run.js runs a command line from the deepest bundle that holds
// it. A command missing from its bundle would not run; one from elsewhere would cost every start.
const dist = resolve('dist')
const {loadBundle} = createRequire(import.meta.url)('../../../bin/load-bundle.js') as {
  loadBundle(file: string, opts: {cacheFile: string}): {COMMAND_INDEX: {commands: object}; COMMANDS: object} | undefined
}
const manifest = JSON.parse(readFileSync(resolve('oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
const ids = Object.keys(manifest.commands)
const words = [...new Set(ids.map((id) => id.split(':')[0]))]
// Loaded without a code cache, at a path under /dev/null: the cache the loader tries to write at exit can never be.
const exportsOf = (file: string) => loadBundle(join(dist, file), {cacheFile: join('/dev/null', `${file}.cache`)})!
const bundles = readdirSync(dist).filter((f) => /^svc-.*\.cjs$/.test(f))
const heldBy = (file: string) => {
  const bundle = exportsOf(file)
  return {map: Object.keys(bundle.COMMANDS).sort(), index: Object.keys(bundle.COMMAND_INDEX.commands).sort()}
}

describe('the topic and subtopic bundles', () => {
  it('one per first word of a command id; the others are subtopics of at least one command', () => {
    const topics = bundles.filter((f) => !f.slice(4, -4).includes('.'))
    expect(topics.sort()).toEqual(words.map((w) => `svc-${w}.cjs`).sort())
    for (const f of bundles.filter((b) => !topics.includes(b))) {
      const prefix = f.slice(4, -4).replaceAll('.', ':') + ':'
      expect(
        ids.some((id) => id.startsWith(prefix)),
        f,
      ).toBe(true)
    }
    // the wallet key store's commands need none of the wallet crypto the rest of `wallet` loads
    expect(bundles).toContain('svc-wallet.keys.cjs')
  })

  it("each holds exactly its topic's or subtopic's commands, in its index and its command map; the full bundle holds all", () => {
    for (const f of bundles) {
      const prefix = f.slice(4, -4).replaceAll('.', ':')
      const mine = ids.filter((id) => id === prefix || id.startsWith(prefix + ':')).sort()
      expect(heldBy(f), f).toEqual({map: mine, index: mine})
    }
    expect(heldBy('svc.cjs').map).toEqual([...ids].sort())
  })
})
