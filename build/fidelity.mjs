// Renders docs/fidelity.md from the documented answers a complete test run produced
// (.tmp/contract-coverage.json, written by test/helpers/contract-global.ts), without running the
// suite again. A run that was not complete (a file filter, a name filter, a failure) is refused: only
// every integration file together says which answers the sandbox produces.
//
// Usage: npm run fidelity            (after `npm test` or `npx vitest run --project integration`)
//        npm run fidelity -- --check (exit 1 when the doc differs, write nothing)
//        npm run fidelity -- --accept-partial (a run with a failed test or a filter: rendered anyway, with a warning)
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {build} from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const summaryPath = join(root, '.tmp', 'contract-coverage.json')
const check = process.argv.includes('--check')

let summary
try {
  summary = JSON.parse(readFileSync(summaryPath, 'utf8'))
} catch {
  console.error(`No ${summaryPath}: run the integration tests first (npx vitest run --project integration).`)
  process.exit(1)
}
if (!summary.complete && !process.argv.includes('--accept-partial')) {
  console.error(
    `${summaryPath} is from a partial run (some test files, a name filter, or a failure); docs/fidelity.md needs a complete one (--accept-partial renders it anyway: say so when you commit it).`,
  )
  process.exit(1)
}
if (!summary.complete) console.warn(`rendering from a partial run (${summaryPath}): the next complete run checks it`)

// The renderer is the test helpers' own (TypeScript): bundled on the fly, with their module URL kept
// so they find the repository and the contract as they do under vitest.
const helpers = join(root, 'test', 'helpers')
// Inside the repository, so its bare imports (yaml, ajv) resolve from node_modules.
mkdirSync(join(root, '.tmp'), {recursive: true})
const out = mkdtempSync(join(root, '.tmp', 'fidelity-'))
try {
  await build({
    stdin: {
      contents:
        "export {FIDELITY_PATH, renderFidelity} from './fidelity.ts'\nexport {readContract} from './contract.ts'\n",
      resolveDir: helpers,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: join(out, 'render.mjs'),
    define: {'import.meta.url': JSON.stringify(pathToFileURL(join(helpers, 'contract.ts')).href)},
    logLevel: 'warning',
  })
  const {FIDELITY_PATH, renderFidelity, readContract} = await import(pathToFileURL(join(out, 'render.mjs')).href)
  const text = renderFidelity(await readContract(), summary.answers)
  const path = join(root, FIDELITY_PATH)
  let current = ''
  try {
    current = readFileSync(path, 'utf8')
  } catch {
    // absent: written below
  }
  if (current === text) console.log(`${FIDELITY_PATH} is up to date: ${text.split('\n')[0]}`)
  else if (check) {
    console.error(`${FIDELITY_PATH} is stale: the run says ${text.split('\n')[0]}, the doc ${current.split('\n')[0]}`)
    process.exitCode = 1
  } else {
    writeFileSync(path, text)
    console.log(`wrote ${FIDELITY_PATH}: ${text.split('\n')[0]}`)
  }
} finally {
  rmSync(out, {recursive: true, force: true})
}
