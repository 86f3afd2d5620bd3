import {defineConfig} from 'vitest/config'
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js'

// The test pyramid (house-style.md): unit (pure logic, argv -> request), integration (commands in-process
// through test/helpers/run-command.ts against an in-process sandbox; the built binary only where a line
// needs it), chaos (kill -9, locks, disk full, hostile clients: real processes and real time). One
// `npm test` runs all three; `npm run test:unit` is the inner loop.
const CHAOS = [
  'test/integration/crash.test.ts',
  'test/integration/store.test.ts',
  'test/integration/sandbox-faults.test.ts',
  'test/integration/sandbox-process.test.ts',
  'test/integration/team-sandboxes-lifecycle.test.ts',
  // Six servers racing for one data dir, one killed with -9: processes and a lock, not logic.
  'test/unit/emulator/serve-lock.test.ts',
]
/**
 * Unit files too slow for the inner loop (`npm run test:unit` stays under 20 s, issue 35): seeded
 * property runs over a whole sandbox (the money property keeps its 2,240 steps), fuzzing, processes
 * racing on one key store, every contract example delivered. They run with the integration project,
 * so `npm test` still runs every step of them.
 */
const SLOW_UNIT = [
  'test/unit/money/ledger-property.test.ts',
  'test/unit/money/incoming-property.test.ts',
  'test/unit/lib/flow-capture.test.ts',
  'test/unit/wallet-client/keystore.test.ts',
  'test/unit/build/dependency-edits.test.ts',
  'test/unit/lib/webhook-certify.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Every test file owns its ports (0), dirs and sandboxes, so files run side by side: on 2 cores, two
    // workers keep both busy while one file waits on a child process or the network.
    maxWorkers: 2,
    // The longest files first (across the projects), so both workers end at about the same time.
    sequence: {sequencer: SlowFirstSequencer},
    // Contract check: every sandbox answer and CLI request against ../shared/spec/openapi.yaml
    // and the count of `svc` processes the run started (at most 300: issue 35).
    globalSetup: ['test/helpers/contract-global.ts', 'test/helpers/process-count-global.ts'],
    setupFiles: [
      'test/helpers/contract-setup.ts',
      'test/helpers/temp-dirs-setup.ts',
      'test/helpers/process-count-setup.ts',
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...SLOW_UNIT, ...CHAOS],
          // Unit files start no sandbox and leave no state behind, so a worker keeps its loaded modules
          // from one file to the next: importing src/ again for every file was half of the project's time.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', ...SLOW_UNIT],
          exclude: CHAOS,
          // Every file starts its own sandboxes on port 0 in dirs of its own and closes them, and the CLI's
          // per-run state is the Io of each in-process run (src/lib/io.ts), so a worker keeps src/ loaded
          // from one file to the next: importing it again for each of ~120 files cost ~60 CPU-s a run.
          isolate: false,
        },
      },
      {extends: true, test: {name: 'chaos', include: CHAOS}},
    ],
  },
})
