// bin/run.js runs a command line from its topic's bundle (dist/svc-<word>.cjs) or from the full one
// (dist/svc.cjs: help of a command or topic; SVC_ONE_BUNDLE=1 always), and hands oclif a
// one-command index when the command line names a command and asks for no help, a root-help index
// for the root help, and the full manifest otherwise (command help, topics, mistyped commands).
// Whatever path a command line takes, the user must see exactly what plain oclif on the unbundled
// build shows (SVC_NO_BUNDLE=1): same stdout, stderr and exit code.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'

const home = mkdtempSync(join(tmpdir(), 'svc-paths-'))
afterAll(() => rmSync(home, {recursive: true, force: true}))

// Nothing listens on port 9: a command that runs ends with the same connection error on both paths.
const env = {
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_BASE_URL: 'http://127.0.0.1:9/2025-10-13',
  SVC_TOKEN_ID: 't',
  SVC_CLIENT_SECRET: 's',
  CI: '1',
  SVC_NO_INPUT: '1',
  NO_COLOR: '1',
}

const lines: Array<[string, string[]]> = [
  ['a command that runs (one-command index)', ['customers', 'get', 'Customer:abc', '--json']],
  ['a nested command that runs', ['accounts', 'internal', 'list', '--customer', 'Customer:abc']],
  ['a command from a subtopic bundle', ['wallet', 'keys', 'list', '--json']],
  ['a command missing its argument', ['customers', 'get']],
  ['a bad argument', ['customers', 'get', 'Quote:abc']],
  ['an unknown flag', ['customers', 'list', '--nope']],
  ['a topic', ['customers']],
  ['a nested topic', ['wallet', 'credentials']],
  ['command help', ['customers', 'get', '--help']],
  ['help for a topic', ['help', 'kyc']],
  ['a mistyped command', ['customers', 'gett', 'x']],
  // The root help is drawn from the bundle's root-help index, not the manifest.
  ['the root help (no arguments)', []],
  ['the root help (help)', ['help']],
  ['the root help (--help)', ['--help']],
  ['the root help (-h)', ['-h']],
  ['the root help with a flag (manifest)', ['help', '--json']],
]

describe('the bundle start-up paths show what plain oclif shows', () => {
  it.each(lines)('%s', async (_what, argv) => {
    const [topic, full, plain] = await Promise.all([
      svc(argv, {env}),
      svc(argv, {env: {...env, SVC_ONE_BUNDLE: '1'}}),
      svc(argv, {env: {...env, SVC_NO_BUNDLE: '1'}}),
    ])
    const seen = (r: typeof plain) => ({code: r.code, stdout: r.stdout, stderr: r.stderr})
    expect(seen(topic)).toEqual(seen(plain))
    expect(seen(full)).toEqual(seen(plain))
    expect(topic.stdout + topic.stderr).not.toBe('')
  })
})
