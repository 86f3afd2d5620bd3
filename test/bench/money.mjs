// The seeded model tests of money (issue 29) at bench size: more seeds and more steps than `npm test`.
//
//   node test/bench/money.mjs [--seeds 10] [--steps 1000] [--agent-steps 400]
//   npm run bench -- --only money
//
// Runs test/unit/money/ledger-property.test.ts (domain level: funds, quotes, payments, cards,
// EXCEPTIONs) and test/integration/money-model-agents.test.ts (HTTP: agents, grants, approvals, the
// clock) with SVC_MONEY_SEED_COUNT / SVC_MONEY_STEPS; every step checks the ledger, balances, legal
// state moves and one event per move. A failure prints its seed and steps (replay with SVC_MONEY_SEEDS).
import {spawnSync} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Runs both model tests; returns the steps run and the seconds each took (throws on a broken invariant). */
export async function benchMoney({seeds = 10, steps = 1000, agentSteps = 400} = {}) {
  const out = {}
  for (const [file, perSeed] of [
    ['test/unit/money/ledger-property.test.ts', steps],
    ['test/integration/money-model-agents.test.ts', agentSteps],
  ]) {
    const started = Date.now()
    const r = spawnSync('npx', ['vitest', 'run', file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: {...process.env, SVC_MONEY_SEED_COUNT: String(seeds), SVC_MONEY_STEPS: String(perSeed)},
    })
    if (r.status !== 0) throw new Error(`${file} failed:\n${r.stdout.slice(-6000)}\n${r.stderr.slice(-2000)}`)
    out[file] =
      `${seeds} seeds x ${perSeed} steps = ${seeds * perSeed} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`)
    return i > 0 ? Number(process.argv[i + 1]) : dflt
  }
  const out = await benchMoney({
    seeds: arg('seeds', 10),
    steps: arg('steps', 1000),
    agentSteps: arg('agent-steps', 400),
  })
  for (const [k, v] of Object.entries(out)) console.log(`${k}: ${v}`)
}
