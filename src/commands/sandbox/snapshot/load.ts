import SandboxRestore from '../restore.js'

/** `sandbox restore` under the name of the hand-over: the file is checked before anything is replaced. */
export default class SandboxSnapshotLoad extends SandboxRestore {
  static override summary =
    'Load a sandbox state saved with `sandbox snapshot save`, after checking it (same as `sandbox restore`)'
  static override description =
    'The file is checked first (SQLite integrity check, schema version, and every table, index and trigger against the declared schema); ' +
    'a damaged or foreign file, or one with a view, trigger, table or index of its own, replaces nothing (exit 1, INVALID_SNAPSHOT naming the object). ' +
    'Its documents are imported into a database this svc makes; its API tokens and agent tokens are left behind (your own credentials stay yours), and the settings it brings are listed. ' +
    'The state it replaces is kept as sandbox.db.before-restore. The sandbox must be stopped.'
  static override examples = ['<%= config.bin %> sandbox snapshot load ./ticket-4711.db --yes']
  protected override readonly handOver = true
}
