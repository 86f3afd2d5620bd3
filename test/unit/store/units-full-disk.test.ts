import {describe, expect, it} from 'vitest'
import type {Connection} from '../../../src/emulator/store/sqlite.js'
import {Units} from '../../../src/emulator/store/units.js'

/**
 * A connection whose COMMIT fails as on a full disk (SQLITE_FULL) while `full` is set: enough of
 * SQLite for the group commit, whose only statements are BEGIN, SAVEPOINT, RELEASE, ROLLBACK, COMMIT.
 */
function fullDisk() {
  const state = {full: true, writes: 0, inTransaction: false, savepointTx: false, writesAtBegin: 0, alone: 0}
  const conn: Connection = {
    prepare: () => {
      throw new Error('not used')
    },
    exec(sql: string) {
      if (sql === 'BEGIN IMMEDIATE') state.inTransaction = true
      // A SAVEPOINT outside BEGIN opens a transaction, and its RELEASE is that transaction's COMMIT.
      if (sql === 'SAVEPOINT unit' && !state.inTransaction) {
        Object.assign(state, {inTransaction: true, savepointTx: true, writesAtBegin: state.writes})
        state.alone++
      }
      if (sql === 'RELEASE unit' && state.savepointTx) {
        if (state.full && state.writes !== state.writesAtBegin)
          throw Object.assign(new Error('database or disk is full'), {code: 'SQLITE_FULL'})
        Object.assign(state, {inTransaction: false, savepointTx: false})
      }
      if (sql === 'ROLLBACK TO unit' && state.savepointTx) state.writesAtBegin = state.writes
      if (sql === 'COMMIT') {
        if (state.full) throw Object.assign(new Error('database or disk is full'), {code: 'SQLITE_FULL'})
        state.inTransaction = false
      }
      if (sql === 'ROLLBACK') {
        if (!state.inTransaction) throw new Error('cannot rollback - no transaction is active')
        Object.assign(state, {inTransaction: false, savepointTx: false})
      }
    },
    close() {},
  }
  return {conn, state, units: new Units(conn, 'sandbox.db', () => state.writes)}
}

describe('group commit on a full disk (store/units.ts)', () => {
  it('a read that shared a failed COMMIT runs again alone and answers, even while writes keep coming and failing', async () => {
    const {units, state} = fullDisk()
    // Writers that try again as soon as they are refused (clients retrying): every batch has a write in it.
    const refused: unknown[] = []
    const writer = (triesLeft: number): Promise<void> =>
      units
        .unit(() => void state.writes++)
        .catch((e: unknown) => {
          refused.push(e)
          return triesLeft > 0 ? writer(triesLeft - 1) : undefined
        })
    const writers = [writer(5), writer(5)]
    const reads = [1, 2, 3].map((n) => units.unit(() => `read ${n}`))
    await expect(Promise.all(reads)).resolves.toEqual(['read 1', 'read 2', 'read 3'])
    await Promise.all(writers)
    // Every write was refused for the full disk: 2 writers x 6 tries.
    expect(refused).toHaveLength(12)
    expect(refused.every((e) => (e as {code?: string}).code === 'SQLITE_FULL')).toBe(true)
    // The reads ran again outside any batch (a SAVEPOINT with no BEGIN before it), never in one that had to COMMIT.
    expect(state.alone).toBe(3)
    expect(state.inTransaction).toBe(false)
  })

  it('a read that writes when it runs again is committed like a write: refused while the disk is full, no transaction left open', async () => {
    const {units, state} = fullDisk()
    let runs = 0
    // A read the first time (it wrote nothing), a write the second: it must not slip through uncommitted.
    const changing = () => {
      if (runs++ > 0) state.writes++
      return 'ok'
    }
    const write = units.unit(() => void state.writes++)
    const read = units.unit(changing)
    await expect(write).rejects.toMatchObject({code: 'SQLITE_FULL'})
    await expect(read).rejects.toMatchObject({code: 'SQLITE_FULL'})
    expect(runs).toBe(2)
    expect(state.inTransaction).toBe(false)
    state.full = false
    await expect(units.unit(() => void state.writes++)).resolves.toBeUndefined()
    expect(state.inTransaction).toBe(false)
  })
})
