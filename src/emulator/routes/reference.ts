import {discoveriesQuery, exchangeRatesQuery, umaProvidersQuery, vaspsQuery} from '../../lib/schemas/reference.js'
import {exchangeRates} from '../domain/exchange-rates.js'
import {INSTITUTIONS, UMA_PROVIDERS, VASPS} from '../domain/reference-data.js'
import {validate} from '../http-error.js'
import {paginate, pagingErrors} from '../paging.js'
import type {Router} from '../router.js'

const query = (q: URLSearchParams, repeated: string[] = []) => {
  const o: Record<string, unknown> = Object.fromEntries(q)
  for (const k of repeated) if (q.has(k)) o[k] = q.getAll(k)
  return o
}
const withoutPlace = <T extends {id: string; createdAt: string}>({id: _i, createdAt: _c, ...rest}: T) => rest

/** Exchange rates and the reference directories: UMA providers, VASPs, receiving institutions. */
export function registerReference(router: Router): void {
  router.handle('getExchangeRates', (req, ctx) => {
    const q = validate(exchangeRatesQuery, query(req.query, ['destinationCurrency']))
    return {status: 200, body: {data: exchangeRates(ctx, q)}}
  })

  router.handle('getAvailableUmaProviders', (req) => {
    const q = validate(umaProvidersQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const order = q.sortOrder ?? 'desc'
    const matching = UMA_PROVIDERS.filter(
      (p) =>
        (!q.countryCode || p.supportedRegions.includes(q.countryCode)) &&
        (!q.currencyCode || p.supportedCurrencies.some((c) => c.code === q.currencyCode)) &&
        (q.hasBlockedProviders !== 'false' || p.allowListStatus),
    )
    const sorted = order === 'desc' ? [...matching].reverse() : matching
    const page = paginate(sorted, req.query, order)
    return {status: 200, body: {...page, data: page.data.map(withoutPlace)}}
  })

  router.handle('listVasps', (req) => {
    validate(vaspsQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const {totalCount: _t, ...page} = paginate(VASPS, req.query)
    return {status: 200, body: {...page, data: page.data.map(withoutPlace)}}
  })

  router.handle('getDiscoveries', (req) => {
    const q = validate(discoveriesQuery, Object.fromEntries(req.query))
    return {
      status: 200,
      body: {
        data: INSTITUTIONS.filter(
          (i) => (!q.country || i.country === q.country) && (!q.currency || i.currency === q.currency),
        ),
      },
    }
  })
}
