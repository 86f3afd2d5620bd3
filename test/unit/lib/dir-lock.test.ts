import {mkdirSync, existsSync, utimesSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {withDirLock} from '../../../src/lib/fs-safe.js'
import {SvcError} from '../../../src/lib/errors.js'
import {tempDir} from '../../helpers/temp-dirs.js'

describe('withDirLock', () => {
  it('runs the function under the lock and releases it, also when the function throws', () => {
    const dir = tempDir('svc-lock-')
    expect(withDirLock(dir, () => existsSync(join(dir, '.lock')))).toBe(true)
    expect(existsSync(join(dir, '.lock'))).toBe(false)
    expect(() =>
      withDirLock(dir, () => {
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(existsSync(join(dir, '.lock'))).toBe(false)
  })

  it('a lock held by someone else ends in a typed DIRECTORY_LOCKED error naming the lock, not an internal error', () => {
    const dir = tempDir('svc-lock-')
    mkdirSync(join(dir, '.lock'))
    let caught: unknown
    try {
      withDirLock(dir, () => 'never', {timeoutMs: 50})
    } catch (e) {
      caught = e
    }
    expect(caught).toBeInstanceOf(SvcError)
    expect((caught as SvcError).code).toBe('DIRECTORY_LOCKED')
    expect((caught as SvcError).message).toContain(dir)
    expect(existsSync(join(dir, '.lock'))).toBe(true) // someone else's: left alone
  })

  it('a stale lock (left by a crash) is taken over', () => {
    const dir = tempDir('svc-lock-')
    mkdirSync(join(dir, '.lock'))
    const old = new Date(Date.now() - 60_000)
    utimesSync(join(dir, '.lock'), old, old)
    expect(withDirLock(dir, () => 'ran', {timeoutMs: 1_000, staleMs: 15_000})).toBe('ran')
  })
})
