import {type AuthzEntry, READ, MANAGE, op} from './build.js'

/** API tokens */
export const TOKENS: readonly AuthzEntry[] = [
  op('GET', '/tokens', 'listTokens', READ, {note: 'Tokens are listed without secrets: "view all data".'}),
  op('POST', '/tokens', 'createToken', MANAGE),
  op('GET', '/tokens/{tokenId}', 'getTokenById', READ),
  op('DELETE', '/tokens/{tokenId}', 'deleteTokenById', MANAGE),
]
