// The README's quick start and docs/journey.md, run as printed from an empty home directory: `svc` on
// PATH, no SVC_* variables, the default local sandbox (127.0.0.1:4010) started by the docs themselves.
// Both use the default ports, so they run one after the other in this file; skipped when another
// sandbox or listener already holds those ports (a developer's own, say).
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/temp-dirs.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const home = tempDir('svc-newcomer-')
const bin = join(home, 'bin')
const env = {PATH: `${bin}:${process.env.PATH}`, HOME: home, SVC_NO_INPUT: '1', NO_COLOR: '1'}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer().once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
}

/** The first ```sh block after a heading. */
function shBlock(file: string, heading: string): string {
  const text = readFileSync(join(root, file), 'utf8')
  const from = text.indexOf(heading)
  expect(from, `${heading} in ${file}`).toBeGreaterThanOrEqual(0)
  const m = /```sh\n([\s\S]*?)```/.exec(text.slice(from))
  return m![1]
}

function sh(script: string, timeout = 60_000) {
  const r = spawnSync('bash', ['-c', script], {env, encoding: 'utf8', timeout, cwd: home})
  return {code: r.status, stdout: r.stdout, stderr: r.stderr}
}

const free = (await portFree(4010)) && (await portFree(4020))
let listener: ChildProcess | undefined

beforeAll(() => {
  mkdirSync(bin)
  writeFileSync(
    join(bin, 'svc'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin', 'run.js'))} "$@"\n`,
  )
  chmodSync(join(bin, 'svc'), 0o755)
  if (spawnSync('sh', ['-c', 'command -v jq']).status !== 0) {
    // docs/journey.md pipes --json into jq; where jq is not installed, a stand-in that evaluates the
    // same filters (with -r) keeps the test about svc, not about the machine.
    writeFileSync(
      join(bin, 'jq'),
      `#!${process.execPath}
const filter = process.argv.filter((a) => a !== '-r').slice(2)[0]
const doc = JSON.parse(require('fs').readFileSync(0, 'utf8'))
const sel = /^\\.data\\[\\] \\| select\\(\\.type == "(\\w+)"\\) \\| \\.id$/.exec(filter)
const out = sel ? doc.data.filter((x) => x.type === sel[1]).map((x) => x.id) : [filter === '.id' ? doc.id : undefined]
for (const v of out) console.log(v)
`,
    )
    chmodSync(join(bin, 'jq'), 0o755)
  }
})

afterAll(() => {
  listener?.kill('SIGTERM')
  sh('svc sandbox stop >/dev/null 2>&1 || true')
})

describe.skipIf(!free)('the docs, as printed, from an empty home', () => {
  it('README quick start: step by step', async () => {
    const lines = shBlock('README.md', '## Quick start')
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'))
    expect(lines[0]).toMatch(/^svc sandbox serve --detach/)
    let customer = ''
    let listened = ''
    for (const line of lines) {
      if (line.includes('in another terminal')) {
        listener = spawn('bash', ['-c', line], {env, cwd: home, stdio: ['ignore', 'pipe', 'pipe']})
        listener.stdout!.on('data', (c: Buffer) => (listened += c.toString()))
        listener.stderr!.on('data', (c: Buffer) => (listened += c.toString()))
        // Registering makes the sandbox send a signed TEST event to the new endpoint.
        for (let i = 0; i < 200 && !/TEST/.test(listened); i++) await new Promise((r) => setTimeout(r, 50))
        expect(listened, line).toMatch(/TEST/)
        continue
      }
      const command = customer ? line.replace('Customer:...', customer) : line
      const r = sh(command)
      expect(r.code, `${command}\n${r.stderr}`).toBe(0)
      if (/customers create/.test(line)) customer = /Customer:[\w-]+/.exec(r.stdout + r.stderr)![0]
      if (/^svc whoami/.test(line)) expect(r.stdout).toMatch(/local/)
      if (/^svc customers list/.test(line)) expect(r.stdout).toContain('Ada Lovelace')
      if (/^svc customers get/.test(line)) expect(r.stdout).toContain(customer)
      if (/^svc sandbox stop/.test(line)) expect(r.stderr).toMatch(/Stopped/)
    }
    expect(customer).toMatch(/^Customer:/)
  }, 120_000)

  it('docs/journey.md: the whole journey as one script', () => {
    const r = sh(shBlock('docs/journey.md', '# One whole journey'), 120_000)
    expect(r.code, r.stderr).toBe(0)
    const all = r.stdout + r.stderr
    expect(all).toMatch(/is APPROVED/)
    expect(all).toMatch(/COMPLETED/)
    expect(all).toMatch(/12 words, fingerprint/)
    expect(all).toMatch(/Stopped the local sandbox/)
    // the knobs' PATCH answers with the whole config (some 80 lines): not part of the walkthrough
    expect(r.stdout).not.toContain('"supportedCurrencies"')
  }, 150_000)
})
