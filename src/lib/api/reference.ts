import {
  exchangeRateListSchema,
  institutionListSchema,
  umaProviderSchema,
  vaspSchema,
  type ExchangeRatesQuery,
} from '../schemas/reference.js'
import type {ApiClient} from './client.js'
import {listPaged, type PageOptions} from './list.js'

export async function getExchangeRates(client: ApiClient, q: ExchangeRatesQuery) {
  const res = await client.request({method: 'GET', path: ['exchange-rates'], query: q})
  return client.parse(exchangeRateListSchema, res.body, 'exchange rates').data
}

export async function listUmaProviders(
  client: ApiClient,
  query: Record<string, string | undefined>,
  page: PageOptions,
) {
  return listPaged(client, ['uma-providers'], query, umaProviderSchema, page, 'UMA provider list')
}

export async function listVasps(client: ApiClient, page: PageOptions) {
  return listPaged(client, ['vasps'], {}, vaspSchema, page, 'VASP list')
}

export async function listInstitutions(client: ApiClient, query: {country?: string; currency?: string}) {
  const res = await client.request({method: 'GET', path: ['discoveries'], query})
  return client.parse(institutionListSchema, res.body, 'institution list').data ?? []
}
