import * as z from 'zod'
import {withArticle} from '../article.js'

/** `<Type>:<opaque>`; the prefix is checked so a Quote id never reaches a customer endpoint. */
export function idOf(type: string) {
  return z
    .string()
    .regex(new RegExp(`^${type}:[A-Za-z0-9_-]{1,128}$`), {message: `must be ${withArticle(type)} id (${type}:<id>)`})
}

export const ID_PATTERN = /^[A-Z][A-Za-z]+:[A-Za-z0-9_-]{1,128}$/
