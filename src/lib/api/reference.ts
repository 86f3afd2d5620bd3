import {
  exchangeRateListSchema,
  institutionListSchema,
  umaProviderSchema,
  vaspSchema,
  type ExchangeRatesQuery,
} from '../schemas/reference.js'
import {apiRequest} from './request.js'
import {listRequest} from './paging.js'

/** One answer, not paged: the rates are in `data`. */
export function getExchangeRates(query: ExchangeRatesQuery) {
  return apiRequest({method: 'GET', path: ['exchange-rates'], query}, exchangeRateListSchema, 'exchange rates')
}

export function listUmaProviders(query: Record<string, string | undefined>) {
  return listRequest(['uma-providers'], query, umaProviderSchema, 'UMA provider list')
}

export function listVasps() {
  return listRequest(['vasps'], {}, vaspSchema, 'VASP list')
}

/** One answer, not paged: the institutions are in `data` (absent when there are none). */
export function listInstitutions(query: {country?: string; currency?: string}) {
  return apiRequest({method: 'GET', path: ['discoveries'], query}, institutionListSchema, 'institution list')
}
