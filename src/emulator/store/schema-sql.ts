/** The SQL the schema declared in tables/*.ts turns into: upserts, tables, indexes and the trigger-kept counters. */

import type {GroupCount, RangeCount, TableDef} from './schema.js'

/** The upsert of one document with its derived columns, and the values to bind to it, in order. */
export function upsertOf(t: TableDef, id: string, doc: unknown): {sql: string; values: unknown[]} {
  const cols = t.columns.map((c) => c.name)
  const sql = `INSERT INTO "${t.name}" (id, doc${cols.map((c) => `, ${c}`).join('')}) VALUES (?, ?${cols.map(() => ', ?').join('')})
      ON CONFLICT(id) DO UPDATE SET doc = excluded.doc${cols.map((c) => `, ${c} = excluded.${c}`).join('')}`
  return {sql, values: [id, JSON.stringify(doc), ...t.columns.map((c) => c.of(doc as Record<string, unknown>) ?? null)]}
}

export const COUNTS_TABLE_SQL = 'CREATE TABLE IF NOT EXISTS counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL)'

export function createTableSql(t: TableDef): string[] {
  const cols = ['id TEXT PRIMARY KEY', 'doc TEXT NOT NULL', ...t.columns.map((c) => `${c.name} ${c.type}`)]
  const counts = (t.counts ?? []).flatMap((c) => {
    const bump = (delta: string) => `UPDATE counts SET n = n + (${delta}) WHERE name = '${c.name}';`
    const trigger = (event: string, delta: string) =>
      `CREATE TRIGGER IF NOT EXISTS "${t.name}_count_${c.name.replace(/\W/g, '_')}_${event}" AFTER ${event} ON "${t.name}" BEGIN ${bump(delta)} END`
    return [
      `INSERT OR IGNORE INTO counts (name, n) VALUES ('${c.name}', (SELECT count(*) FROM "${t.name}" AS row WHERE ${c.when('row')}))`,
      trigger('INSERT', `(${c.when('NEW')})`),
      trigger('DELETE', `-(${c.when('OLD')})`),
      trigger('UPDATE', `(${c.when('NEW')}) - (${c.when('OLD')})`),
    ]
  })
  return [
    `CREATE TABLE IF NOT EXISTS "${t.name}" (${cols.join(', ')})`,
    ...t.indexes.map(
      (ix) =>
        `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${indexName(t, ix)}" ON "${t.name}" (${ix.columns.join(', ')})${ix.where ? ` WHERE ${ix.where}` : ''}`,
    ),
    ...counts,
    ...(t.groupCounts ?? []).flatMap((g) => groupCountSql(t.name, g)),
    ...(t.rangeCounts ?? []).flatMap((r) => rangeCountSql(t.name, r)),
    ...(t.derived ?? []),
  ]
}

export function indexName(t: TableDef, ix: TableDef['indexes'][number]): string {
  return `${t.name}_${ix.columns.join('_')}${ix.where ? '_partial' : ''}`
}

/**
 * The triggers that keep `<name>:<value>` counters for `column` of `table`, and the counters'
 * first values (one grouped count, when the counters are new).
 */
export function groupCountSql(table: string, g: GroupCount, triggerPrefix = table): string[] {
  const when = g.when ?? (() => '1')
  const columns = typeof g.column === 'string' ? [g.column] : g.column
  const key = (row: string) => `'${g.name}:' || ${columns.map((c) => `coalesce(${row}.${c}, '')`).join(` || '|' || `)}`
  // Not INSERT OR IGNORE: inside a trigger, the upsert that fired it overrides the conflict policy.
  const ensure = (row: string) =>
    `INSERT INTO counts (name, n) SELECT ${key(row)}, 0 WHERE NOT EXISTS (SELECT 1 FROM counts WHERE name = ${key(row)});`
  const bump = (row: string, sign: '+' | '-') =>
    `UPDATE counts SET n = n ${sign} (${when(row)}) WHERE name = ${key(row)};`
  const trigger = (event: string, body: string) =>
    `CREATE TRIGGER IF NOT EXISTS "${triggerPrefix}_group_${g.name.replace(/\W/g, '_')}_${event}" AFTER ${event} ON "${table}" BEGIN ${body} END`
  return [
    `INSERT OR IGNORE INTO counts (name, n) SELECT ${key('row')}, count(*) FROM "${table}" AS row WHERE ${when('row')} GROUP BY ${columns.map((c) => `row.${c}`).join(', ')}`,
    trigger('INSERT', ensure('NEW') + bump('NEW', '+')),
    trigger('DELETE', bump('OLD', '-')),
    trigger('UPDATE', bump('OLD', '-') + ensure('NEW') + bump('NEW', '+')),
  ]
}

/**
 * GET /customers?currency=: a customer's currencies live inside its document, so a side table
 * holds one row per (currency, customer) in the keyset order, kept by triggers from the document
 * itself (it can never disagree with it), with running counts per currency.
 */
