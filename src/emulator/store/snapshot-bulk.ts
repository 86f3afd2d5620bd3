import {resolve} from 'node:path'
import type {Connection} from './sqlite.js'
import type {TableDef} from './tables.js'

/**
 * The bulk half of a snapshot import: rows whose lookup columns SQL computes exactly as the domain
 * code does (`Column.prop`, a top-level property of the document) are copied by INSERT ... SELECT,
 * the columns made by json_extract in the same statement; every other row is left to the
 * row-by-row JS path (snapshot-import.ts), which is the definition. "Exactly" is checked per row:
 * - the id is text, the document is strict JSON (RFC 8259: what JSON.parse accepts) and an object;
 * - no \u escape anywhere (a lone surrogate decodes differently in JS and SQLite);
 * - no key the columns read appears twice (JSON.parse keeps the last, json_extract the first);
 * - a text column's property is a string, null or absent; a boolean's true, false, null or absent
 *   (JS binds numbers as numbers and refuses objects: those rows go through JS).
 */

/** The source opened read-only beside the target (an URI, so no path character is taken for a parameter). */
export function attachSource(out: Connection, source: string): void {
  const uri = `file:${resolve(source).split('/').map(encodeURIComponent).join('/')}?mode=ro`
  out.exec(`ATTACH '${uri.replaceAll("'", "''")}' AS src`)
}

/** Whether any column of `t` is computed in SQL: a table without columns or with a JS-only one is not. */
export function bulkCopyable(t: TableDef): boolean {
  return t.columns.length > 0 && t.columns.every((c) => c.prop)
}

/** The SQL condition that a row of `t` is copied by SQL (1) or by JS (0). */
export function exactSql(t: TableDef): string {
  const at = (prop: string) => `json_type(doc, '$.${prop}')`
  const props = t.columns.map((c) => `'${c.prop}'`).join(', ')
  const typed = t.columns.map((c) =>
    c.type === 'TEXT'
      ? `coalesce(${at(c.prop!)}, 'null') IN ('text', 'null')`
      : `coalesce(${at(c.prop!)}, 'null') IN ('true', 'false', 'null')`,
  )
  const inner = [
    `json_type(doc) = 'object'`,
    `instr(doc, '\\u') = 0`,
    `(SELECT count(*) - count(DISTINCT key) FROM json_each(doc) WHERE key IN (${props})) = 0`,
    ...typed,
  ].join(' AND ')
  // Nested CASEs: json_* raise on text that is not JSON, so they run only once it is known to be.
  return `CASE WHEN typeof(id) = 'text' AND typeof(doc) = 'text' THEN CASE WHEN json_valid(doc, 1) THEN (${inner}) ELSE 0 END ELSE 0 END`
}

/** The INSERT ... SELECT of the rows with rowid in (?, ?] that `exactSql` passes, columns by SQL. */
export function bulkInsertSql(t: TableDef): string {
  const cols = t.columns.map((c) => c.name)
  const values = t.columns.map((c) =>
    c.type === 'TEXT' ? `json_extract(doc, '$.${c.prop}')` : `${`json_type(doc, '$.${c.prop}')`} IS 'true'`,
  )
  return `INSERT INTO main."${t.name}" (id, doc${cols.map((c) => `, ${c}`).join('')})
    SELECT id, doc${values.map((v) => `, ${v}`).join('')} FROM src."${t.name}"
    WHERE rowid > ? AND rowid <= ? AND (${exactSql(t)}) ORDER BY rowid
    ON CONFLICT(id) DO UPDATE SET doc = excluded.doc${cols.map((c) => `, ${c} = excluded.${c}`).join('')}`
}
