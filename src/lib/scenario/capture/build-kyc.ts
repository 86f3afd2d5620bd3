import {customerBody, fakeField, ownerPersonalInfo, STATUS_SUFFIX} from './build-kyc-bodies.js'
import {expand, missingItems, presentItems, reproducible, type Item} from './build-kyc-items.js'
import type {Fakes} from './fakes.js'
import type {Doc, Situation} from './read.js'
import {PLACEHOLDER_PDF, type StepList} from './steps.js'

/**
 * Onboarding: the customer (and a business's owners) created with faked personal data, then every
 * submission replayed in order, each withholding what the remote's submission reported missing, so
 * the same RESOLVE_ERRORS come back; the final decision is driven by the sandbox's name suffix
 * (registration number for businesses) chosen from the observed status.
 */

export function onboardingSteps(s: Situation, fakes: Fakes, out: StepList): void {
  const c = s.customer
  const business = c.customerType === 'BUSINESS'
  const status = String((business ? c.kybStatus : c.kycStatus) ?? 'UNVERIFIED')
  const missing = s.verifications.map((v) => expand(s, missingItems(v, out)))
  // What each submission lacked; what the remote has now and was never reported missing is there from the start.
  const withheldAtStart = new Set(missing[0] ?? [])
  const statusSuffix = STATUS_SUFFIX[status]
  if (statusSuffix === undefined && status !== 'UNVERIFIED')
    out.cannot(`${business ? 'kybStatus' : 'kycStatus'} ${status} (no sandbox control decides it)`)

  const body = customerBody(c, fakes, statusSuffix ?? '', withheldAtStart)
  out.add({
    name: `create the ${business ? 'business' : 'customer'} (personal data faked)`,
    api: {method: 'POST', path: '/customers', body},
    capture: {customer: 'id'},
    expect: {equals: {customerType: c.customerType}},
  })

  const added = new Set<Item>()
  const addItem = (item: Item) => {
    if (added.has(item) || !presentItems(s).includes(item)) return
    // An owner's documents wait for the owner.
    if (item.startsWith('docs:') && item.slice(5) !== c.id && !added.has(`owner:${item.slice(5)}`)) return
    added.add(item)
    itemSteps(s, item, fakes, out)
  }
  const allItems = presentItems(s)
  for (const item of allItems) if (!withheldAtStart.has(item) && !item.startsWith('field:')) addItem(item)
  for (const item of allItems) if (item.startsWith('field:') && !withheldAtStart.has(item)) added.add(item)

  s.verifications.forEach((v, i) => {
    // Before this submission: what the previous one lacked and this one does not.
    for (const item of allItems) if (!missing[i].includes(item)) addItem(item)
    const errors = (v.errors as Doc[]) ?? []
    const kept = errors.filter(reproducible)
    if (errors.length && !kept.length)
      return out.cannot(`submission ${i + 1} (${v.id}): none of its errors can be produced here, so it is not replayed`)
    const equals: Record<string, unknown> = {verificationStatus: v.verificationStatus}
    // With an error nothing here produces, only the status is checked (the list would differ).
    if (kept.length === errors.length) {
      equals['errors.length'] = errors.length
      errors.forEach((e, k) => {
        equals[`errors[${k}].type`] = e.type
        if (e.field) equals[`errors[${k}].field`] = e.field
      })
    }
    out.add({
      name: `submission ${i + 1} of ${s.verifications.length}: ${v.verificationStatus}${kept.length ? ` (${kept.map((e) => e.field ?? e.type).join(', ')})` : ''}`,
      svc: ['kyc', 'submit', '${customer}'],
      expect: {exit: v.verificationStatus === 'RESOLVE_ERRORS' ? 6 : 0, equals},
    })
  })
  // What the remote received after its last submission.
  for (const item of allItems) addItem(item)

  const last = s.verifications.at(-1)
  if (!last && !business && (status === 'APPROVED' || status === 'REJECTED')) {
    // An individual decided without a submission was decided at creation: the sandbox does that under
    // skipVerificationPaperwork (the journey's own setup). Submitting the packet instead would fail on the
    // fields such a customer never needed (birthDate, nationality, address: RESOLVE_ERRORS).
    out.sandbox.skipVerificationPaperwork = true
    out.note(
      `The remote shows ${status} without any submission: decided at creation, as the sandbox does under skipVerificationPaperwork (set in this flow's sandbox: block).`,
    )
  } else if (!last && ['APPROVED', 'REJECTED', 'HOLD', 'PENDING'].includes(status)) {
    out.note(
      `The remote shows ${status} without any submission (e.g. a regulated platform); the flow submits the packet it has.`,
    )
    out.add({name: 'submit for verification', svc: ['kyc', 'submit', '${customer}']})
  }
  const prefix = business ? 'CUSTOMER.KYB_' : 'CUSTOMER.KYC_'
  if ((last?.verificationStatus === 'IN_PROGRESS' || !last) && (status === 'APPROVED' || status === 'REJECTED')) {
    out.add({
      name: `the decision lands: ${status}`,
      webhook: {type: `${prefix}${status}`, where: {'data.id': '${customer}'}},
      timeout: '60s',
    })
  }
  out.add({
    name: `the ${business ? 'business' : 'customer'} reads ${status}`,
    api: {method: 'GET', path: '/customers/${customer}'},
    expect: {equals: {[business ? 'kybStatus' : 'kycStatus']: status}},
    ...(status === 'HOLD' ? {timeout: '60s'} : {}),
  })
}

