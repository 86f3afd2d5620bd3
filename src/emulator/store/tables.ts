/**
 * The sandbox's tables: one per resource, the API object kept whole as JSON in `doc` (its inside is
 * opaque to queries) plus the columns the routes look things up by, each with an index. Columns
 * are derived from the document on every write, so they can never disagree with it.
 *
 * This file is the one source of truth for the schema: migrations create what is declared here.
 */

type Doc = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
type ColumnValue = string | number | null

export interface Column {
  name: string
  type: 'TEXT' | 'INTEGER'
  of: (doc: Doc) => ColumnValue | undefined
}

export interface TableDef {
  /** Table name; also the collection name the domain uses (ctx.db.get('customers', id)). */
  name: string
  columns: Column[]
  /** Each index: its columns, and an optional partial-index condition. */
  indexes: Array<{columns: string[]; where?: string; unique?: boolean}>
  /** Keep parsed documents in memory (a tiny table read by nearly every request: config). */
  cached?: boolean
  /** The schema version (PRAGMA user_version) that added the table; 1 when absent. */
  since?: number
  /**
   * Running row counts kept by triggers in the `counts` table, so an unfiltered list's totalCount
   * costs one lookup instead of a scan: name, and the SQL condition over `row` (NEW or OLD).
   */
  counts?: Array<{name: string; when: (row: string) => string}>
  /**
   * Running counts per value of a column (`<name>:<value>`), so a list filtered by one
   * low-cardinality column (customerType, region, status, type) answers totalCount with one lookup.
   */
  groupCounts?: GroupCount[]
  /**
   * Running counts of rows per month, day, hour and minute of `created_at` (the `timeCounts`
   * table), so a created-at range (createdAfter/Before, startDate/endDate) answers totalCount by
   * summing at most ~150 buckets and counting the rows of two partial minutes by index.
   */
  rangeCounts?: RangeCount[]
  /** More schema that lives and dies with the table (side tables kept by triggers), created after it. */
  derived?: string[]
}

export interface GroupCount {
  name: string
  /** The column counted by; several make one counter per combination (`<a>|<b>`). */
  column: string | string[]
  /** Which rows count (SQL over `row`, NEW or OLD); all when absent. */
  when?: (row: string) => string
}

export interface RangeCount {
  name: string
  /** Which rows count (SQL over `row`, NEW or OLD); all when absent. */
  when?: (row: string) => string
}

const text = (name: string, of: Column['of']): Column => ({name, type: 'TEXT', of})
const int = (name: string, of: Column['of']): Column => ({name, type: 'INTEGER', of})
const bool = (name: string, of: (doc: Doc) => unknown): Column => int(name, (d) => (of(d) ? 1 : 0))
const createdAt = text('created_at', (d) => d.createdAt)
const keyOnly = (name: string): TableDef => ({name, columns: [], indexes: []})

