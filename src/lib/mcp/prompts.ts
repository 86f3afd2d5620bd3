import {usageError} from '../errors.js'

/** Prompts for common jobs: each names the tools to use and where the person confirms. */
export const PROMPTS = [
  {
    name: 'onboard-individual',
    title: 'Onboard an individual in the sandbox',
    description: 'Create an individual customer in the local sandbox and take it through KYC to a decision',
    arguments: [{name: 'fullName', description: 'the customer’s full name', required: true}],
  },
  {
    name: 'why-pending',
    title: 'Why is this payment pending?',
    description: 'Read a transaction and what it waits on, and say what would move it on',
    arguments: [{name: 'transactionId', description: 'Transaction:<id>', required: true}],
  },
]

const TEXT: Record<string, (a: Record<string, string>) => string> = {
  'onboard-individual': (a) =>
    `Onboard ${a.fullName} as an INDIVIDUAL customer in the sandbox. Read svc://docs/kyc.md first. ` +
    `Use customers_create (it answers a plan: show it to me before confirming), then kyc_status to see what is ` +
    `missing, and the kyc_* tools to supply it, planning and confirming each write. Finish with kyc_status.`,
  'why-pending': (a) =>
    `Find out why ${a.transactionId} is pending. Use transactions_get, then the quote, account or approval it ` +
    `refers to (quote_get, accounts_internal_get, agents_approvals). Read svc://docs/money.md for the states. ` +
    `Explain what it waits on and what would move it on; do not confirm any write without asking me.`,
}

export function promptMessages(name: string, args: Record<string, string> | undefined) {
  const prompt = PROMPTS.find((p) => p.name === name)
  if (!prompt) throw usageError(`No prompt named ${name}`)
  const given = args ?? {}
  const missing = prompt.arguments.filter((a) => a.required && !given[a.name]).map((a) => a.name)
  if (missing.length) throw usageError(`Prompt ${name} needs ${missing.join(', ')}`)
  return {
    description: prompt.description,
    messages: [{role: 'user' as const, content: {type: 'text' as const, text: TEXT[name](given)}}],
  }
}
