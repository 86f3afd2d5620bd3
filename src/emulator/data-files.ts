/**
 * A file of the sandbox's data dir that cannot be used as it is (credentials.json, webhook-key.pem):
 * named with what is wrong and how to recover, instead of surfacing as an internal error.
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError'
  constructor(readonly file: string, problem: string, readonly recovery: string, cause?: unknown) {
    super(`${file} ${problem}: ${recovery}`, {cause})
  }
}
