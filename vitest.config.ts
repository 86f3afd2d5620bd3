import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Contract check: every sandbox answer and CLI request against ../shared/spec/openapi.yaml
    globalSetup: ['test/helpers/contract-global.ts'],
    setupFiles: ['test/helpers/contract-setup.ts', 'test/helpers/temp-dirs-setup.ts'],
  },
})
