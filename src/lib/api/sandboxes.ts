import {
  SNAPSHOT_CONTENT_TYPE,
  sandboxCreated,
  sandboxInfo,
  sandboxList,
  type SandboxCreateRequest,
} from '../schemas/sandboxes.js'
import type {ApiRequest} from './client.js'
import {apiRequest} from './request.js'

/** Team sandboxes (`svc sandbox serve --multi`): the admin routes, under the server's version prefix. */
const ADMIN = ['sandbox', 'sandboxes']

export function createSandbox(body: SandboxCreateRequest) {
  return apiRequest({method: 'POST', path: ADMIN, body}, sandboxCreated, 'new sandbox')
}

/** A sandbox branched from a snapshot: the file is the body (sent as bytes), the name in the query. */
export function createSandboxFromSnapshot(name: string, sizeBytes: number) {
  return apiRequest(
    {method: 'POST', path: ADMIN, query: {name}, headers: {'content-type': SNAPSHOT_CONTENT_TYPE}},
    sandboxCreated,
    `new sandbox (snapshot of ${sizeBytes} bytes)`,
  )
}

export function listSandboxes() {
  return apiRequest({method: 'GET', path: ADMIN}, sandboxList, 'sandbox list')
}

export function getSandbox(name: string) {
  return apiRequest({method: 'GET', path: [...ADMIN, name]}, sandboxInfo, 'sandbox')
}

export function deleteSandbox(name: string): ApiRequest {
  return {method: 'DELETE', path: [...ADMIN, name]}
}

export function resetSandbox(name: string): ApiRequest {
  return {method: 'POST', path: [...ADMIN, name, 'reset']}
}
