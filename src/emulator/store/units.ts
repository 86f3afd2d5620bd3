import {StoreUnavailableError, storeFaultOf} from './errors.js'
import type {Connection} from './sqlite.js'

/** How long a group commit may wait for requests already on their way in. */
const MAX_BATCH_WAIT_MS = 4
/** How long a batch waits for another process's write lock before its units are refused as busy. */
export const LOCK_WAIT_MS = 5_000

interface Batch {
  done: Promise<void>
  resolve: () => void
  reject: (e: unknown) => void
}

/**
 * The sandbox database's units and their group commit (store/db.ts says what a unit is). Units run
 * one at a time, each inside a SAVEPOINT of the batch's transaction; units that finish in the same
 * turn of the event loop share one COMMIT, and each resolves only after the COMMIT that made it
 * durable. `writes` counts the database's writes so far: a unit that made none is a read.
 */
export class Units {
  private chain: Promise<unknown> = Promise.resolve()
  private batch?: Batch
  private inBatch = false
  private commitQueued = false
  private depth = 0
  private closed = false
  /** Requests that arrived and will run as units soon (their bodies are being read). */
  private expected = 0
  private batchStartedAt = 0
  private readonly rollbackListeners: Array<() => void> = []
  private readonly commitListeners: Array<() => void> = []
  /** Since when the write lock has been refused to us (another process holds it); 0 when it has not. */
  private busySince = 0

  constructor(
    private readonly conn: Connection,
    private readonly file: string,
    private readonly writes: () => number,
    private readonly lockWaitMs = LOCK_WAIT_MS,
  ) {}

