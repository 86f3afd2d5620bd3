import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'

// gh's short flags, the few most used (issue 32): -h is help everywhere (package.json
// oclif.additionalHelpFlags), -y is --yes, -L is --limit and -q is --query (JMESPath). A letter means one long flag on every
// command, and no flag takes -h from help.
const SHORT_FLAGS: Record<string, string> = {y: 'yes', L: 'limit', q: 'query'}

interface ManifestFlag {
  name: string
  char?: string
  charAliases?: string[]
}
const manifest = JSON.parse(readFileSync('oclif.manifest.json', 'utf8')) as {
  commands: Record<string, {flags: Record<string, ManifestFlag>}>
}
const pjson = JSON.parse(readFileSync('package.json', 'utf8'))

describe('short flags', () => {
  it('-h is a help flag of the CLI', () => {
    expect(pjson.oclif.additionalHelpFlags).toEqual(['-h'])
  })

  it('each letter is one long flag everywhere, from the list, never -h, never twice in a command', () => {
    const seen = new Set<string>()
    for (const [id, c] of Object.entries(manifest.commands)) {
      const letters: string[] = []
      for (const f of Object.values(c.flags)) {
        for (const letter of [f.char, ...(f.charAliases ?? [])].filter((l): l is string => Boolean(l))) {
          expect(SHORT_FLAGS[letter], `${id}: -${letter} (--${f.name}) is not in the list`).toBe(f.name)
          letters.push(letter)
          seen.add(letter)
        }
      }
      expect(new Set(letters).size, `${id}: a letter used twice`).toBe(letters.length)
    }
    expect([...seen].sort()).toEqual(Object.keys(SHORT_FLAGS).sort())
  })
})
