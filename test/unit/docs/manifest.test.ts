// Walks oclif.manifest.json (written by `npm run build`) the way help and docs/commands.md read it:
// every flag and topic has a description, every command has an example, and every example names a
// command and flags that exist.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'

interface ManifestFlag {
  name: string
  description?: string
  summary?: string
  hidden?: boolean
  char?: string
  aliases?: string[]
  type: string
  allowNo?: boolean
}
interface ManifestCommand {
  id: string
  hidden?: boolean
  examples?: Array<string | {command: string}>
  flags: Record<string, ManifestFlag>
  aliases?: string[]
}

const root = new URL('../../../', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('oclif.manifest.json', root), 'utf8')) as {
  commands: Record<string, ManifestCommand>
}
const pjson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const commands = Object.values(manifest.commands)
const visible = commands.filter((c) => !c.hidden)
const ids = new Set(commands.flatMap((c) => [c.id, ...(c.aliases ?? [])]))

/** `$ <%= config.bin %> customers list --limit 5 | jq` -> the words of the svc invocation(s). */
function exampleInvocations(example: string | {command: string}): string[][] {
  const text = typeof example === 'string' ? example : example.command
  const out: string[][] = []
  for (const line of text.split('\n')) {
    for (const m of line.matchAll(/(?:<%= config\.bin %>|(?:^|[\s(|;&$])svc)\s+([^|;&)]*)/g)) {
      const words = m[1].match(/"[^"]*"|'[^']*'|\S+/g) ?? []
      out.push(words)
    }
  }
  return out
}

/** The longest run of leading words that is a command id. */
function resolve(words: string[]): {id?: string; rest: string[]} {
  for (let n = Math.min(words.length, 4); n >= 1; n--) {
    const id = words.slice(0, n).join(':')
    if (ids.has(id)) return {id, rest: words.slice(n)}
  }
  return {rest: words}
}

describe('oclif manifest', () => {
  it('has a description for every visible flag', () => {
    const missing = visible.flatMap((c) =>
      Object.values(c.flags)
        .filter((f) => !f.hidden && !(f.summary || f.description))
        .map((f) => `${c.id} --${f.name}`),
    )
    expect(missing).toEqual([])
  })

  it('has its own description for every topic (not one borrowed from a command)', () => {
    const topics = new Set(
      commands.flatMap((c) =>
        c.id
          .split(':')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join(':')),
      ),
    )
    const described = pjson.oclif.topics as Record<string, {description?: string}>
    const missing = [...topics].filter((t) => !described[t]?.description)
    expect(missing).toEqual([])
  })

  it('has at least one example for every visible command', () => {
    expect(visible.filter((c) => !(c.examples ?? []).length).map((c) => c.id)).toEqual([])
  })

  it('has examples that name existing commands and flags', () => {
    const bad: string[] = []
    for (const c of visible) {
      for (const example of c.examples ?? []) {
        for (const words of exampleInvocations(example)) {
          const {id, rest} = resolve(words)
          if (!id) {
            bad.push(`${c.id}: "${words.join(' ')}" names no command`)
            continue
          }
          const target = manifest.commands[id] ?? commands.find((x) => x.aliases?.includes(id))!
          const names = new Set(
            Object.values(target.flags).flatMap((f) => [
              f.name,
              ...(f.aliases ?? []),
              ...(f.allowNo ? [`no-${f.name}`] : []),
            ]),
          )
          for (const w of rest) {
            const flag = /^--([\w-]+)/.exec(w)?.[1]
            if (flag && !names.has(flag))
              bad.push(`${c.id}: example uses --${flag}, which ${id.replaceAll(':', ' ')} does not have`)
          }
        }
      }
    }
    expect(bad).toEqual([])
  })

  it('parses examples the way the walk above relies on', () => {
    expect(exampleInvocations('<%= config.bin %> customers list --limit 5 | jq .')).toEqual([
      ['customers', 'list', '--limit', '5'],
    ])
    expect(exampleInvocations('echo 000000 | svc wallet login X --otp-stdin')).toEqual([
      ['wallet', 'login', 'X', '--otp-stdin'],
    ])
  })
})
