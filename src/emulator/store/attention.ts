import {existsSync} from 'node:fs'
import {openConnection} from './sqlite.js'

/**
 * Card transactions in EXCEPTION: each keeps what it holds until it is settled or returned (issue 29
 * F17), so `svc doctor` lists them. Read-only, safe while the sandbox serves.
 */
export function cardExceptions(file: string): Array<{id: string; heldAmount: number}> {
  if (!existsSync(file)) return []
  const conn = openConnection(file, {readonly: true, check: 'header'})
  try {
    const rows = conn
      .prepare(
        "SELECT id, json_extract(doc, '$._.held') FROM cardTransactions WHERE json_extract(doc, '$.status') = 'EXCEPTION' ORDER BY created_at, id",
      )
      .raw()
      .all() as unknown as unknown[][]
    return rows.map(([id, held]) => ({id: String(id), heldAmount: Number(held ?? 0)}))
  } finally {
    conn.close()
  }
}