  /**
   * Runs `fn` as one atomic unit (see the class comment); resolves once its writes are committed.
   * When the COMMIT of its batch fails (a full disk), a unit that wrote nothing runs once more, alone:
   * in a transaction of its own that no other unit joins, so no neighbour's write can fail it again.
   * A read is not refused for what its neighbours tried to write.
   */
  async unit<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      return await this.unitOnce(fn)
    } catch (e) {
      if (!(e instanceof CommitFailed) || e.wrote) throw e instanceof CommitFailed ? e.cause : e
      return this.unitAlone(fn)
    }
  }

  /**
   * `fn` between batches, in a transaction of its own (a SAVEPOINT outside any BEGIN is one): the
   * batch open before it is committed first (its failure is its own units'), and the units queued
   * after it wait for it on the chain. A read commits nothing, so a full disk cannot refuse it; one
   * that wrote this time is committed like any write, and refused if the disk is still full.
   */
  private unitAlone<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.closed) throw new Error('the sandbox database is closed')
      if (this.inBatch) this.commit()
      this.conn.exec('SAVEPOINT unit')
      this.depth++
      try {
        const value = await fn()
        this.conn.exec('RELEASE unit')
        return value
      } catch (error) {
        try {
          this.conn.exec('ROLLBACK TO unit')
          this.conn.exec('RELEASE unit')
        } catch {
          // the transaction is gone already (a failed RELEASE may roll it back) ...
        }
        try {
          this.conn.exec('ROLLBACK')
        } catch {
          // ... or it ended above: either way none is left open for the next batch
        }
        for (const l of this.rollbackListeners) l()
        throw error
      } finally {
        this.depth--
      }
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result
  }

  private unitOnce<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = async (): Promise<{value?: T; error?: unknown; failed: boolean; wrote: boolean}> => {
      if (this.closed) return {failed: true, wrote: false, error: new Error('the sandbox database is closed')}
      try {
        await this.beginBatch()
      } catch (error) {
        return {failed: true, wrote: false, error}
      }
      this.conn.exec('SAVEPOINT unit')
      this.depth++
      const writesBefore = this.writes()
      try {
        const value = await fn()
        this.conn.exec('RELEASE unit')
        return {value, failed: false, wrote: this.writes() !== writesBefore}
      } catch (error) {
        this.conn.exec('ROLLBACK TO unit')
        this.conn.exec('RELEASE unit')
        for (const l of this.rollbackListeners) l()
        return {error, failed: true, wrote: false}
      } finally {
        this.depth--
        this.queueCommit()
      }
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result.then(async (r) => {
      if (r.failed) throw r.error
      try {
        await this.committed()
      } catch (e) {
        throw new CommitFailed(e, r.wrote)
      }
      return r.value as T
    })
  }

  /**
   * A request has arrived and will run as a unit once its body is read: the group commit waits for
   * it (a few ms at most), so one fsync covers every request in flight instead of just the first.
   * Returns the function to call when it is enqueued (or refused before).
   */
  expectUnit(): () => void {
    this.expected++
    let done = false
    return () => {
      if (!done) ((done = true), this.expected--)
    }
  }

  /** True while a unit is running (writes outside one autocommit on their own). */
  get inUnit(): boolean {
    return this.depth > 0
  }

  /** Called after a unit rolled back, so in-memory caches of rows can be dropped. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener)
  }

  /** Called after each COMMIT (the webhook outbox wakes up on it). */
  onCommit(listener: () => void): void {
    this.commitListeners.push(listener)
  }

  /**
   * Opens the batch's transaction with BEGIN IMMEDIATE, so the write lock is taken up front (a
   * deferred BEGIN could only fail later, at the first write, with no way to wait). While another
   * process holds the lock, it is tried again every few ms without blocking the event loop, up to
   * `lockWaitMs` counted from when the lock was first refused: past that, units are refused as busy
   * at once until the lock is free again, instead of each one waiting out the whole delay.
   */
  private async beginBatch(): Promise<void> {
    if (this.inBatch) return
    for (;;) {
      try {
        this.conn.exec('BEGIN IMMEDIATE')
        this.busySince = 0
        break
      } catch (e) {
        if (storeFaultOf(e) !== 'busy') throw e
        const now = performance.now()
        if (!this.busySince) this.busySince = now
        if (now - this.busySince >= this.lockWaitMs) {
          throw new StoreUnavailableError(
            'busy',
            `another process has held the sandbox database's write lock for over ${Math.round(this.lockWaitMs / 1000)} s (${this.file})`,
            {cause: e},
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    this.inBatch = true
    this.batchStartedAt = performance.now()
  }

  private currentBatch(): Batch {
    if (!this.batch) {
      let resolve!: () => void
      let reject!: (e: unknown) => void
      const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
      // A batch whose units all failed has no one awaiting its COMMIT: its failure is theirs, not an unhandled rejection.
      done.catch(() => undefined)
      this.batch = {done, resolve, reject}
    }
    return this.batch
  }

  private committed(): Promise<void> {
    if (!this.inBatch && !this.batch) return Promise.resolve()
    return this.currentBatch().done
  }

  /**
   * The COMMIT runs as a step of the unit chain, after the units already queued. While requests
   * that arrived are still on their way in, it waits for them, up to MAX_BATCH_WAIT_MS.
   */
  private queueCommit(): void {
    if (this.commitQueued) return
    this.commitQueued = true
    const enqueue = () => {
      if (this.expected > 0 && performance.now() - this.batchStartedAt < MAX_BATCH_WAIT_MS)
        return void setImmediate(enqueue)
      this.chain = this.chain.then(() => this.commit())
    }
    setImmediate(enqueue)
  }

  private commit(): void {
    this.commitQueued = false
    const batch = this.currentBatch()
    this.batch = undefined
    if (!this.inBatch) return batch.resolve()
    try {
      this.conn.exec('COMMIT')
      this.inBatch = false
      batch.resolve()
    } catch (e) {
      try {
        this.conn.exec('ROLLBACK')
      } catch {
        // nothing more to undo
      }
      this.inBatch = false
      for (const l of this.rollbackListeners) l()
      batch.reject(e)
      return
    }
    for (const l of this.commitListeners) l()
  }

  /** Resolves once every unit queued so far is committed. */
  async sync(): Promise<void> {
    await this.chain
    await this.committed()
  }

  /** Runs `fn` between units, with everything before it committed (a backup). */
  async between(fn: () => void): Promise<void> {
    await this.sync()
    const run = async () => {
      if (this.inBatch) this.commit()
      fn()
    }
    const done = this.chain.then(run)
    this.chain = done.catch(() => undefined)
    await done
  }

  /** Commits what is queued; later units are refused. */
  async close(): Promise<void> {
    await this.sync()
    this.closed = true
  }
}

/** The COMMIT of a unit's batch failed; `wrote` tells whether this unit had writes in it. */
class CommitFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly wrote: boolean,
  ) {
    super('commit failed', {cause})
  }
}
