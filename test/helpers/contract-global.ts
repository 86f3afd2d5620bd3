import {mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'
import type {TestProject} from 'vitest/node'
import {REPO_ROOT, readContract} from './contract.js'
import {ALLOWANCES} from './contract-allow.js'
import type {FileCoverage} from './contract-recorder.js'

const SUMMARY = join(REPO_ROOT, '.tmp', 'contract-coverage.json')

/**
 * Once per run (shared by the projects): parses the contract for every test file and, at the end, adds up what the files
 * exercised: prints "contract: N/153 operations exercised" once and writes the detail to .tmp/contract-coverage.json.
 */
export default async function setup(project: TestProject) {
  // Each vitest project (unit, integration, chaos) runs this; they share one run so the summary adds up all files.
  const shared = ((globalThis as {svcContractRun?: SharedRun}).svcContractRun ??= {users: 0, ready: startRun()})
  shared.users++
  const {dir, jsonPath, filesDir, all} = await shared.ready
  project.provide('contractDir', filesDir)
  project.provide('contractJson', jsonPath)
  return () => {
    if (--shared.users > 0) return
    delete (globalThis as {svcContractRun?: SharedRun}).svcContractRun
    const files = safeList(filesDir).map((f) => JSON.parse(readFileSync(join(filesDir, f), 'utf8')) as FileCoverage)
    rmSync(dir, {recursive: true, force: true})
    if (!files.length) return
    const exercised = new Set(files.flatMap((f) => f.exercised))
    const succeeded = new Set(files.flatMap((f) => f.succeeded))
    const allowanceUse = Object.fromEntries(
      ALLOWANCES.map((a) => [a.id, files.reduce((n, f) => n + (f.allowanceUse[a.id] ?? 0), 0)]),
    )
    const summary = {
      operationsInContract: all.length,
      operationsExercised: exercised.size,
      operationsWithSuccess: succeeded.size,
      cliRequestsChecked: files.reduce((n, f) => n + f.cliRequests, 0),
      findings: files.reduce((n, f) => n + f.findings, 0),
      allowances: ALLOWANCES.map((a) => ({id: a.id, decidedBy: a.decidedBy, excused: allowanceUse[a.id]})),
      exercised: [...exercised].sort(),
      notExercised: all.filter((k) => !exercised.has(k)),
      reports: files.filter((f) => f.report).map((f) => `${relative(REPO_ROOT, f.file)}\n${f.report}`),
      files: files.map((f) => relative(REPO_ROOT, f.file)).sort(),
    }
    mkdirSync(join(REPO_ROOT, '.tmp'), {recursive: true})
    writeFileSync(SUMMARY, JSON.stringify(summary, null, 2) + '\n')
    console.log(
      `contract: ${exercised.size}/${all.length} operations exercised (${succeeded.size} with a 2xx answer), ${summary.cliRequestsChecked} CLI requests checked, ${summary.findings} unexcused findings; detail in ${relative(REPO_ROOT, SUMMARY)}`,
    )
  }
}

interface SharedRun {
  users: number
  ready: Promise<{dir: string; jsonPath: string; filesDir: string; all: string[]}>
}

async function startRun() {
  // Read first: a missing contract fails the run before there is a dir to leave behind.
  const doc = await readContract()
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-'))
  const jsonPath = join(dir, 'openapi.json')
  writeFileSync(jsonPath, JSON.stringify(doc))
  return {dir, jsonPath, filesDir: join(dir, 'files'), all: countOperations(doc)}
}

function countOperations(doc: Record<string, unknown>): string[] {
  const out: string[] = []
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) if (item[m]) out.push(`${m.toUpperCase()} ${path}`)
  }
  return out
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json'))
  } catch {
    return []
  }
}
