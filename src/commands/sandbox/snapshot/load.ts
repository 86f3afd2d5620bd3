import SandboxRestore from '../restore.js'

/** `sandbox restore` under the name of the hand-over: the file is checked before anything is replaced. */
export default class SandboxSnapshotLoad extends SandboxRestore {
  static override summary =
    'Load a sandbox state saved with `sandbox snapshot save`, after checking it (same as `sandbox restore`)'
  static override description =
    'The file is checked first (SQLite integrity check, schema version); a damaged or foreign file replaces nothing (exit 1). ' +
    'The state it replaces is kept as sandbox.db.before-restore. The sandbox must be stopped.'
  static override examples = ['<%= config.bin %> sandbox snapshot load ./ticket-4711.db --yes']
}
