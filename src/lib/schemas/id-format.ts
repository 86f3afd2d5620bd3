import {withArticle} from '../article.js'

/** `<Type>:<opaque>`; the prefix is checked so a Quote id never reaches a customer endpoint. */
export const idRegex = (type: string) => new RegExp(`^${type}:[A-Za-z0-9_-]{1,128}$`)

export const idMessage = (type: string) => `must be ${withArticle(type)} id (${type}:<id>)`
