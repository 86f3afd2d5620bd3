import * as z from 'zod'

/** POST /customers/bulk/csv answer (202). */
export const importAcceptedSchema = z.looseObject({jobId: z.string(), status: z.string()})

export const importErrorSchema = z.looseObject({
  correlationId: z.string(),
  code: z.string().optional(),
  message: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
})

/** GET /customers/bulk/jobs/{jobId}: loose, as the contract allows more than the sandbox sends. */
export const importJobSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  progress: z.looseObject({total: z.number(), processed: z.number(), successful: z.number(), failed: z.number()}),
  errors: z.array(importErrorSchema).optional(),
  completedAt: z.string().optional(),
})
export type ImportJob = z.infer<typeof importJobSchema>

export const TERMINAL_IMPORT_STATUSES = new Set(['COMPLETED', 'FAILED'])
