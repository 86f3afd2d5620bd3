import {z} from 'zod'
import {idMessage, idRegex} from './id-format.js'

/** `<Type>:<opaque>`; the prefix is checked so a Quote id never reaches a customer endpoint. */
export function idOf(type: string) {
  return z.string().regex(idRegex(type), {message: idMessage(type)})
}

export const ID_PATTERN = /^[A-Z][A-Za-z]+:[A-Za-z0-9_-]{1,128}$/
