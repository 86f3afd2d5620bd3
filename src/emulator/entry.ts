import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {ThrowawaySandbox} from '../lib/scenario/run/local.js'
import type {RestoredState} from '../lib/sandbox-store.js'
import type {SandboxSettings} from './settings.js'
import {snapshotReport} from './snapshot-report.js'
import {restoreDatabase as restoreFile} from './store/files.js'

/**
 * The sandbox's door for the CLI side: what commands (src/commands) hand to src/lib, which never
 * imports the sandbox itself. Commands load this lazily, so only those that touch the sandbox load
 * it, and the store operations below do not load the server (the Emulator is imported on start).
 */
export {backupDatabase, checkDatabase, checkSnapshot, freshDatabase} from './store/files.js'

/** A restore (one's own backup: its tokens kept) or a load (a hand-over: its tokens left behind), and what it brought. */
export async function restoreDatabase(
  dataDir: string,
  file: string,
  opts: {handOver?: boolean} = {},
): Promise<RestoredState> {
  const r = await restoreFile(dataDir, file, {keepCredentials: !opts.handOver})
  return {...(r.kept ? {kept: r.kept} : {}), rows: r.rows, ...snapshotReport(r)}
}
export {cardExceptions} from './store/attention.js'

/** Decisions land quickly in a throwaway sandbox unless the flow's `sandbox:` block says otherwise. */
const FLOW_DEFAULTS: Partial<SandboxSettings> = {decisionDelayMs: 250}

/**
 * `svc flow run --local`: a sandbox on an ephemeral loopback port with a temporary data dir, in this
 * process (so it cannot outlive the run), removed with everything in it on close.
 */
export async function startThrowawaySandbox(settings: Partial<SandboxSettings> = {}): Promise<ThrowawaySandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-flow-'))
  try {
    const {Emulator} = await import('./emulator.js')
    const emu = await Emulator.start({
      dataDir: join(dir, 'sandbox'),
      port: 0,
      settings: {...FLOW_DEFAULTS, ...settings},
    })
    return {
      url: emu.url,
      tokenId: emu.credentials.tokenId,
      clientSecret: emu.credentials.clientSecret,
      env: {
        SVC_BASE_URL: emu.url,
        SVC_TOKEN_ID: emu.credentials.tokenId,
        SVC_CLIENT_SECRET: emu.credentials.clientSecret,
        SVC_ENVIRONMENT: 'local',
        SVC_CONFIG_DIR: join(dir, 'config'),
        SVC_DATA_DIR: join(dir, 'data'),
      },
      async close() {
        try {
          await emu.close()
        } finally {
          rmSync(dir, {recursive: true, force: true})
        }
      },
    }
  } catch (e) {
    rmSync(dir, {recursive: true, force: true})
    throw e
  }
}
