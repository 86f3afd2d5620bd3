// The shape every doctor check returns, shared by the checks in this folder and the report.
export type CheckStatus = 'ok' | 'warn' | 'problem' | 'skipped'

export interface Check {
  name: string
  status: CheckStatus
  detail: string
  hint?: string
}

export interface DoctorReport {
  ok: boolean
  checks: Check[]
}
