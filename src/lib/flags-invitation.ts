import {Args} from '@oclif/core'
import {InputError} from './errors.js'
import {invitationCode} from './schemas/invitations.js'

/** The invitation code argument, checked at parse time (exit 2 before any request). */
export const invitationCodeArg = Args.string({
  description: 'invitation code',
  required: true,
  parse: async (v: string) => {
    const r = invitationCode.safeParse(v)
    if (!r.success) throw new InputError([{field: 'invitationCode', message: r.error.issues[0].message}])
    return v
  },
})
