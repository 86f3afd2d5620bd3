import {randomUUID} from 'node:crypto'

/** `<Type>:<uuid>` as the published spec forms ids. */
export function newId(type: string): string {
  return `${type}:${randomUUID()}`
}
