import {afterAll} from 'vitest'
import {removeTempDirs} from './temp-dirs.js'

// Registered before the test file's own hooks, so it runs after them (sequence.hooks 'stack'):
// the file's sandboxes are stopped by then.
afterAll(removeTempDirs)