export function customerCurrencies(): string[] {
  // DISTINCT rather than OR IGNORE (which the upsert firing the trigger would override).
  const rows = (row: string) =>
    `SELECT DISTINCT value, ${row}.created_at, ${row}.id, ${row}.is_deleted FROM json_each(${row}.doc, '$.currencies') WHERE type = 'text'`
  const add = (row: string) =>
    `INSERT INTO customerCurrencies (currency, created_at, customer_id, is_deleted) ${rows(row)};`
  const remove = `DELETE FROM customerCurrencies WHERE customer_id = OLD.id AND created_at = OLD.created_at AND currency IN (SELECT value FROM json_each(OLD.doc, '$.currencies'));`
  return [
    `CREATE TABLE IF NOT EXISTS customerCurrencies (currency TEXT NOT NULL, created_at TEXT NOT NULL, customer_id TEXT NOT NULL, is_deleted INTEGER NOT NULL, PRIMARY KEY (currency, created_at, customer_id)) WITHOUT ROWID`,
    // Filled from the documents once, when a migration adds the table.
    `INSERT OR IGNORE INTO customerCurrencies (currency, created_at, customer_id, is_deleted) SELECT j.value, c.created_at, c.id, c.is_deleted FROM customers AS c, json_each(c.doc, '$.currencies') AS j WHERE j.type = 'text' AND c.created_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM customerCurrencies LIMIT 1)`,
    `CREATE TRIGGER IF NOT EXISTS customers_currencies_INSERT AFTER INSERT ON customers WHEN NEW.created_at IS NOT NULL BEGIN ${add('NEW')} END`,
    `CREATE TRIGGER IF NOT EXISTS customers_currencies_DELETE AFTER DELETE ON customers BEGIN ${remove} END`,
    `CREATE TRIGGER IF NOT EXISTS customers_currencies_UPDATE AFTER UPDATE ON customers WHEN NEW.created_at IS NOT NULL BEGIN ${remove} ${add('NEW')} END`,
    ...groupCountSql('customerCurrencies', {name: 'customers.currency', column: 'currency'}),
    ...groupCountSql('customerCurrencies', {
      name: 'customers.active.currency',
      column: 'currency',
      when: (row) => `${row}.is_deleted = 0`,
    }),
  ]
}

/** The created_at prefixes counted (`rangeCounts`): month, day, hour, minute of an ISO timestamp. */
export const RANGE_LEVELS = [7, 10, 13, 16] as const

export const TIME_COUNTS_TABLE_SQL =
  'CREATE TABLE IF NOT EXISTS timeCounts (name TEXT NOT NULL, bucket TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (name, bucket)) WITHOUT ROWID'

/**
 * The triggers that keep `r`'s created_at buckets (one counter `<name>/<level>` per level of
 * RANGE_LEVELS), and their first values from the rows already there (when the counters are new).
 * An update fires them only when it moves a row between buckets or in or out of `when`.
 */
export function rangeCountSql(table: string, r: RangeCount): string[] {
  const when = r.when ?? (() => '1')
  const per = (row: string, body: (name: string, bucket: string) => string) =>
    RANGE_LEVELS.map((l) => body(`'${r.name}/${l}'`, `substr(${row}.created_at, 1, ${l})`)).join(' ')
  // Not an upsert: inside a trigger, the upsert that fired it overrides the conflict handling.
  const ensure = (row: string) =>
    per(
      row,
      (name, bucket) =>
        `INSERT INTO timeCounts (name, bucket, n) SELECT ${name}, ${bucket}, 0 WHERE (${when(row)}) AND NOT EXISTS (SELECT 1 FROM timeCounts WHERE name = ${name} AND bucket = ${bucket});`,
    )
  const bump = (row: string, sign: '+' | '-') =>
    per(row, (name, bucket) => `UPDATE timeCounts SET n = n ${sign} 1 WHERE name = ${name} AND bucket = ${bucket};`)
  const trigger = (event: string, cond: string, body: string) =>
    `CREATE TRIGGER IF NOT EXISTS "${table}_range_${r.name.replace(/\W/g, '_')}_${event}" AFTER ${event} ON "${table}" WHEN ${cond} BEGIN ${body} END`
  const counted = (row: string) => `${row}.created_at IS NOT NULL AND (${when(row)})`
  const moved = `(OLD.created_at IS NOT NEW.created_at OR (${counted('OLD')}) IS NOT (${counted('NEW')}))`
  return [
    TIME_COUNTS_TABLE_SQL,
    ...RANGE_LEVELS.map(
      (l) =>
        `INSERT INTO timeCounts (name, bucket, n) SELECT '${r.name}/${l}', substr(row.created_at, 1, ${l}), count(*) FROM "${table}" AS row WHERE row.created_at IS NOT NULL AND (${when('row')}) AND NOT EXISTS (SELECT 1 FROM timeCounts WHERE name = '${r.name}/${l}') GROUP BY 2`,
    ),
    trigger('INSERT', `(${counted('NEW')})`, ensure('NEW') + bump('NEW', '+')),
    trigger('DELETE', `(${counted('OLD')})`, bump('OLD', '-')),
    // Moves out of the old bucket when the old row counted, into the new one when the new row does.
    `CREATE TRIGGER IF NOT EXISTS "${table}_range_${r.name.replace(/\W/g, '_')}_UPDATE_OLD" AFTER UPDATE ON "${table}" WHEN ${moved} AND (${counted('OLD')}) BEGIN ${bump('OLD', '-')} END`,
    `CREATE TRIGGER IF NOT EXISTS "${table}_range_${r.name.replace(/\W/g, '_')}_UPDATE_NEW" AFTER UPDATE ON "${table}" WHEN ${moved} AND (${counted('NEW')}) BEGIN ${ensure('NEW') + bump('NEW', '+')} END`,
  ]
}
