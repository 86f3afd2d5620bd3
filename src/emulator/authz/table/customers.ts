import {type AuthzEntry, READ, MANAGE, UPLOAD_MAX_BODY, op} from './build.js'

/** Customers, KYC/KYB, contact verification */
export const CUSTOMERS: readonly AuthzEntry[] = [
  op('GET', '/customers', 'listCustomers', READ),
  op('POST', '/customers', 'createCustomer', MANAGE),
  op('GET', '/customers/{customerId}', 'getCustomerById', READ),
  op('PATCH', '/customers/{customerId}', 'updateCustomerById', MANAGE, {walletSignature: 'wallet-contact'}),
  op('DELETE', '/customers/{customerId}', 'deleteCustomerById', MANAGE),
  op('GET', '/customers/end-user-terms', 'getEndUserTerms', READ),
  op('POST', '/customers/{customerId}/kyc-link', 'createCustomerKycLink', MANAGE, {
    idempotency: {scope: 'kyc-link|{customerId}'},
  }),
  op('POST', '/customers/{customerId}/verify-email', 'sendCustomerEmailVerification', MANAGE),
  op('POST', '/customers/{customerId}/verify-email/confirm', 'confirmCustomerEmailVerification', MANAGE),
  op('POST', '/customers/{customerId}/verify-phone', 'sendCustomerPhoneVerification', MANAGE),
  op('POST', '/customers/{customerId}/verify-phone/confirm', 'confirmCustomerPhoneVerification', MANAGE),
  op('POST', '/customers/bulk/csv', 'uploadCustomersCsv', MANAGE, {maxBody: UPLOAD_MAX_BODY}),
  op('GET', '/customers/bulk/jobs/{jobId}', 'getBulkCustomerImportJob', READ),
  op('GET', '/beneficial-owners', 'listBeneficialOwners', READ),
  op('POST', '/beneficial-owners', 'createBeneficialOwner', MANAGE),
  op('GET', '/beneficial-owners/{beneficialOwnerId}', 'getBeneficialOwner', READ),
  op('PATCH', '/beneficial-owners/{beneficialOwnerId}', 'updateBeneficialOwner', MANAGE),
  op('GET', '/documents', 'listDocuments', READ),
  op('POST', '/documents', 'uploadDocument', MANAGE, {maxBody: UPLOAD_MAX_BODY}),
  op('GET', '/documents/{documentId}', 'getDocument', READ),
  op('PUT', '/documents/{documentId}', 'replaceDocument', MANAGE, {maxBody: UPLOAD_MAX_BODY}),
  op('DELETE', '/documents/{documentId}', 'deleteDocument', MANAGE),
  op('GET', '/verifications', 'listVerifications', READ),
  op('POST', '/verifications', 'createVerification', MANAGE),
  op('GET', '/verifications/{verificationId}', 'getVerification', READ),
]
