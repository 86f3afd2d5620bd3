import {statSync} from 'node:fs'

/** A file's permission bits, e.g. 0o600. */
export const fileMode = (path: string) => statSync(path).mode & 0o777
