import {usageError} from './errors.js'
import {suggestAnywhere} from './suggest.js'

/**
 * `svc help capture`: oclif says "Command capture not found"; this says it as an unknown command
 * does (exit 2), with the same "Did you mean", across topics too (`svc help flow capture`).
 */
export function unknownHelpTopic(err: Error, words: string[], commandIds: string[]): Error {
  if (!/not found/i.test(err.message)) return err
  const suggestion = suggestAnywhere(words, commandIds)
  return usageError(
    `"${words.join(' ')}" is not an svc command or topic`,
    suggestion
      ? `Did you mean \`svc help ${suggestion.id.replaceAll(':', ' ')}\`? Run \`svc help\` for the command list.`
      : 'Run `svc help` for the command list.',
  )
}
