// The docs stay true: the command reference is what `oclif readme` generates now, the README's
// exit-code table is the one `svc help exit-codes` prints, links resolve, and the sandbox codes in
// examples are the sandbox's real ones.
import {spawnSync} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {EXIT_CODE_TABLE} from '../../src/lib/exit-codes.js'
import {SANDBOX_OTP} from '../../src/emulator/domain/wallet/login.js'
import {SANDBOX_CONTACT_CODE} from '../../src/emulator/domain/kyc-contact.js'
import {svc} from '../helpers/cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (rel: string) => readFileSync(join(root, rel), 'utf8')
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
const manifest = JSON.parse(read('oclif.manifest.json')) as {commands: Record<string, {examples?: string[]}>}

describe('docs/commands.md', () => {
  it('is what `npm run readme` generates from the current manifest (run it and commit the result)', () => {
    const oclif = join(root, 'node_modules', 'oclif', 'bin', 'run.js')
    const r = spawnSync(
      process.execPath,
      [oclif, 'readme', '--readme-path', 'docs/commands.md', '--no-aliases', '--no-source-links', '--dry-run'],
      {
        cwd: root,
        encoding: 'utf8',
        env: {PATH: process.env.PATH, HOME: process.env.HOME, OCLIF_SKIP_NEW_VERSION_CHECK: 'true', SVC_NO_INPUT: '1'},
        timeout: 120_000,
      },
    )
    expect(r.status, r.stderr).toBe(0)
    const generated = r.stdout.replace(/^replacing <!-- commands --> in .*\n/m, '')
    expect(generated.trim().length).toBeGreaterThan(10_000)
    expect(
      read('docs/commands.md').trimEnd() === generated.trimEnd(),
      'docs/commands.md is stale: run `npm run build && npm run readme`',
    ).toBe(true)
  }, 120_000)
})

describe('README', () => {
  const readme = read('README.md')

  it('stays a newcomer page: under 15 KB, with install, quick start, test, exit codes, environment, links', () => {
    expect(statSync(join(root, 'README.md')).size).toBeLessThan(15 * 1024)
    for (const h of [
      '## Install',
      '## Quick start',
      '## Test',
      '## Exit codes',
      '## Environment variables',
      '## Guides',
    ])
      expect(readme).toContain(h)
    const test = readme.slice(readme.indexOf('## Test'), readme.indexOf('## Exit codes'))
    expect(test).toContain('npm ci && npm test') // exactly what CI runs
  })

  it('has the exit-code table `svc help exit-codes` prints, word for word', async () => {
    const section = readme.slice(readme.indexOf('## Exit codes'), readme.indexOf('## Environment variables'))
    const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]])
    expect(rows).toEqual(EXIT_CODE_TABLE.map(([c, m]) => [c, m]))
    const help = await svc(['help', 'exit-codes', '--json'], {env: {SVC_NO_INPUT: '1', HOME: root}})
    expect(help.code).toBe(0)
    expect(help.json()).toEqual(Object.fromEntries(EXIT_CODE_TABLE.map(([c, m]) => [String(c), m])))
  })

  it('links only to files that exist', () => {
    const broken: string[] = []
    for (const file of ['README.md', ...docs]) {
      for (const m of read(file).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]
        if (/^[a-z]+:/.test(target)) continue
        if (!existsSync(join(root, dirname(file), target))) broken.push(`${file} -> ${target}`)
      }
    }
    expect(broken).toEqual([])
  })
})

describe('sandbox codes in examples', () => {
  const texts = [
    ...['README.md', ...docs].map((f) => ({where: f, text: read(f)})),
    ...Object.entries(manifest.commands).map(([id, c]) => ({
      where: `${id} examples`,
      text: (c.examples ?? []).join('\n'),
    })),
  ]

  it(`pipe the wallet OTP ${SANDBOX_OTP} into wallet login, and confirm contacts with ${SANDBOX_CONTACT_CODE}`, () => {
    const wrong: string[] = []
    for (const {where, text} of texts) {
      for (const line of text.split('\n')) {
        const otp = /echo (\d{6}) \|.*wallet login/.exec(line)?.[1]
        if (otp && otp !== SANDBOX_OTP) wrong.push(`${where}: ${line.trim()}`)
        const contact = /kyc confirm-(?:email|phone) .*--code (\d{6})/.exec(line)?.[1]
        if (contact && contact !== SANDBOX_CONTACT_CODE) wrong.push(`${where}: ${line.trim()}`)
      }
    }
    expect(wrong).toEqual([])
    expect(texts.some(({text}) => /echo \d{6} \|.*wallet login/.test(text))).toBe(true)
  })
})
