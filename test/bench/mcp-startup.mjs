// `svc mcp` start-up (issue 34): the time from spawning `svc mcp` to its answer to `initialize`,
// against `svc --version` (the floor: within 1.5x) and `svc version` (a command through
// oclif, nothing else), spawned round-robin so machine noise hits all alike; medians.
// Usage: node test/bench/mcp-startup.mjs [runs]   or   node test/bench/bench.mjs --only mcp-initialize
// (build first). test/integration/mcp-startup.test.ts holds the ratio loosely on the shared machine.
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

/** Milliseconds from spawning `svc ...args` to its exit. */
export const timeToExit = (args, {bin = BIN, env}) =>
  new Promise((resolve, reject) => {
    const t = performance.now()
    spawn(process.execPath, [bin, ...args], {env, stdio: 'ignore'})
      .on('error', reject)
      .on('exit', () => resolve(performance.now() - t))
  })

/** Milliseconds from spawning `svc mcp` to the first line of its answer to `initialize` (then it is stopped). */
export const timeToInitialize = ({bin = BIN, env}) =>
  new Promise((resolve, reject) => {
    const t = performance.now()
    const child = spawn(process.execPath, [bin, 'mcp'], {env, stdio: ['pipe', 'pipe', 'ignore']})
    let out = ''
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`svc mcp exited ${code} before answering initialize`)))
    child.stdout.on('data', (d) => {
      out += d
      if (!out.includes('\n')) return
      const ms = performance.now() - t
      const answer = JSON.parse(out.slice(0, out.indexOf('\n')))
      child.removeAllListeners('exit')
      child.kill()
      if (answer.id !== 1 || !answer.result?.serverInfo) reject(new Error(`not an answer to initialize: ${out}`))
      else resolve(ms)
    })
    const params = {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'bench', version: '0'}}
    child.stdin.write(JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params}) + '\n')
  })

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/**
 * Medians (ms) of `svc --version`, `svc version` and `svc mcp` answering `initialize`, `runs`
 * rounds after one warm-up round, in a fresh HOME; `ratio` is initialize / --version.
 */
export async function benchMcpStartup({bin = BIN, runs = 15, withVersionCommand = true} = {}) {
  const home = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-'))
  const env = {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'c'), SVC_DATA_DIR: join(home, 'd')}
  const times = {version: [], versionCommand: [], initialize: []}
  try {
    for (let i = -1; i < runs; i++) {
      const round = {
        version: await timeToExit(['--version'], {bin, env}),
        versionCommand: withVersionCommand ? await timeToExit(['version'], {bin, env}) : 0,
        initialize: await timeToInitialize({bin, env}),
      }
      if (i >= 0) for (const k of Object.keys(times)) times[k].push(round[k])
    }
  } finally {
    rmSync(home, {recursive: true, force: true})
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]))
  return {...med, ratio: med.initialize / med.version, runs}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await benchMcpStartup({runs: Number(process.argv[2] ?? 15)})
  console.log(`median of ${r.runs} interleaved rounds`)
  console.log(`svc --version                    ${r.version.toFixed(1).padStart(7)} ms  1.00x`)
  console.log(
    `svc version                      ${r.versionCommand.toFixed(1).padStart(7)} ms  ${(r.versionCommand / r.version).toFixed(2)}x`,
  )
  console.log(`svc mcp: initialize answered     ${r.initialize.toFixed(1).padStart(7)} ms  ${r.ratio.toFixed(2)}x`)
}
