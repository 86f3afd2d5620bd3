import {mkdtempSync, mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {resolveProfile} from '../../../src/lib/config.js'

const home = mkdtempSync(join(tmpdir(), 'svc-config-'))
afterAll(() => rmSync(home, {recursive: true, force: true}))

/** A config dir holding `profiles` (and their stored secrets), and an env pointing at it. */
function setup(name: string, config: object | undefined, secrets: Record<string, string> = {}) {
  const dir = join(home, name)
  mkdirSync(dir, {recursive: true})
  if (config) writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify({profiles: secrets}))
  // The sandbox dir is empty so the local credentials never leak in from the real machine.
  return {SVC_CONFIG_DIR: dir, SVC_SANDBOX_DIR: join(dir, 'no-sandbox'), HOME: home} as NodeJS.ProcessEnv
}

const PROFILES = {
  activeProfile: 'stage',
  profiles: {
    stage: {environment: 'sandbox', baseUrl: 'https://stage.example.com/2025-10-13', tokenId: 'tok_stage'},
    prod: {environment: 'production', baseUrl: 'https://api.example.com/2025-10-13', tokenId: 'tok_prod'},
  },
}

describe('config precedence: flag > env > profile > default', () => {
  it('with nothing configured, the implicit local profile points at the local sandbox', () => {
    const p = resolveProfile({}, setup('empty', undefined))
    expect(p).toMatchObject({
      name: 'local',
      environment: 'local',
      baseUrl: 'http://127.0.0.1:4010/2025-10-13',
      implicit: true,
    })
    expect(p.tokenId).toBeUndefined()
    expect(p.secret).toBeUndefined()
  })

  it('the active profile beats the default; its stored secret is used', () => {
    const p = resolveProfile({}, setup('active', PROFILES, {stage: 'sk_stage'}))
    expect(p).toMatchObject({
      name: 'stage',
      environment: 'sandbox',
      baseUrl: 'https://stage.example.com/2025-10-13',
      tokenId: 'tok_stage',
      implicit: false,
    })
    expect(p.secret?.reveal()).toBe('sk_stage')
  })

  it('env beats the profile (SVC_PROFILE, SVC_BASE_URL, SVC_TOKEN_ID, SVC_CLIENT_SECRET, SVC_ENVIRONMENT)', () => {
    const env = setup('env', PROFILES, {stage: 'sk_stage', prod: 'sk_prod'})
    expect(resolveProfile({}, {...env, SVC_PROFILE: 'prod'})).toMatchObject({
      name: 'prod',
      environment: 'production',
      tokenId: 'tok_prod',
    })
    const p = resolveProfile(
      {},
      {
        ...env,
        SVC_BASE_URL: 'http://127.0.0.1:9999',
        SVC_TOKEN_ID: 'tok_env',
        SVC_CLIENT_SECRET: 'sk_env',
        SVC_ENVIRONMENT: 'production',
      },
    )
    expect(p).toMatchObject({
      name: 'stage',
      baseUrl: 'http://127.0.0.1:9999/2025-10-13',
      tokenId: 'tok_env',
      environment: 'production',
    })
    expect(p.secret?.reveal()).toBe('sk_env')
  })

  it('flags beat env (--profile over SVC_PROFILE, --base-url over SVC_BASE_URL)', () => {
    const env = {
      ...setup('flags', PROFILES, {prod: 'sk_prod'}),
      SVC_PROFILE: 'stage',
      SVC_BASE_URL: 'http://127.0.0.1:1/2025-10-13',
    }
    const p = resolveProfile({profile: 'prod', baseUrl: 'http://127.0.0.1:2222'}, env)
    expect(p).toMatchObject({name: 'prod', environment: 'production', baseUrl: 'http://127.0.0.1:2222/2025-10-13'})
    expect(p.secret?.reveal()).toBe('sk_prod')
  })

  it('a remote URL on the implicit local profile is treated as production; an unknown profile is a usage error', () => {
    const env = setup('remote', undefined)
    expect(resolveProfile({baseUrl: 'https://api.example.com'}, env).environment).toBe('production')
    expect(resolveProfile({baseUrl: 'http://localhost:4010'}, env).environment).toBe('local')
    expect(() => resolveProfile({profile: 'nope'}, setup('unknown', PROFILES))).toThrow(/No profile named "nope"/)
    expect(() => resolveProfile({}, {...env, SVC_ENVIRONMENT: 'staging'})).toThrow(/SVC_ENVIRONMENT/)
  })
})
