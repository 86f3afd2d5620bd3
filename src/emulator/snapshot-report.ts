import type {ImportResult} from './store/snapshot-import.js'
import {DEFAULT_SETTINGS, type SandboxSettings} from './settings.js'

/** What a branch, upload or load took from its source besides data, and what it left behind: said in the answer. */
export interface SnapshotReport {
  /** The source's settings that differ from a fresh sandbox's (and its webhook endpoint, if set): the new sandbox has them. */
  inheritedSettings: Record<string, unknown>
  /** How many credentials of the source were left behind, by kind. */
  droppedCredentials: ImportResult['droppedCredentials']
  /** Agents kept without their token: connected again by a new device code (POST /agents/{id}/device-codes). */
  agentsDisconnected: number
}

/** `base`: the settings an empty sandbox gets here (the defaults, and a team server's own flags). */
export function snapshotReport(imported: ImportResult, base: Partial<SandboxSettings> = {}): SnapshotReport {
  const fresh: Record<string, unknown> = {...DEFAULT_SETTINGS, ...base}
  const config = imported.platformConfig ?? {}
  const stored = (config.sandbox ?? {}) as Record<string, unknown>
  const inheritedSettings: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(stored))
    if (JSON.stringify(value) !== JSON.stringify(fresh[name])) inheritedSettings[name] = value
  if (typeof config.webhookEndpoint === 'string' && config.webhookEndpoint)
    inheritedSettings.webhookEndpoint = config.webhookEndpoint
  return {
    inheritedSettings,
    droppedCredentials: imported.droppedCredentials,
    agentsDisconnected: imported.agentsDisconnected,
  }
}
