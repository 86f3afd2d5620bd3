import {type AuthzEntry, READ, MANAGE, SESSION, op} from './build.js'

/** Strong customer authentication: enrolment is the customer's set-up (MANAGE); logging in and authorizing a payment serve a payment (TRANSACT). */
export const SCA: readonly AuthzEntry[] = [
  op('GET', '/sca/factors', 'listScaFactors', READ),
  op('POST', '/sca/factors', 'startScaFactorEnrollment', MANAGE),
  op('POST', '/sca/factors/confirm', 'confirmScaFactorEnrollment', MANAGE),
  op('DELETE', '/sca/factors/{credentialId}', 'deleteScaFactor', MANAGE),
  op('POST', '/sca/login/start', 'startScaLogin', SESSION, {
    note: 'A payment under SCA needs a session: TRANSACT may log in, as MANAGE may.',
  }),
  op('POST', '/sca/login/complete', 'completeScaLogin', SESSION, {note: 'As startScaLogin.'}),
  op('POST', '/sca/record-event', 'recordSecurityEvent', SESSION, {
    note: 'Feeds the risk engine with sign-ins and sensitive views: part of a session, as login is.',
  }),
  op('POST', '/sca/factors/reset', 'startTwoFactorReset', MANAGE),
  op('GET', '/sca/factors/reset/{resetId}', 'getTwoFactorResetStatus', READ),
  op('POST', '/sca/factors/reset/{resetId}/complete', 'completeTwoFactorReset', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/trust', 'startBeneficiaryTrust', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/trust/confirm', 'confirmBeneficiaryTrust', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/untrust', 'startBeneficiaryUntrust', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/untrust/confirm', 'confirmBeneficiaryUntrust', MANAGE),
]
