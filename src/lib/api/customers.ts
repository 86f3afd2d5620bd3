import type {CustomerCreateRequest, CustomerUpdateRequest} from '../schemas/customer.js'
import {customerSchema, endUserTermsSchema} from '../schemas/customer-response.js'
import {apiRequest, type ApiRequest, type Query} from './request.js'
import {listRequest} from './paging.js'

/**
 * The contract gives customer create no Idempotency-Key, so a lost answer cannot be finished by a
 * re-send: its hint says how to look for the customer first (by platformCustomerId when it has one).
 */
export function createCustomer(body: CustomerCreateRequest, now = new Date()) {
  const id = (body as {platformCustomerId?: string}).platformCustomerId
  const look = id
    ? `svc customers list --platform-id ${id}`
    : `svc customers list --created-after ${new Date(now.getTime() - 60_000).toISOString()}`
  return apiRequest(
    {
      method: 'POST',
      path: ['customers'],
      body,
      hints: {
        OUTCOME_UNKNOWN: `Customer create carries no Idempotency-Key, so running it again may make a second customer: look for it first with \`${look}\`, and create it only if it is not there.`,
      },
    },
    customerSchema,
    'customer',
  )
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
