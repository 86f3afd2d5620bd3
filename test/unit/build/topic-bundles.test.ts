import {readdirSync, readFileSync} from 'node:fs'
import {execFileSync} from 'node:child_process'
import {resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

// The build writes dist/svc.cjs with every command, dist/svc-<word>.cjs per first word of a command
// id holding that topic's commands only, and dist/svc-<word>.<word>.cjs for a subtopic whose code is
// a small part of its topic's; bin/run.js runs a command line from the deepest bundle that holds
// it. A command missing from its bundle would not run; one from elsewhere would cost every start.
const dist = resolve('dist')
const manifest = JSON.parse(readFileSync(resolve('oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
const ids = Object.keys(manifest.commands)
// `svc mcp` has no topic bundle: its tools run every command in its process, from the full bundle.
// (`svc flow run` is in svc-flow.cjs; bin/run.js picks the full bundle for a file with svc steps.)
const FULL_BUNDLE_ONLY = ['mcp']
const words = [...new Set(ids.map((id) => id.split(':')[0]))].filter((w) => w !== 'mcp')
const bundles = readdirSync(dist).filter((f) => /^svc-.*\.cjs$/.test(f))
// Every bundle loaded the way bin/run.js loads one, in a process of its own (each evaluates its own
// oclif, which listens on the process), without a code cache: a path under /dev/null can never be written.
const LOAD_ALL = `
const {loadBundle} = require(${JSON.stringify(resolve('bin/load-bundle.js'))})
const held = {}
for (const f of JSON.parse(process.argv[1])) {
  const b = loadBundle(require('node:path').join(${JSON.stringify(dist)}, f), {cacheFile: '/dev/null/' + f + '.cache'})
  held[f] = {map: Object.keys(b.COMMANDS).sort(), index: Object.keys(b.COMMAND_INDEX.commands).sort()}
}
process.stdout.write(JSON.stringify(held))
`
const held = JSON.parse(
  execFileSync(process.execPath, ['-e', LOAD_ALL, JSON.stringify([...bundles, 'svc.cjs'])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
) as Record<string, {map: string[]; index: string[]}>

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
      const mine = ids
        .filter((id) => (id === prefix || id.startsWith(prefix + ':')) && !FULL_BUNDLE_ONLY.includes(id))
        .sort()
      expect(held[f], f).toEqual({map: mine, index: mine})
    }
    expect(held['svc.cjs'].map).toEqual([...ids].sort())
  })

  it("carries none of zod's other languages (src imports `import * as z`, so esbuild leaves out what no command uses)", () => {
    // A message of zod's Dutch locale, ASCII, so the bundles' escaping cannot hide it.
    for (const f of [...bundles, 'svc.cjs'])
      expect(readFileSync(resolve(dist, f), 'latin1'), f).not.toContain('Ongeldige invoer')
  })
})
