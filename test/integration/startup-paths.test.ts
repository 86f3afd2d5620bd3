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
import {svc, type CliResult} from '../helpers/cli.js'
import {asksForHelp, commandOf, svcInProcess} from '../helpers/run-command.js'

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

/**
 * Each line through the bundle it would take (its topic's, or the full one for help), compared with
 * what plain oclif shows. `full` marks the lines also run through the full bundle alone
 * (SVC_ONE_BUNDLE=1, the fallback when a topic's cache cannot be written): one of each kind the full
 * bundle resolves differently (a command from its index, a refusal, a topic, a mistyped command, the
 * root help); help of a command or topic already runs from the full bundle, and the other lines of a
 * kind go through the same index look-up in either bundle. `plain` marks the lines also run through
 * the unbundled build (SVC_NO_BUNDLE=1, the path taken when the bundle is missing or of another
 * build): one of each kind, and every line the in-process runner cannot run itself. For the other
 * lines the in-process runner (run-command.ts: oclif on the source, the integration tests' runner) is
 * plain oclif; on the `plain` lines it runs, the test shows it prints exactly what the unbundled build does.
 */
type Paths = {full?: true; plain?: true}
const lines: Array<[string, string[], Paths?]> = [
  [
    'a command that runs (one-command index)',
    ['customers', 'get', 'Customer:abc', '--json'],
    {full: true, plain: true},
  ],
  ['a nested command that runs', ['accounts', 'internal', 'list', '--customer', 'Customer:abc']],
  ['a command from a subtopic bundle', ['wallet', 'keys', 'list', '--json']],
  ['a command missing its argument', ['customers', 'get'], {full: true, plain: true}],
  ['a bad argument', ['customers', 'get', 'Quote:abc']],
  ['an unknown flag', ['customers', 'list', '--nope'], {plain: true}],
  ['a topic', ['customers'], {full: true, plain: true}],
  ['a nested topic', ['wallet', 'credentials'], {plain: true}],
  ['command help', ['customers', 'get', '--help'], {plain: true}],
  ['help for a topic', ['help', 'kyc']],
  ['a mistyped command', ['customers', 'gett', 'x'], {full: true, plain: true}],
  // The root help is drawn from the bundle's root-help index, not the manifest.
  ['the root help (no arguments)', [], {full: true, plain: true}],
  ['the root help (help)', ['help'], {plain: true}],
  ['the root help (--help)', ['--help']],
  ['the root help (-h)', ['-h']],
  ['the root help with a flag (manifest)', ['help', '--json']],
]

describe('the bundle start-up paths show what plain oclif shows', () => {
  it('every line the in-process runner cannot run is compared with the unbundled build', () => {
    for (const [what, argv, paths] of lines)
      if (!commandOf(argv) && !asksForHelp(argv)) expect(paths?.plain, what).toBe(true)
  })

  it.each(lines)('%s', async (_what, argv, paths = {}) => {
    const seen = (r: CliResult) => ({code: r.code, stdout: r.stdout, stderr: r.stderr})
    const [topic, plain, full] = await Promise.all([
      svc(argv, {env}),
      paths.plain ? svc(argv, {env: {...env, SVC_NO_BUNDLE: '1'}}) : undefined,
      paths.full ? svc(argv, {env: {...env, SVC_ONE_BUNDLE: '1'}}) : undefined,
    ])
    // The integration tests' in-process runner, for the lines it runs itself: commands, `svc help ...`,
    // and --help/-h (bare topics and typos go to the binary: bin/run.js words them).
    const inProcess = commandOf(argv) || asksForHelp(argv) ? seen(await svcInProcess(argv, {env})) : undefined
    const reference = plain ? seen(plain) : inProcess!
    expect(seen(topic)).toEqual(reference)
    if (full) expect(seen(full)).toEqual(reference)
    if (inProcess) expect(inProcess).toEqual(reference)
    expect(topic.stdout + topic.stderr).not.toBe('')
  })
})
