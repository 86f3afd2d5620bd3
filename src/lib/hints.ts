import {closest} from './suggest.js'
import type {ErrorDocument} from './errors.js'

/**
 * Makes a usage hint concrete for the command that failed: `svc <command> --help` becomes
 * `svc customers list --help`, and a mistyped flag gets the closest real one ("Did you mean
 * --customer?"), and placeholders the error's details can fill are filled (`<customerId>`).
 */
export function withCommandHint(
  doc: ErrorDocument,
  commandId: string,
  flags: Record<string, {char?: string; hidden?: boolean}>,
): ErrorDocument {
  const command = commandId ? `svc ${commandId.replaceAll(':', ' ')}` : 'svc'
  let hint = doc.hint?.replaceAll('svc <command>', command) ?? null
  // Catalog hints are generic; when the error names the object, the hint names it too.
  const {customerId, accountId} = doc.details as {customerId?: unknown; accountId?: unknown}
  if (hint && typeof customerId === 'string') hint = hint.replaceAll('<customerId>', customerId)
  if (hint && typeof accountId === 'string') hint = hint.replaceAll('<InternalAccount>', accountId)
  if (doc.code === 'FORBIDDEN') hint = permissionHint(doc.details) ?? hint
  const typo = /Nonexistent flags?: (--?[\w-]+)/.exec(doc.reason)?.[1]
  if (typo?.startsWith('--')) {
    const names = Object.entries(flags)
      .filter(([, f]) => !f.hidden)
      .map(([name]) => name)
    const meant = closest(typo.slice(2), [...names, 'json'])
    if (meant) hint = `Did you mean --${meant}? ${hint ?? ''}`.trim()
  }
  return {...doc, hint}
}

/**
 * A 403 of the authorization table names what the call needs (`details.required`) and what the
 * token holds (`details.granted`); the hint says exactly that instead of the catalogue's guess.
 */
function permissionHint(details: Record<string, unknown>): string | undefined {
  const {required, granted, operation} = details as {required?: unknown; granted?: unknown; operation?: unknown}
  if (!Array.isArray(required) || !required.every((p) => typeof p === 'string') || !required.length) return undefined
  const held = Array.isArray(granted) && granted.length ? granted.join(', ') : 'no permission'
  const what = typeof operation === 'string' ? operation : 'this call'
  return `${what} needs an API token with ${required.join(' or ')}; this profile's token holds ${held}. Use a profile whose token has it, or have one made: \`svc tokens create --name <name> --permission ${required[0]}\`.`
}