export const TABLES: TableDef[] = [
  {name: 'config', columns: [], indexes: [], cached: true},
  {
    name: 'customers',
    columns: [
      text('platform_customer_id', (d) => d.platformCustomerId),
      text('uma_address', (d) => d.umaAddress),
      text('customer_type', (d) => d.customerType),
      text('region', (d) => d.region),
      bool('is_deleted', (d) => d.isDeleted),
      createdAt,
      text('updated_at', (d) => d.updatedAt),
    ],
    // Each filter of GET /customers leads an index that continues in the keyset order, so a
    // filtered page is one range read of limit + 1 entries (deleted customers, rare, are skipped
    // in the range). The partial (created_at, id) index answers the unfiltered list of active ones.
    indexes: [
      {columns: ['platform_customer_id', 'created_at', 'id']},
      {columns: ['uma_address', 'created_at', 'id']},
      {columns: ['customer_type', 'created_at', 'id']},
      {columns: ['region', 'created_at', 'id']},
      // customerType and region together: the one pair of low-cardinality filters whose page would
      // otherwise walk one of them testing the other row by row (and count every match).
      {columns: ['customer_type', 'region', 'created_at', 'id']},
      {columns: ['created_at', 'id'], where: 'is_deleted = 0'},
      {columns: ['created_at', 'id']},
      {columns: ['updated_at']},
    ],
    counts: [
      {name: 'customers', when: () => '1'},
      {name: 'customers.active', when: (row) => `${row}.is_deleted = 0`},
    ],
    groupCounts: [
      {name: 'customers.type', column: 'customer_type'},
      {name: 'customers.active.type', column: 'customer_type', when: (row) => `${row}.is_deleted = 0`},
      {name: 'customers.region', column: 'region'},
      {name: 'customers.active.region', column: 'region', when: (row) => `${row}.is_deleted = 0`},
      {name: 'customers.typeRegion', column: ['customer_type', 'region']},
      {
        name: 'customers.active.typeRegion',
        column: ['customer_type', 'region'],
        when: (row) => `${row}.is_deleted = 0`,
      },
    ],
    rangeCounts: [{name: 'customers'}, {name: 'customers.active', when: (row) => `${row}.is_deleted = 0`}],
    derived: customerCurrencies(),
  },
  {
    name: 'internalAccounts',
    columns: [
      text('customer_id', (d) => d.customerId),
      text('type', (d) => d.type),
      createdAt,
      text('currency', (d) => d.balance?.currency?.code),
    ],
    indexes: [
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['type', 'customer_id']},
      {columns: ['created_at', 'id']},
      {columns: ['type', 'created_at', 'id']},
      {columns: ['currency', 'created_at', 'id']},
    ],
  },
  {
    name: 'externalAccounts',
    columns: [
      text('customer_id', (d) => d.customerId),
      text('challenge_token', (d) => d.challenge?.token),
      createdAt,
      bool('is_deleted', (d) => d.isDeleted),
      text('currency', (d) => d.currency),
    ],
    indexes: [
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['challenge_token']},
      {columns: ['created_at', 'id']},
      {columns: ['currency', 'created_at', 'id']},
    ],
  },
  {
    name: 'quotes',
    columns: [text('customer_id', (d) => d.customerId), createdAt],
    indexes: [{columns: ['customer_id', 'created_at', 'id']}],
  },
  {
    name: 'transactions',
    columns: [
      text('customer_id', (d) => d.customerId),
      text('platform_customer_id', (d) => d.platformCustomerId),
      text('source_account_id', (d) => d.source?.accountId),
      text('destination_account_id', (d) => d.destination?.accountId),
      text('status', (d) => d.status),
      text('type', (d) => d.type),
      text('reference', (d) => d.refund?.reference),
      createdAt,
    ],
    indexes: [
      {columns: ['created_at', 'id']},
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['platform_customer_id', 'created_at', 'id']},
      {columns: ['source_account_id', 'created_at', 'id']},
      {columns: ['destination_account_id', 'created_at', 'id']},
      {columns: ['status', 'created_at', 'id']},
      {columns: ['type', 'created_at', 'id']},
      {columns: ['reference']},
    ],
    counts: [{name: 'transactions', when: () => '1'}],
    groupCounts: [
      {name: 'transactions.status', column: 'status'},
      {name: 'transactions.type', column: 'type'},
      // ?accountIdentifier=: the account as the source, and as the destination of a payment from
      // another account (the two ranges the list merges), so its total is two look-ups.
      {name: 'transactions.source', column: 'source_account_id'},
      {
        name: 'transactions.destination',
        column: 'destination_account_id',
        when: (row) => `${row}.source_account_id IS NOT ${row}.destination_account_id`,
      },
    ],
    rangeCounts: [{name: 'transactions'}],
  },
  {
    name: 'beneficialOwners',
    columns: [text('customer_id', (d) => d.customerId), createdAt],
    indexes: [{columns: ['customer_id', 'created_at', 'id']}],
  },
  {
    name: 'documents',
    columns: [text('holder', (d) => d.documentHolder), createdAt],
    indexes: [{columns: ['holder', 'created_at', 'id']}, {columns: ['created_at', 'id']}],
  },
  {
    name: 'verifications',
    columns: [text('customer_id', (d) => d.customerId), createdAt],
    indexes: [{columns: ['customer_id', 'created_at', 'id']}, {columns: ['created_at', 'id']}],
  },
  keyOnly('kycLinks'),
  keyOnly('contactCodes'),
  keyOnly('idempotency'),
  keyOnly('dailyVolume'),
  keyOnly('ledger'),
  {name: 'rates', columns: [], indexes: [], cached: true},
  {
    name: 'events',
    columns: [
      int('seq', (d) => d.seq),
      text('type', (d) => d.event?.type),
      text('delivery', (d) => d.delivery),
      text('endpoint', (d) => d.endpoint),
    ],
    indexes: [{columns: ['seq'], unique: true}, {columns: ['delivery', 'endpoint', 'seq']}, {columns: ['type', 'seq']}],
  },
  {
    name: 'jobs',
    columns: [int('due_at', (d) => d.dueAt), text('kind', (d) => d.kind)],
    indexes: [{columns: ['due_at']}, {columns: ['kind']}],
  },
  {
    name: 'walletCredentials',
    columns: [
      text('account_id', (d) => d.accountId),
      text('type', (d) => d.type),
      text('nickname', (d) => d.nickname),
      text('credential_id', (d) => d.credentialId),
      createdAt,
    ],
    indexes: [
      {columns: ['account_id', 'created_at', 'id']},
      {columns: ['type', 'nickname']},
      {columns: ['credential_id']},
    ],
  },
  {
    name: 'walletSessions',
    columns: [
      text('account_id', (d) => d.accountId),
      text('public_key', (d) => d.publicKey),
      text('credential_id', (d) => d.credentialId),
      createdAt,
    ],
    indexes: [
      {columns: ['account_id', 'created_at', 'id']},
      {columns: ['public_key', 'created_at', 'id']},
      {columns: ['credential_id']},
    ],
  },
  {
    name: 'cards',
    columns: [
      text('cardholder_id', (d) => d.cardholderId),
      text('platform_card_id', (d) => d.platformCardId),
      text('state', (d) => d.state),
      createdAt,
    ],
    indexes: [
      {columns: ['cardholder_id', 'state']},
      {columns: ['cardholder_id', 'created_at', 'id']},
      {columns: ['platform_card_id', 'created_at', 'id']},
      {columns: ['state', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
    ],
    counts: [{name: 'cards', when: () => '1'}],
    since: 2,
  },
  /** Which cards an internal account funds (GET /cards?accountId=): one row per (card, account). */
  {
    name: 'cardFundingSources',
    columns: [text('card_id', (d) => d.cardId), text('account_id', (d) => d.accountId)],
    indexes: [{columns: ['account_id']}, {columns: ['card_id']}],
    since: 2,
  },
  {
    name: 'cardTransactions',
    columns: [
      text('card_id', (d) => d.cardId),
      text('customer_id', (d) => d.customerId),
      text('platform_customer_id', (d) => d.platformCustomerId),
      text('account_id', (d) => d.accountId),
      createdAt,
    ],
    indexes: [
      {columns: ['card_id', 'created_at', 'id']},
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['platform_customer_id', 'created_at', 'id']},
      {columns: ['account_id', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
    ],
    counts: [{name: 'cardTransactions', when: () => '1'}],
    rangeCounts: [{name: 'cardTransactions'}],
    since: 2,
  },
  {...keyOnly('cardReveals'), since: 2},
  keyOnly('walletSeeds'),
  keyOnly('walletRequests'),
  keyOnly('walletPasskeyChallenges'),
  keyOnly('walletPasskeyRegistrationChallenges'),
  keyOnly('walletUsedOidcTokens'),
  // Bulk customer imports: the job by id; its not-yet-processed rows by `<jobId>#<chunk>`.
  {...keyOnly('bulkImportJobs'), since: 2},
  {...keyOnly('bulkImportChunks'), since: 2},
  // Receiver look-ups (GET /receiver/...), by lookupId, for the quote that follows.
  {...keyOnly('receiverLookups'), since: 2},
  // Issue 11: API tokens, invitations, stablecoin issuance, delegated wallet keys.
  {
    name: 'apiTokens',
    since: 2,
    columns: [
      text('client_id', (d) => d.clientId),
      text('name', (d) => d.name),
      createdAt,
      text('updated_at', (d) => d.updatedAt),
    ],
    indexes: [
      {columns: ['client_id'], unique: true},
      {columns: ['created_at', 'id']},
      {columns: ['name', 'created_at', 'id']},
      {columns: ['updated_at']},
    ],
  },
  {name: 'invitations', since: 2, columns: [createdAt], indexes: [{columns: ['created_at', 'id']}]},
  {
    name: 'stablecoinProviderAccounts',
    since: 2,
    columns: [
      text('provider', (d) => d.provider),
      text('status', (d) => d.status),
      text('provider_account_id', (d) => d.providerAccountId),
      createdAt,
    ],
    indexes: [
      {columns: ['created_at', 'id']},
      {columns: ['status', 'created_at', 'id']},
      {columns: ['provider', 'provider_account_id']},
    ],
  },
  {
    name: 'stablecoins',
    since: 2,
    columns: [
      text('symbol', (d) => d.symbol),
      text('network_token_identifier', (d) => d.networkTokenIdentifier),
      text('issuance_status', (d) => d.issuanceStatus),
      text('operations_status', (d) => d.gridOperationsStatus),
      text('provider', (d) => d.provider),
      createdAt,
    ],
    indexes: [
      {columns: ['symbol'], unique: true},
      {columns: ['network_token_identifier'], unique: true},
      {columns: ['created_at', 'id']},
      {columns: ['issuance_status', 'created_at', 'id']},
      {columns: ['operations_status', 'created_at', 'id']},
      {columns: ['provider', 'created_at', 'id']},
    ],
  },
  {
    name: 'stablecoinOperations',
    since: 2,
    columns: [text('stablecoin_id', (d) => d.stablecoinId), text('operation_type', (d) => d.operationType), createdAt],
    indexes: [
      {columns: ['stablecoin_id', 'created_at', 'id']},
      {columns: ['stablecoin_id', 'operation_type', 'created_at', 'id']},
    ],
  },
  {
    name: 'delegatedKeys',
    since: 2,
    columns: [
      text('account_id', (d) => d.accountId),
      text('funding_source_id', (d) => d.fundingSourceId),
      text('status', (d) => d.status),
      createdAt,
    ],
    indexes: [{columns: ['account_id', 'created_at', 'id']}, {columns: ['funding_source_id', 'status']}],
  },
  // Strong customer authentication (since 2): one state document per customer, factor resets by id.
  {...keyOnly('scaStates'), since: 2},
  {...keyOnly('scaResets'), since: 2},
  // Agents (since 2): the platform lists them by customer and approvals by status; tokens and device
  // codes are looked up by key only (a token by its SHA-256, never stored in clear).
  {
    name: 'agents',
    columns: [
      text('customer_id', (d) => d.customerId),
      bool('is_paused', (d) => d.isPaused),
      bool('is_connected', (d) => d.isConnected),
      createdAt,
      text('updated_at', (d) => d.updatedAt),
    ],
    indexes: [
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
      {columns: ['is_paused', 'created_at', 'id']},
      {columns: ['is_connected', 'created_at', 'id']},
      {columns: ['updated_at']},
    ],
    counts: [{name: 'agents', when: () => '1'}],
    since: 2,
  },
  {...keyOnly('agentDeviceCodes'), since: 2},
  {...keyOnly('agentTokens'), since: 2},
  {
    name: 'agentActions',
    columns: [
      text('agent_id', (d) => d.agentId),
      text('customer_id', (d) => d.customerId),
      text('status', (d) => d.status),
      text('transaction_id', (d) => d._?.transactionId),
      createdAt,
    ],
    indexes: [
      {columns: ['agent_id', 'created_at', 'id']},
      {columns: ['status', 'created_at', 'id']},
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
      {columns: ['transaction_id']},
    ],
    since: 2,
  },
]

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
function customerCurrencies(): string[] {
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
