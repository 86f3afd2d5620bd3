import {homedir} from 'node:os'
import {join} from 'node:path'
import {currentEnv} from './io.js'

/** The home directory of the run's environment (an in-process run's HOME, not the host process's). */
const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir()

/** Where config, credentials and the key store live (XDG; SVC_CONFIG_DIR overrides). */
export function configDir(env = currentEnv()): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR
  return join(env.XDG_CONFIG_HOME || join(home(env), '.config'), 'svc')
}

/** Where the local sandbox keeps its journal by default (XDG data dir; SVC_DATA_DIR overrides). */
export function dataDir(env = currentEnv()): string {
  if (env.SVC_DATA_DIR) return env.SVC_DATA_DIR
  return join(env.XDG_DATA_HOME || join(home(env), '.local', 'share'), 'svc')
}

export function sandboxDataDir(env = currentEnv()): string {
  return env.SVC_SANDBOX_DIR || join(dataDir(env), 'sandbox')
}

export const API_VERSION = '2025-10-13'
export const LOCAL_PORT = 4010
export const LOCAL_BASE_URL = `http://127.0.0.1:${LOCAL_PORT}/${API_VERSION}`
