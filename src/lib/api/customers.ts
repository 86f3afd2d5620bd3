import type {CustomerCreateRequest, CustomerUpdateRequest} from '../schemas/customer.js'
import {customerSchema, endUserTermsSchema} from '../schemas/customer-response.js'
import {apiRequest, type ApiRequest, type Query} from './request.js'
import {listRequest} from './paging.js'

export function createCustomer(body: CustomerCreateRequest) {
  return apiRequest({method: 'POST', path: ['customers'], body}, customerSchema, 'customer')
}

export function getCustomer(id: string) {
  return apiRequest({method: 'GET', path: ['customers', id]}, customerSchema, 'customer')
}

export function listCustomers(query: Query) {
  return listRequest(['customers'], query, customerSchema, 'customer list')
}

/** The raw answer is kept (the caller reads a wallet challenge from a 202 as well as a customer). */
export function updateCustomer(id: string, body: CustomerUpdateRequest, headers?: Record<string, string>): ApiRequest {
  return {method: 'PATCH', path: ['customers', id], body, headers}
}

export function deleteCustomer(id: string) {
  return apiRequest({method: 'DELETE', path: ['customers', id]}, customerSchema, 'customer')
}

export function getEndUserTerms() {
  return apiRequest({method: 'GET', path: ['customers', 'end-user-terms']}, endUserTermsSchema, 'end-user terms')
}
