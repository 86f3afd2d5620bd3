import type {CustomerCreateRequest, CustomerUpdateRequest} from '../schemas/customer.js'
import {customerSchema, endUserTermsSchema} from '../schemas/customer-response.js'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'
import {listPaged, type PageOptions} from './list.js'

export function createCustomer(body: CustomerCreateRequest) {
  return apiRequest({method: 'POST', path: ['customers'], body}, customerSchema, 'customer')
}

export async function getCustomer(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['customers', id]})
  return client.parse(customerSchema, res.body, 'customer')
}

export async function listCustomers(
  client: ApiClient,
  query: Record<string, string | number | undefined>,
  page: PageOptions,
) {
  return listPaged(client, ['customers'], query, customerSchema, page, 'customer list')
}

export async function updateCustomer(
  client: ApiClient,
  id: string,
  body: CustomerUpdateRequest,
  headers?: Record<string, string>,
) {
  return client.request({method: 'PATCH', path: ['customers', id], body, headers})
}

export function deleteCustomer(id: string) {
  return apiRequest({method: 'DELETE', path: ['customers', id]}, customerSchema, 'customer')
}

export async function getEndUserTerms(client: ApiClient) {
  const res = await client.request({method: 'GET', path: ['customers', 'end-user-terms']})
  return client.parse(endUserTermsSchema, res.body, 'end-user terms')
}
