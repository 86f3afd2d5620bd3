import type {z} from 'zod'
import type {sandboxSettingsPatch} from '../../schemas/config.js'

/** A sandbox started for one `svc flow run --local` (src/emulator/entry.ts starts it; src/lib never imports the sandbox). */
export interface ThrowawaySandbox {
  url: string
  tokenId: string
  clientSecret: string
  /** Environment for svc commands: this sandbox, and a config/data dir inside the temp dir (wallet keys too). */
  env: Record<string, string>
  close(): Promise<void>
}

/** Starts a throwaway sandbox with the flow's `sandbox:` settings; the command passes it in. */
export type StartThrowawaySandbox = (settings?: z.infer<typeof sandboxSettingsPatch>) => Promise<ThrowawaySandbox>
