/**
 * zod's mini build, for the answers read on the hottest paths (`customers get`, every list page).
 * It builds schemas with zod's core alone: a command that uses only these never evaluates classic
 * zod's module (docs/performance.md has what that buys). Its schemas parse like classic ones and
 * mix with them (an item schema of either kind fits in a page); ApiClient.parse takes both.
 *
 * mini leaves issue messages generic until a locale is set, where classic zod sets English on its
 * first schema: setting it here gives the same messages whichever of the two loads first.
 */
import * as z from 'zod/mini'
import en from 'zod/v4/locales/en.js'

if (!z.core.globalConfig.localeError) z.config(en())

export {z}
