import {readFileSync, statSync} from 'node:fs'
import {basename} from 'node:path'
import type {ApiClient} from '../../api/client.js'
import {listDocuments, sendDocument, type DocumentFile} from '../../api/kyc.js'
import {listPaged} from '../../api/paging.js'
import {InputError, SvcError, type FieldError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {MAX_DOCUMENT_BYTES, sniffMime} from '../../kyc/file-sniff.js'
import {documentUploadFields, type Document, type DocumentUploadFields} from '../../schemas/kyc.js'
import {fieldErrors} from '../../schemas/field-errors.js'
import {io} from '../../io.js'

export interface UploadFlags {
  holder?: string
  type: string
  file: string
  side?: string
  number?: string
  'issuing-authority'?: string
  country?: string
}

const FLAG_OF: Record<string, string> = {
  documentHolder: '--holder',
  documentType: '--type',
  country: '--country',
  side: '--side',
  documentNumber: '--number',
  issuingAuthority: '--issuing-authority',
  file: '--file',
}

/**
 * Everything `kyc documents upload` can know before sending: the metadata against the shared
 * schema, and the file (exists, at most 10 MB, really a PDF, JPEG or PNG by its first bytes).
 * All problems come back in one exit-2 error, named by API field with the flag to fix it.
 */
export function prepareUpload(f: UploadFlags): {fields: DocumentUploadFields; file: DocumentFile} {
  const raw = {
    documentHolder: f.holder,
    documentType: f.type.toUpperCase(),
    country: f.country?.toUpperCase(),
    side: f.side?.toUpperCase(),
    documentNumber: f.number,
    issuingAuthority: f['issuing-authority'],
  }
  const parsed = documentUploadFields.safeParse(
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)),
  )
  const errors: FieldError[] = parsed.success ? [] : fieldErrors(parsed.error)
  const file = readDocument(f.file, errors)
  if (errors.length || !file || !parsed.success) {
    throw new InputError(errors.map((e) => ({...e, message: `${e.message} (${FLAG_OF[e.field] ?? e.field})`})))
  }
  return {fields: parsed.data, file}
}

function readDocument(path: string, errors: FieldError[]): DocumentFile | undefined {
  // `--file -`: the bytes come on stdin (a flow step's `input`, or a pipe); named after their type.
  if (path === '-') return stdinDocument(errors)
  let size: number
  try {
    const st = statSync(path)
    if (!st.isFile()) {
      errors.push({field: 'file', message: `${path} is not a regular file`})
      return undefined
    }
    size = st.size
  } catch (e) {
    errors.push({
      field: 'file',
      message: `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    })
    return undefined
  }
  if (size > MAX_DOCUMENT_BYTES) {
    errors.push({field: 'file', message: `${path} is ${(size / 1024 / 1024).toFixed(1)} MB; the maximum is 10 MB`})
    return undefined
  }
  if (size === 0) {
    errors.push({field: 'file', message: `${path} is empty`})
    return undefined
  }
  const bytes = new Uint8Array(readFileSync(path))
  const type = sniffMime(bytes)
  if (!type) {
    errors.push({field: 'file', message: `${path} is not a PDF, JPEG or PNG (judged by its content, not its name)`})
    return undefined
  }
  return {name: basename(path), bytes, type}
}

function stdinDocument(errors: FieldError[]): DocumentFile | undefined {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(io().readStdin())
  } catch (e) {
    errors.push({
      field: 'file',
      message: `cannot read stdin (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    })
    return undefined
  }
  if (bytes.length > MAX_DOCUMENT_BYTES)
    errors.push({
      field: 'file',
      message: `stdin has ${(bytes.length / 1024 / 1024).toFixed(1)} MB; the maximum is 10 MB`,
    })
  else if (!bytes.length) errors.push({field: 'file', message: 'stdin is empty'})
  const type = bytes.length ? sniffMime(bytes) : undefined
  if (bytes.length && !type)
    errors.push({field: 'file', message: 'stdin is not a PDF, JPEG or PNG (judged by its content)'})
  if (errors.some((e) => e.field === 'file') || !type) return undefined
  return {name: `stdin.${type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg'}`, bytes, type}
}

/** The document `--replace` targets: same holder, type and side (api-gaps 10.1 #2: PUT /documents/{id}). */
export async function existingDocument(client: ApiClient, f: DocumentUploadFields): Promise<Document> {
  const {data} = await listPaged(client, listDocuments(f.documentHolder), {all: true})
  const found = data.find((d) => d.documentType === f.documentType && (d.side ?? undefined) === f.side)
  if (!found) {
    throw new SvcError({
      code: 'NOT_FOUND',
      exitCode: ExitCode.NOT_FOUND,
      message: `${f.documentHolder} has no ${f.documentType}${f.side ? ` ${f.side}` : ''} to replace`,
      hint: 'Upload it without --replace.',
    })
  }
  return found
}

/** The path segment a replace's dry run shows for the document it would look up when sent. */
export const LOOKED_UP_DOCUMENT = '{documentId}'

/**
 * Upload (POST) or replace (PUT on the existing document of that type and side). Everything is
 * checked before the first request. A replace finds the document first (a GET), so its dry run,
 * which sends nothing, shows LOOKED_UP_DOCUMENT in the path.
 */
export function uploadRequest(prepared: ReturnType<typeof prepareUpload>, replaceId?: string) {
  const {fields, file} = prepared
  const {documentHolder: _holder, ...meta} = fields
  return sendDocument(replaceId ? meta : fields, file, replaceId)
}

export async function sendPrepared(client: ApiClient, prepared: ReturnType<typeof prepareUpload>, replace: boolean) {
  const replaceId = replace ? (await existingDocument(client, prepared.fields)).id : undefined
  return {document: await client.call(uploadRequest(prepared, replaceId)), replaced: Boolean(replaceId)}
}
