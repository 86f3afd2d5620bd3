import {documentReplaceFields, documentUploadFields} from '../../lib/schemas/kyc.js'
import {checkUpload, fileFacts, judgePhoto, readUpload} from '../domain/kyc-documents.js'
import {
  documentsOf,
  holderCustomer,
  publicDocument,
  refuseWhileUnderReview,
  statusOf,
  type StoredDocument,
} from '../domain/kyc-records.js'
import type {SandboxContext} from '../context.js'
import {HttpError, conflict, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {pageFrom, paginate, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {pageDocuments} from '../store/kyc.js'

/** Documents (spec 2.3, 4.2 rule 4; api-gaps 2.2): one per holder, type and side. */
export function registerDocuments(router: Router): void {
  router.handle('uploadDocument', async (req, ctx) => {
    const {fields, file} = await readUpload(req)
    const meta = checkUpload(documentUploadFields, fields, file, true)
    const owner = holderCustomer(ctx, meta.documentHolder)
    if (!owner || owner.isDeleted) throw notFound('DOCUMENT_HOLDER_NOT_FOUND', `Document holder ${meta.documentHolder}`)
    refuseWhileUnderReview(owner, 'documents')
    const existing = documentsOf(ctx, meta.documentHolder).find(
      (d) => d.documentType === meta.documentType && d.side === meta.side,
    )
    if (existing) {
      throw conflict(
        'DOCUMENT_ALREADY_EXISTS',
        `${meta.documentHolder} already has a ${meta.documentType}${meta.side ? ` ${meta.side}` : ''} (${existing.id}); replace it with PUT /documents/${existing.id}`,
        {documentId: existing.id},
      )
    }
    judgePhoto(file!.bytes)
    const now = ctx.iso()
    const doc: StoredDocument = {id: newId('Document'), ...meta, ...fileFacts(file!), createdAt: now, updatedAt: now}
    ctx.db.put('documents', doc.id, doc)
    return {status: 201, body: publicDocument(doc)}
  })

  router.handle('replaceDocument', async (req, ctx) => {
    const doc = getDocument(ctx, req.params.documentId)
    const {fields, file} = await readUpload(req)
    if ('documentHolder' in fields) throw invalid([{field: 'documentHolder', message: 'cannot change on replace'}])
    const {
      id: _i,
      documentHolder,
      fileName: _f,
      mimeType: _m,
      size: _s,
      sha256: _h,
      createdAt: _c,
      updatedAt: _u,
      ...current
    } = doc
    // Metadata not sent is kept; the merged document must still satisfy the rules.
    const meta = checkUpload(documentReplaceFields, {...current, ...fields}, file, false)
    refuseWhileSubmitted(ctx, doc)
    const clash = documentsOf(ctx, documentHolder).find(
      (d) => d.id !== doc.id && d.documentType === meta.documentType && d.side === meta.side,
    )
    if (clash)
      throw conflict('DOCUMENT_ALREADY_EXISTS', `${documentHolder} already has a ${meta.documentType} (${clash.id})`, {
        documentId: clash.id,
      })
    if (file) judgePhoto(file.bytes)
    const next: StoredDocument = {
      ...doc,
      side: undefined,
      ...meta,
      ...(file ? fileFacts(file) : {}),
      updatedAt: ctx.iso(),
    }
    ctx.db.put('documents', doc.id, next)
    return {status: 200, body: publicDocument(next)}
  })

  router.handle('listDocuments', (req, ctx) => {
    const holder = req.query.get('documentHolder')
    if (holder) return {status: 200, body: paginate(documentsOf(ctx, holder).map(publicDocument), req.query)}
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageDocuments(ctx.db, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicDocument)}
  })

  router.handle('getDocument', (req, ctx) => ({
    status: 200,
    body: publicDocument(getDocument(ctx, req.params.documentId)),
  }))

  router.handle('deleteDocument', (req, ctx) => {
    const doc = getDocument(ctx, req.params.documentId)
    refuseWhileSubmitted(ctx, doc)
    ctx.db.del('documents', doc.id)
    return {status: 204}
  })
}

function getDocument(ctx: SandboxContext, id: string): StoredDocument {
  const doc = ctx.db.get<StoredDocument>('documents', id)
  if (!doc) throw notFound('NOT_FOUND', `Document ${id}`)
  return doc
}

/** Documents under review or decided are part of the record (api-gaps 2.2: 409 once submitted). */
function refuseWhileSubmitted(ctx: SandboxContext, doc: StoredDocument): void {
  const c = holderCustomer(ctx, doc.documentHolder)
  const status = c ? statusOf(c) : 'UNVERIFIED'
  if (status === 'PENDING' || status === 'APPROVED' || status === 'REJECTED') {
    throw new HttpError(
      409,
      'INVALID_STATE_TRANSITION',
      `${doc.id} was submitted for verification (${c?.id} is ${status}) and cannot change`,
    )
  }
}
