import type {Output} from '../../output/output.js'

/** One line on what happened to an agent's action, and what the platform does next when it waits. */
export function explainAction(
  out: Output,
  x: {id: string; status: string; type: string; transaction?: {id: string; status: string}},
): void {
  if (x.status === 'PENDING_APPROVAL') {
    out.warn(
      `${x.id} (${x.type}) is beyond the agent's policy: it waits for the platform's approval (svc agents approvals).`,
    )
    return
  }
  out.success(
    `${x.id} (${x.type}): ${x.status}${x.transaction ? ` (transaction ${x.transaction.id} ${x.transaction.status})` : ''}`,
  )
}
