// `svc mcp` answers `initialize` before it loads oclif, the SDK and the tools (src/lib/mcp/front.ts):
// the bound is 1.5x `svc --version` in one interleaved run (test/bench/mcp-startup.mjs
// reports it: `node test/bench/bench.mjs --only mcp-initialize`). The machine running this is shared
// with other test runs, so the bound held here is looser; it still fails when `initialize` waits
// for the command to load (2.6-3.2x before the early answer). Build first (`npm run build`).
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'
import {benchMcpStartup} from '../bench/mcp-startup.mjs'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
const home = mkdtempSync(join(tmpdir(), 'svc-mcp-start-'))
afterAll(() => rmSync(home, {recursive: true, force: true}))

/** The first line `svc mcp` writes for an `initialize`, parsed (env laid over a fresh HOME). */
function firstAnswer(env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'c'), ...env},
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    let out = ''
    child.on('error', reject)
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (!out.includes('\n')) return
      child.kill()
      resolve(JSON.parse(out.slice(0, out.indexOf('\n'))))
    })
    const params = {protocolVersion: '2025-03-26', capabilities: {}, clientInfo: {name: 't', version: '0'}}
    child.stdin.write(JSON.stringify({jsonrpc: '2.0', id: 'init', method: 'initialize', params}) + '\n')
  })
}

describe('svc mcp start-up', () => {
  it('answers initialize within 2.5x the start of svc --version (interleaved medians; the issue asks 1.5x)', async () => {
    const r = await benchMcpStartup({runs: 7, withVersionCommand: false})
    console.log(
      `svc mcp initialize ${r.initialize.toFixed(1)} ms, svc --version ${r.version.toFixed(1)} ms: ${r.ratio.toFixed(2)}x`,
    )
    expect(r.ratio).toBeLessThan(2.5)
  }, 120_000)

  it('the early answer is the one the SDK’s Server gives without it (unbundled build)', async () => {
    const early = await firstAnswer()
    const sdk = await firstAnswer({SVC_NO_BUNDLE: '1'})
    expect(early).toEqual(sdk)
    expect(early).toMatchObject({id: 'init', result: {protocolVersion: '2025-03-26', serverInfo: {name: 'svc'}}})
  }, 60_000)
})
