import {mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'
import type {TestProject} from 'vitest/node'
import {REPO_ROOT, readContract} from './contract.js'
import {ALLOWANCES} from './contract-allow.js'
import type {FileCoverage} from './contract-recorder.js'
import {FIDELITY_PATH, countLine, renderFidelity, type Produced} from './fidelity.js'

const SUMMARY = join(REPO_ROOT, '.tmp', 'contract-coverage.json')

/**
 * Once per run (shared by the projects): parses the contract for every test file and, at the end, adds
 * up what the files exercised: prints "contract: N/153 operations exercised" and "N of M documented
 * answers (5xx aside)" once and writes the detail to .tmp/contract-coverage.json. A complete run (every
 * test file, no name filter, nothing failed) also compares docs/fidelity.md with what it produced: a
 * difference fails the run (exit code 1), as a failing test would. Answers no journey reaches on its
 * own (conflicts, limits, locks) are asked for on purpose (test/integration/contract-answers*.test.ts),
 * so no race decides a 409 or a 429 and the same code gives the same doc. `npm run fidelity` rewrites it from the run's JSON, and so
 * does `vitest run -u`.
 */
export default async function setup(project: TestProject) {
  // Each vitest project (unit, integration, chaos) runs this; they share one run so the summary adds up all files.
  const shared = ((globalThis as {svcContractRun?: SharedRun}).svcContractRun ??= {users: 0, ready: startRun()})
  shared.users++
  const {doc, dir, jsonPath, filesDir, all} = await shared.ready
  project.provide('contractDir', filesDir)
  project.provide('contractJson', jsonPath)
  return async () => {
    if (--shared.users > 0) return
    delete (globalThis as {svcContractRun?: SharedRun}).svcContractRun
    const files = safeList(filesDir).map((f) => JSON.parse(readFileSync(join(filesDir, f), 'utf8')) as FileCoverage)
    rmSync(dir, {recursive: true, force: true})
    if (!files.length) return
    const exercised = new Set(files.flatMap((f) => f.exercised))
    const answers: Produced = {}
    for (const f of files)
      for (const [k, v] of Object.entries(f.answers ?? {})) {
        const a = (answers[k] ??= {seen: 0, valid: 0})
        a.seen += v.seen
        a.valid += v.valid
        if (v.excusedBy) a.excusedBy = [...new Set([...(a.excusedBy ?? []), ...v.excusedBy])].sort()
      }
    const succeeded = new Set(files.flatMap((f) => f.succeeded))
    const allowanceUse = Object.fromEntries(
      ALLOWANCES.map((a) => [a.id, files.reduce((n, f) => n + (f.allowanceUse[a.id] ?? 0), 0)]),
    )
    const complete = await completeRun(project)
    const summary = {
      complete,
      operationsInContract: all.length,
      operationsExercised: exercised.size,
      operationsWithSuccess: succeeded.size,
      cliRequestsChecked: files.reduce((n, f) => n + f.cliRequests, 0),
      findings: files.reduce((n, f) => n + f.findings, 0),
      allowances: ALLOWANCES.map((a) => ({id: a.id, decidedBy: a.decidedBy, excused: allowanceUse[a.id]})),
      answersLine: countLine(doc, answers),
      answers,
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
    console.log(summary.answersLine)
    if (complete) holdFidelityDoc(renderFidelity(doc, answers), Boolean(project.vitest.config.update))
  }
}

interface SharedRun {
  users: number
  ready: ReturnType<typeof startRun>
}

async function startRun() {
  // Read first: a missing contract fails the run before there is a dir to leave behind.
  const doc = await readContract()
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-'))
  const jsonPath = join(dir, 'openapi.json')
  writeFileSync(jsonPath, JSON.stringify(doc))
  return {doc, dir, jsonPath, filesDir: join(dir, 'files'), all: countOperations(doc)}
}

/** Every test file ran, unfiltered by name, and none failed: only such a run says which answers the suite produces. */
export async function completeRun(project: TestProject): Promise<boolean> {
  const testFiles = (await Promise.all(project.vitest.projects.map((p) => p.globTestFiles()))).flatMap(
    (g) => g.testFiles,
  )
  const ran = new Set(project.vitest.state.getFiles().map((f) => f.filepath))
  return (
    !project.vitest.config.testNamePattern &&
    testFiles.every((f) => ran.has(f)) &&
    project.vitest.state.getCountOfFailedTests() === 0
  )
}

function holdFidelityDoc(expected: string, update: boolean): void {
  const path = join(REPO_ROOT, FIDELITY_PATH)
  let current = ''
  try {
    current = readFileSync(path, 'utf8')
  } catch {
    // absent: stale
  }
  if (current === expected) return
  if (update) {
    writeFileSync(path, expected)
    console.log(`contract: rewrote ${FIDELITY_PATH}`)
    return
  }
  // A stale doc fails the run like a failing test: the published figure must be what the suite produces.
  process.exitCode = 1
  console.error(
    `FAIL ${FIDELITY_PATH} is stale: this run produced other documented answers than it lists (${expected.split('\n')[0]}; the doc says ${current.split('\n')[0] || 'nothing'}). Rewrite it with \`npm run fidelity\` (from this run's .tmp/contract-coverage.json) and commit it.`,
  )
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
