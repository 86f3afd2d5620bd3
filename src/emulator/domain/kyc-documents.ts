import {createHash} from 'node:crypto'
import type {z} from 'zod'
import {MAX_DOCUMENT_BYTES, imageInfo, sniffMime} from '../../lib/kyc/file-sniff.js'
import {fieldErrors} from '../../lib/schemas/field-errors.js'
import {HttpError, invalid} from '../http-error.js'
import type {EmuRequest} from '../router.js'

/**
 * Document intake for POST /documents and PUT /documents/{id}: the multipart body is parsed by
 * undici (never by hand), the text parts are checked with the shared schema and the file by its
 * content, and every problem is reported at once before anything is stored.
 */
export interface Upload {
  fields: Record<string, string>
  file?: {name: string; bytes: Uint8Array}
}

/** Photos below this on their shorter side cannot show four corners in focus (our sandbox rule). */
export const MIN_IMAGE_SIDE_PX = 300

export async function readUpload(req: EmuRequest): Promise<Upload> {
  const type = String(req.headers['content-type'] ?? '')
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw invalid([{field: '(body)', message: 'must be multipart/form-data (fields plus a `file` part)'}])
  }
  const {Response} = await import('undici')
  let form: Awaited<ReturnType<InstanceType<typeof Response>['formData']>>
  try {
    form = await new Response(req.rawBody, {headers: {'content-type': type}}).formData()
  } catch (e) {
    throw invalid([{field: '(body)', message: `is not a readable multipart body (${(e as Error).message})`}])
  }
  const upload: Upload = {fields: {}}
  const extra: string[] = []
  for (const [name, value] of form) {
    if (typeof value === 'string') upload.fields[name] = value
    else if (name === 'file' && !upload.file)
      upload.file = {name: value.name || 'upload', bytes: new Uint8Array(await value.arrayBuffer())}
    else extra.push(name)
  }
  if (extra.length)
    throw invalid(extra.map((field) => ({field, message: 'is not a known file part (send one part named `file`)'})))
  return upload
}

/** Field and file problems together; throws 400 INVALID_INPUT listing all of them. */
export function checkUpload<S extends z.ZodType>(
  schema: S,
  fields: Record<string, unknown>,
  file: Upload['file'],
  fileRequired: boolean,
): z.infer<S> {
  const r = schema.safeParse(fields)
  const errors = r.success ? [] : fieldErrors(r.error)
  if (!file) {
    if (fileRequired) errors.push({field: 'file', message: 'is required (a PDF, JPEG or PNG of at most 10 MB)'})
  } else if (file.bytes.length === 0) errors.push({field: 'file', message: 'is empty'})
  else {
    if (file.bytes.length > MAX_DOCUMENT_BYTES)
      errors.push({field: 'file', message: `is ${file.bytes.length} bytes; the maximum is 10 MB`})
    if (!sniffMime(file.bytes))
      errors.push({field: 'file', message: 'must be a PDF, JPEG or PNG (judged by its content, not its name)'})
  }
  if (errors.length) throw invalid(errors)
  return (r as {data: z.infer<S>}).data
}

/**
 * Spec 4.2 rule 4: a photo must show all four corners, in focus and in colour. The sandbox judges
 * from the image header, deterministically: a greyscale image, or one whose shorter side is below
 * 300 px, is rejected with 422 DOCUMENT_REJECTED. PDFs are not judged.
 */
export function judgePhoto(bytes: Uint8Array): void {
  const mime = sniffMime(bytes)
  if (mime === 'application/pdf') return
  const info = imageInfo(bytes)
  if (!info) throw new HttpError(422, 'DOCUMENT_REJECTED', 'The image header cannot be read', {reason: 'UNREADABLE'})
  if (!info.colour)
    throw new HttpError(422, 'DOCUMENT_REJECTED', 'The photo is not in colour', {
      reason: 'LOW_QUALITY',
      rule: 'COLOUR',
      ...info,
    })
  if (Math.min(info.width, info.height) < MIN_IMAGE_SIDE_PX) {
    throw new HttpError(
      422,
      'DOCUMENT_REJECTED',
      `The photo is ${info.width}x${info.height} px; below ${MIN_IMAGE_SIDE_PX} px on a side it cannot show all four corners in focus`,
      {reason: 'LOW_QUALITY', rule: 'MIN_SIDE_PX', minSidePx: MIN_IMAGE_SIDE_PX, ...info},
    )
  }
}

export function fileFacts(file: NonNullable<Upload['file']>) {
  return {
    fileName: file.name,
    mimeType: sniffMime(file.bytes)!,
    size: file.bytes.length,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
  }
}
