// The tools as derived from the built manifest (oclif.manifest.json: run `npm run build` first).
import {existsSync, readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {checkArguments, toArgv} from '../../../src/lib/mcp/arguments.js'
import {OMITTED, deriveTools, matchesAny, type ManifestCommand} from '../../../src/lib/mcp/catalogue.js'

const root = new URL('../../../', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('oclif.manifest.json', root), 'utf8')) as {
  commands: Record<string, ManifestCommand>
}
const tools = deriveTools(manifest.commands)
const tool = (name: string) => tools.find((t) => t.name === name)!

describe('tools from the manifest', () => {
  it('every command is a tool or omitted with a reason, and every omission names a command', () => {
    const ids = Object.keys(manifest.commands).filter((id) => !manifest.commands[id].hidden)
    const named = new Set(tools.map((t) => t.command.id))
    expect(ids.filter((id) => !named.has(id) && !OMITTED[id])).toEqual([])
    expect(Object.keys(OMITTED).filter((id) => !manifest.commands[id] && id !== 'autocomplete')).toEqual([])
  })

  it('writes are the commands with --dry-run; every other tool only reads', () => {
    for (const t of tools) expect(t.kind, t.name).toBe('dry-run' in t.command.flags ? 'write' : 'read')
    expect(tool('quote_execute').kind).toBe('write')
    expect(tool('customers_list').kind).toBe('read')
  })

  it('no tool takes a secret, a credential, the profile, --yes, --dry-run or its own key', () => {
    const banned = /stdin|^secret|show-secret|^profile$|^base-url$|^yes$|^dry-run$|^idempotency-key$|^json$/
    for (const t of tools)
      expect(
        Object.keys(t.inputSchema.properties).filter((p) => banned.test(p)),
        t.name,
      ).toEqual([])
  })

  it('quote_create cannot execute: its dry run could not show the payment', () => {
    expect(Object.keys(tool('quote_create').inputSchema.properties)).not.toContain('execute')
  })

  it('arguments become the command line, checked first', () => {
    const fund = tool('sandbox_fund')
    expect(toArgv(fund, {accountId: 'InternalAccount:a', 'amount-minor': 5})).toEqual([
      'sandbox',
      'fund',
      'InternalAccount:a',
      '--amount-minor=5',
    ])
    expect(() => checkArguments(fund, {accountId: '--all', 'amount-minor': '-5'})).toThrow(/accountId/)
    expect(toArgv(tool('customers_list'), {'include-deleted': true, limit: '2'})).toEqual([
      'customers',
      'list',
      '--include-deleted',
      '--limit=2',
    ])
  })

  it('--tools patterns', () => {
    expect(matchesAny('customers_list', ['customers_*'])).toBe(true)
    expect(matchesAny('customers_list', ['quote_*', 'customers_l?st'])).toBe(true)
    expect(matchesAny('customers_list', ['customers'])).toBe(false)
    expect(matchesAny('a.b', ['a?b'])).toBe(true)
    expect(matchesAny('axb', ['a.b'])).toBe(false)
  })
})

describe('bundles', () => {
  it('the MCP SDK is in its own build only, not in any command bundle', () => {
    const dist = new URL('dist/', root)
    if (!existsSync(new URL('mcp-sdk.cjs', dist))) throw new Error('run `npm run build` first')
    expect(readFileSync(new URL('mcp-sdk.cjs', dist), 'latin1')).toContain('notifications/cancelled')
    expect(readFileSync(new URL('svc.cjs', dist), 'latin1')).not.toContain('notifications/cancelled')
  })

  it('`svc mcp` runs from the full bundle (its tools run every command in its process), and answers initialize from its own small one', () => {
    const dist = new URL('dist/', root)
    expect(existsSync(new URL('svc-mcp.cjs', dist))).toBe(false)
    const front = readFileSync(new URL('mcp-front.cjs', dist), 'latin1')
    expect(front.length).toBeLessThan(8_000)
    expect(front).not.toContain('notifications/cancelled')
  })
})
