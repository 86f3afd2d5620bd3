import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'
import type {TestProject} from 'vitest/node'
import {REPO_ROOT} from './contract.js'
import {completeRun} from './contract-global.js'

/** Issue 35: the whole run starts at most this many `svc` processes (a complete, passing run fails past it). */
const MAX_SVC_PROCESSES = 300

const SUMMARY = join(REPO_ROOT, '.tmp', 'svc-processes.json')

/**
 * Counts the `svc` processes a run starts (issue 35 holds `npm test` to at most 300): every test worker
 * points SVC_COUNT_STARTS at one file (process-count-setup.ts), bin/run.js appends a line per start,
 * and at the end this prints "svc processes started: N" with the files that started the most, and
 * writes the detail to .tmp/svc-processes.json. Shared by the projects like the contract run.
 */
export default async function setup(project: TestProject) {
  const shared = ((globalThis as {svcProcessCount?: Shared}).svcProcessCount ??= {users: 0, dir: startRun()})
  shared.users++
  project.provide('svcCountFile', join(shared.dir, 'starts.log'))
  return async () => {
    if (--shared.users > 0) return
    delete (globalThis as {svcProcessCount?: Shared}).svcProcessCount
    let lines: string[] = []
    try {
      lines = readFileSync(join(shared.dir, 'starts.log'), 'utf8').split('\n').filter(Boolean)
    } catch {
      // no svc started at all
    }
    rmSync(shared.dir, {recursive: true, force: true})
    const byFile = new Map<string, number>()
    const byCommand = new Map<string, number>()
    for (const line of lines) {
      const [file, command] = line.split('\t')
      const name = file ? relative(REPO_ROOT, file) : '(outside a test file)'
      byFile.set(name, (byFile.get(name) ?? 0) + 1)
      byCommand.set(command ?? '', (byCommand.get(command ?? '') ?? 0) + 1)
    }
    const sorted = (m: Map<string, number>) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]))
    mkdirSync(join(REPO_ROOT, '.tmp'), {recursive: true})
    writeFileSync(
      SUMMARY,
      JSON.stringify({started: lines.length, byFile: sorted(byFile), byCommand: sorted(byCommand)}, null, 2) + '\n',
    )
    const top = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 5)
    console.log(
      `svc processes started: ${lines.length}${top.length ? ` (most: ${top.map(([f, n]) => `${f} ${n}`).join(', ')})` : ''}; detail in ${relative(REPO_ROOT, SUMMARY)}`,
    )
    if (lines.length > MAX_SVC_PROCESSES && (await completeRun(project))) {
      // Fails the run like a failing test (as a stale docs/fidelity.md does).
      process.exitCode = 1
      console.error(
        `FAIL ${lines.length} svc processes started, more than ${MAX_SVC_PROCESSES}: run a command in the test's process ` +
          '(svcInProcess, test/helpers/run-command.ts) unless the line is about the process itself',
      )
    }
  }
}

interface Shared {
  users: number
  dir: string
}

function startRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-starts-'))
  writeFileSync(join(dir, 'starts.log'), '')
  return dir
}

declare module 'vitest' {
  export interface ProvidedContext {
    svcCountFile: string
  }
}
