// The README's quick start, run as printed from an empty home directory (`svc` on PATH), and
// docs/journey.md's commands as its script runs them: no SVC_* variables, the default local sandbox
// (127.0.0.1:4010) started by the docs themselves.
// Both use the default ports, so they run one after the other in this file; skipped when another
// sandbox or listener already holds those ports (a developer's own, say).
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess} from '../helpers/run-command.js'
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

/** A line's words as the shell splits them: '...' literal, "..." and bare words with $name expanded. */
function shellWords(line: string, vars: Record<string, string>): string[] {
  const expand = (t: string) => t.replace(/\$(\w+)|\$\{(\w+)\}/g, (_, a, b) => vars[a ?? b] ?? '')
  const words: string[] = []
  let end = -1
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g)) {
    const piece = m[1] ?? expand(m[2] ?? m[3])
    // Pieces with nothing between them are one word (--data='{...}').
    if (m.index === end) words[words.length - 1] += piece
    else words.push(piece)
    end = m.index + m[0].length
  }
  return words
}

/** The jq filters docs/journey.md uses (`.id`, `.data[] | select(.type == "X") | .id`), with -r. */
function jq(filter: string, doc: any): string {
  if (filter === '.id') return doc.id
  const sel = /^\.data\[\] \| select\(\.type == "(\w+)"\) \| \.id$/.exec(filter)
  expect(sel, `a jq filter this test knows: ${filter}`).not.toBeNull()
  return doc.data
    .filter((x: {type: string}) => x.type === sel![1])
    .map((x: {id: string}) => x.id)
    .join('\n')
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

  // The quick start above proves svc on PATH from a shell, as printed. The journey's commands run
  // in-process one after another, each line of the script as the shell would run it: its words
  // (quotes and $variables), `name=$(svc ... --json | jq -r FILTER)` captures, `> /dev/null`, and
  // set -e (each must exit 0); bash checks the script's syntax. The sandbox it starts is a process.
  it('docs/journey.md: the whole journey, line by line', async () => {
    const script = shBlock('docs/journey.md', '# One whole journey')
    expect(spawnSync('bash', ['-n', '-c', script]).status, 'bash -n').toBe(0)
    const vars: Record<string, string> = {}
    let stdout = ''
    let stderr = ''
    for (const raw of script.split('\n')) {
      const line = raw.trim()
      if (!line || line.startsWith('#') || line === 'set -euo pipefail') continue
      const m = /^(\w+)=\$\((svc .*?)(?: \| jq -r (?:'([^']*)'|(\S+)))?\)$/.exec(line)
      const command = m ? m[2] : line.replace(/ > \/dev\/null$/, '')
      const words = shellWords(command, vars)
      expect(words[0], line).toBe('svc')
      const r = await svcInProcess(words.slice(1), {env, cwd: home, timeoutMs: 60_000})
      expect(r.code, `${line}\n${r.stderr}`).toBe(0)
      stderr += r.stderr
      const filter = m?.[3] ?? m?.[4]
      if (m) vars[m[1]] = filter ? jq(filter, r.json()) : r.stdout.trim()
      else if (!line.endsWith('> /dev/null')) stdout += r.stdout
    }
    const all = stdout + stderr
    expect(all).toMatch(/is APPROVED/)
    expect(all).toMatch(/COMPLETED/)
    expect(all).toMatch(/12 words, fingerprint/)
    expect(all).toMatch(/Stopped the local sandbox/)
    // the knobs' PATCH answers with the whole config (some 80 lines): not part of the walkthrough
    expect(stdout).not.toContain('"supportedCurrencies"')
  }, 150_000)
})
