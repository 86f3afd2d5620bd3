import type * as zc from 'zod/v4/core'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** An array value repeats the parameter (destinationCurrency=INR&destinationCurrency=GBP). */
export type Query = Record<string, string | number | boolean | string[] | undefined>

/** A response schema: anything zod builds that carries safeParse. */
export type ResponseSchema = zc.$ZodType & {
  safeParse(data: unknown, params?: {jitless?: boolean}): zc.util.SafeParseResult<unknown>
}

/** A file sent as multipart/form-data; the transport encodes it when it sends. */
export interface Upload {
  fields: Record<string, string | undefined>
  file: {name: string; bytes: Uint8Array; type: string}
}

/**
 * A request as data: what an API module function returns, what the one transport (ApiClient)
 * sends, and what --dry-run prints (ApiClient.describe). Written once, so the preview and the
 * real request cannot drift apart.
 */
export interface ApiRequest<T = unknown> {
  method: Method
  /** Path segments are encoded one by one: ['customers', 'Customer:1'] -> /customers/Customer%3A1 */
  path: string[]
  query?: Query
  body?: unknown
  upload?: Upload
  headers?: Record<string, string>
  /**
   * Sent with the command's Idempotency-Key (ApiClient.idempotencyKey mints or takes it). A command
   * that sends several keyed requests gives each a scope: `run-42` and `run-42:execute`.
   */
  idempotency?: {scope?: string}
  /**
   * Authorised by a stamp of a wallet session (Service-Wallet-Signature), over the challenge the
   * Service answers with (or, for quotes, the quote's payloadToSign). `ifAsked`: only when the
   * Service asks (a customer update that touches a wallet-tied email).
   */
  walletSignature?: {accountId?: string; ifAsked?: boolean}
  /**
   * A read that can tell whether this write took effect when its answer is lost (a quote's status
   * after execute): never sent unless the answer is lost. `landed` says what the read found, and
   * `done` when the write surely took effect (the read's answer then stands for the write's).
   */
  readBack?: {request: ApiRequest; landed: (body: unknown) => {done: boolean; said: string}}
  /** A hint for an error answer with this code, where the request knows better than the catalogue: never sent. */
  hints?: Record<string, string>
  /**
   * How to read the answer: never sent, never shown. `load` instead of `schema`: the schema's module
   * is evaluated only when an answer is read, so a command does not build the schemas of answers
   * its module could ask for but it never reads (e.g. `agents list` and the quote of `agents me quote`).
   */
  response?: {schema?: ResponseSchema; load?: () => Promise<ResponseSchema>; what: string; _type?: T}
}

/** An answer schema from a module imported at first use (see ApiRequest.response). */
export type LazySchema<S extends ResponseSchema> = () => Promise<S>

/** The schema that reads a request's answer, loading it if the request names it lazily. */
export async function responseSchema(res: NonNullable<ApiRequest['response']>): Promise<ResponseSchema> {
  return res.schema ?? (await res.load!())
}

/** An API request whose answer is read with `schema` (`what` names it in a mismatch message). */
export function apiRequest<S extends ResponseSchema>(
  req: Omit<ApiRequest, 'response'>,
  schema: S | LazySchema<S>,
  what: string,
): ApiRequest<zc.output<S>> {
  return {...req, response: typeof schema === 'function' ? {load: schema, what} : {schema, what}}
}
