import SandboxBackup from '../backup.js'

/** The same consistent copy as `sandbox backup`, under the name support uses to hand a reproduction on. */
export default class SandboxSnapshotSave extends SandboxBackup {
  static override summary =
    'Save the whole local sandbox state to a file to hand to someone else (same copy as `sandbox backup`)'
  static override description =
    'A consistent copy of the sandbox database (VACUUM INTO), taken even while it serves and checked after it is written. ' +
    'The receiver loads it with `svc sandbox snapshot load <file>`; their own credentials and webhook key stay theirs.'
  static override examples = ['<%= config.bin %> sandbox snapshot save ./ticket-4711.db']
}
