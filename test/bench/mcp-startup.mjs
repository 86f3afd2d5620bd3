// `svc mcp` start-up (issue 34): the time from spawning `svc mcp` to its answer to `initialize`,
// against `svc --version` and `svc version` (oclif's own floor), interleaved, medians.
// Usage: node test/bench/mcp-startup.mjs [runs]   (build first)
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
const home = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-'))
const env = {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'c'), SVC_DATA_DIR: join(home, 'd')}

const run = (args) =>
  new Promise((resolve) => {
    const t = performance.now()
    spawn(process.execPath, [bin, ...args], {env, stdio: 'ignore'}).on('exit', () => resolve(performance.now() - t))
  })

const initialize = () =>
  new Promise((resolve) => {
    const t = performance.now()
    const child = spawn(process.execPath, [bin, 'mcp'], {env, stdio: ['pipe', 'pipe', 'ignore']})
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      if (!out.includes('\n')) return
      resolve(performance.now() - t)
      child.kill()
    })
    const params = {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'bench', version: '0'}}
    child.stdin.write(JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params}) + '\n')
  })

const runs = Number(process.argv[2] ?? 15)
const times = {'svc --version': [], 'svc version': [], 'svc mcp: initialize answered': []}
for (let i = 0; i < runs; i++) {
  times['svc --version'].push(await run(['--version']))
  times['svc version'].push(await run(['version']))
  times['svc mcp: initialize answered'].push(await initialize())
}
rmSync(home, {recursive: true, force: true})
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const floor = median(times['svc --version'])
for (const [name, xs] of Object.entries(times))
  console.log(`${name.padEnd(30)} ${median(xs).toFixed(1).padStart(7)} ms  ${(median(xs) / floor).toFixed(2)}x`)