/** The steps that add one item to the rebuilt customer. */
function itemSteps(s: Situation, item: Item, fakes: Fakes, out: StepList): void {
  const c = s.customer
  const [kind, rest] = [
    item.slice(0, item.indexOf(':') < 0 ? item.length : item.indexOf(':')),
    item.slice(item.indexOf(':') + 1),
  ]
  if (kind === 'terms')
    return out.add({name: 'accept the end-user terms', svc: ['customers', 'terms', '${customer}', '--accept']})
  if (kind === 'contact') {
    out.add({name: `send the ${rest} verification code`, svc: ['kyc', `verify-${rest}`, '${customer}']})
    return out.add({
      name: `confirm the ${rest} (sandbox code 123456)`,
      svc: ['kyc', `confirm-${rest}`, '${customer}', '--code', '123456'],
    })
  }
  if (kind === 'field') {
    const patch: Record<string, unknown> = {customerType: c.customerType}
    const value = fakeField(c, rest, fakes)
    if (rest.startsWith('businessInfo.')) patch.businessInfo = {[rest.slice('businessInfo.'.length)]: value}
    else Object.assign(patch, rest === 'idType' ? {idType: c.idType, identifier: value} : {[rest]: value})
    return out.add({
      name: `add the ${rest === 'idType' ? 'tax id' : rest}`,
      api: {method: 'PATCH', path: '/customers/${customer}', body: patch},
    })
  }
  if (kind === 'owner')
    return ownerStep(
      s,
      s.owners.find((x) => x.id === rest)!,
      fakes,
      out,
    )
  if (kind === 'docs') {
    const holder = rest === c.id ? '${customer}' : `\${${ownerVar(s, rest)}}`
    for (const d of s.documents[rest] ?? []) {
      const args = ['kyc', 'documents', 'upload', '--holder', holder, '--type', d.documentType, '--file', '-']
      if (d.side) args.push('--side', d.side)
      if (d.documentNumber) args.push('--number', fakes.documentNumber(String(d.documentNumber)))
      if (d.issuingAuthority) args.push('--issuing-authority', String(d.issuingAuthority))
      if (d.country) args.push('--country', String(d.country))
      out.add({
        name: `upload a placeholder ${d.documentType}${d.side ? ` ${d.side}` : ''} (kind only; the file is not copied)`,
        svc: args,
        input: PLACEHOLDER_PDF,
        expect: {equals: {documentType: d.documentType}},
      })
    }
  }
}

function ownerVar(s: Situation, id: string): string {
  return `owner${s.owners.findIndex((o) => o.id === id) + 1}`
}

function ownerStep(s: Situation, o: Doc, fakes: Fakes, out: StepList): void {
  const personalInfo = ownerPersonalInfo(o, fakes)
  out.add({
    name: `add owner ${ownerVar(s, o.id).slice(5)} (${(o.roles as string[]).join(', ')}, ${o.ownershipPercentage}%)`,
    api: {
      method: 'POST',
      path: '/beneficial-owners',
      body: {customerId: '${customer}', roles: o.roles, ownershipPercentage: o.ownershipPercentage, personalInfo},
    },
    capture: {[ownerVar(s, o.id)]: 'id'},
  })
}
