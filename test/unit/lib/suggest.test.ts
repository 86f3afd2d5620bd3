import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {suggestAnywhere} from '../../../src/lib/suggest.js'

// The ids bin/run.js offers when a command is not found: every visible command and alias of the manifest.
const manifest = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../oclif.manifest.json', import.meta.url)), 'utf8'),
) as {commands: Record<string, {id: string; hidden?: boolean; aliases?: string[]}>}
const ids = Object.values(manifest.commands)
  .filter((c) => !c.hidden)
  .flatMap((c) => [c.id, ...(c.aliases ?? [])])

// What "Did you mean" names for a mistyped command line (test/integration/suggest-complete.test.ts runs
// a few through the binary for the words around it: exit 2, the JSON document, the id kept whole).
describe('did you mean: the command offered for a mistyped line', () => {
  it.each([
    [['custmers', 'list'], 'customers:list'],
    [['customers', 'lsit', '--json'], 'customers:list'],
    [['snapshot'], 'sandbox:snapshot'],
    [['capture', 'Customer:x'], 'flow:capture'],
  ])('%j -> %s', (argv, id) => {
    expect(suggestAnywhere(argv, ids)?.id).toBe(id)
  })

  it('nothing for a word in every topic (`list`) or close to no command (`frobnicate`)', () => {
    expect(suggestAnywhere(['list'], ids)).toBeUndefined()
    expect(suggestAnywhere(['frobnicate'], ids)).toBeUndefined()
  })
})
