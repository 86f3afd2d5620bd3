import * as z from 'zod'
import {idOf} from '../../lib/schemas/common.js'
import {validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {EmuRequest, Router} from '../router.js'
import {internalAccounts, pageInternalAccounts} from '../store/accounts.js'

const query = z.strictObject({
  customerId: idOf('Customer').optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code'})
    .optional(),
  type: z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})

/** Internal accounts: the seed's `GET /internal-account` and the published aliases (api-gaps 3.1, 10.1). */
export function registerAccounts(router: Router): void {
  const list = (req: EmuRequest) => {
    const q = validate(query, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageInternalAccounts(req.ctx.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (a) => a)}
  }
  router.handle('GET /internal-account', list)
  router.handle('listCustomerInternalAccounts', list)
  router.handle('listPlatformInternalAccounts', (req, ctx) => {
    const q = validate(query, Object.fromEntries(req.query))
    return {status: 200, body: {data: internalAccounts(ctx.db, {...q, customerId: null})}}
  })
}
