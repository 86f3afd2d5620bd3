import {defineConfig} from 'vitest/config'

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
]

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Every test file owns its ports (0), dirs and sandboxes, so files run side by side: on 2 cores, two
    // workers keep both busy while one file waits on a child process or the network.
    maxWorkers: 2,
    // Contract check: every sandbox answer and CLI request against ../shared/spec/openapi.yaml
    // and the count of `svc` processes the run started (at most 300: issue 35).
    globalSetup: ['test/helpers/contract-global.ts', 'test/helpers/process-count-global.ts'],
    setupFiles: [
      'test/helpers/contract-setup.ts',
      'test/helpers/temp-dirs-setup.ts',
      'test/helpers/process-count-setup.ts',
    ],
    projects: [
      {extends: true, test: {name: 'unit', include: ['test/unit/**/*.test.ts']}},
      {extends: true, test: {name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: CHAOS}},
      {extends: true, test: {name: 'chaos', include: CHAOS}},
    ],
  },
})
