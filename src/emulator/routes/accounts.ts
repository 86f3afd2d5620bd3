import {z} from 'zod'
import {idOf} from '../../lib/schemas/common.js'
import type {InternalAccount} from '../domain/internal-accounts.js'
import type {Emulator} from '../emulator.js'
import {validate} from '../http-error.js'
import {paginate} from '../paging.js'
import type {EmuRequest, Router} from '../router.js'

const query = z.strictObject({
  customerId: idOf('Customer').optional(),
  currency: z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code'}).optional(),
  type: z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})

function matching(emu: Emulator, req: EmuRequest, platformOnly = false): InternalAccount[] {
  const q = validate(query, Object.fromEntries(req.query))
  return emu.db
    .all<InternalAccount>('internalAccounts')
    .filter((a) => (platformOnly ? !a.customerId : !q.customerId || a.customerId === q.customerId))
    .filter((a) => !q.currency || a.balance.currency.code === q.currency)
    .filter((a) => !q.type || a.type === q.type)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
}

/** Internal accounts: the seed's `GET /internal-account` and the published aliases (api-gaps 3.1, 10.1). */
export function registerAccounts(router: Router, emu: Emulator): void {
  const list = (req: EmuRequest) => ({status: 200, body: paginate(matching(emu, req), req.query)})
  router.get('/internal-account', list)
  router.get('/customers/internal-accounts', list)
  router.get('/platform/internal-accounts', (req) => ({status: 200, body: {data: matching(emu, req, true)}}))
}
