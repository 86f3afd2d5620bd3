import {relative} from 'node:path'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

/**
 * Files that take longest (measured on the 2-core machine), started first so the two workers finish
 * together instead of one running a long file alone at the end. vitest's own order follows (its cache
 * of durations on a machine that ran the suite before, else the larger file first: CI is a fresh
 * clone, so there only this list knows). A file not here keeps vitest's order.
 */
export const SLOWEST = [
  'test/integration/examples.test.ts',
  'test/unit/money/ledger-property.test.ts',
  'test/integration/team-sandboxes-lifecycle.test.ts',
  'test/integration/crash.test.ts',
  'test/integration/install.test.ts',
  'test/integration/readme-quick-start.test.ts',
  'test/integration/leak.test.ts',
  'test/integration/sandbox-faults.test.ts',
  'test/integration/sandbox-process.test.ts',
  'test/integration/store.test.ts',
  'test/unit/emulator/serve-lock.test.ts',
  'test/unit/lib/flow-capture.test.ts',
  'test/unit/wallet-client/keystore.test.ts',
]

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.indexOf(relative(this.ctx.config.root, f.moduleId))
      return i < 0 ? SLOWEST.length : i
    }
    // Array.prototype.sort is stable: files off the list keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
