import {describe, expect, it} from 'vitest'
import type {Paging} from '../../../src/emulator/paging.js'
import {pageExternalAccounts, pageInternalAccounts} from '../../../src/emulator/store/accounts.js'
import {listAgentActions, listAgents} from '../../../src/emulator/store/agents.js'
import {listCards} from '../../../src/emulator/store/cards.js'
import {listCustomers} from '../../../src/emulator/store/customers.js'
import {eventsOfType} from '../../../src/emulator/store/events.js'
import {listTransactions} from '../../../src/emulator/store/transactions.js'
import {tempStore} from '../../helpers/store.js'

// Every list query with every filter its API offers, planned by SQLite as it runs (no statistics:
// the sandbox never runs ANALYZE, so these are the plans it uses at any size). A filtered page must
// read an index that leads with the filter and continues in the keyset order: never a SCAN of a
// table, never a walk of the order index filtering row by row, never a sort of the matches.

const store = tempStore('svc-plans-')

const AT = '2026-05-01T00:00:00.000Z'
const first: Paging = {limit: 20}
const next: Paging = {limit: 20, after: {createdAt: AT, id: 'X:1'}}

/** The plan of every statement `run` sends, as `detail` lines per statement. */
function plansOf(run: () => unknown): Array<{sql: string; plan: string[]}> {
  const seen: Array<{sql: string; params: unknown[]}> = []
  const rows = store.db.sql.rows.bind(store.db.sql)
  const row = store.db.sql.row.bind(store.db.sql)
  store.db.sql.rows = (sql: string, ...params: unknown[]) => (seen.push({sql, params}), rows(sql, ...params))
  store.db.sql.row = (sql: string, ...params: unknown[]) => (seen.push({sql, params}), row(sql, ...params))
  try {
    run()
  } finally {
    store.db.sql.rows = rows
    store.db.sql.row = row
  }
  return seen
    .filter((s) => !/FROM counts\b/.test(s.sql))
    .map((s) => ({sql: s.sql, plan: rows(`EXPLAIN QUERY PLAN ${s.sql}`, ...s.params).map((r) => String(r[3]))}))
}

interface Case {
  name: string
  run: (p: Paging) => unknown
  /** The index (by name) the page must SEARCH, constrained on the filter's column. */
  index: RegExp
  /** Point look-ups (one reference, one account's few cards) may sort their handful of matches. */
  sortsFew?: boolean
}

const c = (q: Record<string, string>) => (p: Paging) => listCustomers(store.db, q as never, p)
const t = (q: Record<string, string>) => (p: Paging) => listTransactions(store.db, q as never, p)
const cases: Case[] = [
  {name: 'customers', run: c({}), index: /customers_created_at_id_partial/},
  {name: 'customers isIncludingDeleted', run: c({isIncludingDeleted: 'true'}), index: /customers_created_at_id\b/},
  {
    name: 'customers platformCustomerId',
    run: c({platformCustomerId: 'p-1'}),
    index: /customers_platform_customer_id_created_at_id \(platform_customer_id=\?/,
  },
  {
    name: 'customers platformCustomerId + deleted',
    run: c({platformCustomerId: 'p-1', isIncludingDeleted: 'true'}),
    index: /customers_platform_customer_id_created_at_id \(platform_customer_id=\?/,
  },
  {
    name: 'customers customerType',
    run: c({customerType: 'INDIVIDUAL'}),
    index: /customers_customer_type_created_at_id \(customer_type=\?/,
  },
  {
    name: 'customers customerType + deleted',
    run: c({customerType: 'BUSINESS', isIncludingDeleted: 'true'}),
    index: /customers_customer_type_created_at_id \(customer_type=\?/,
  },
  {name: 'customers region', run: c({region: 'US'}), index: /customers_region_created_at_id \(region=\?/},
  {
    name: 'customers customerType + region',
    run: c({customerType: 'BUSINESS', region: 'MX'}),
    index: /customers_customer_type_region_created_at_id \(customer_type=\? AND region=\?/,
  },
  {
    name: 'customers umaAddress',
    run: c({umaAddress: '$a@b.c'}),
    index: /customers_uma_address_created_at_id \(uma_address=\?/,
  },
  {name: 'customers currency', run: c({currency: 'EUR'}), index: /SEARCH k USING PRIMARY KEY \(currency=\?/},
  {
    name: 'customers currency + deleted',
    run: c({currency: 'EUR', isIncludingDeleted: 'true'}),
    index: /SEARCH k USING PRIMARY KEY \(currency=\?/,
  },
  {
    name: 'customers currency + customerType',
    run: c({currency: 'EUR', customerType: 'INDIVIDUAL'}),
    index: /SEARCH k USING PRIMARY KEY \(currency=\?/,
  },
  {
    name: 'customers createdAfter',
    run: c({createdAfter: AT}),
    index: /customers_created_at_id_partial \(created_at>\?/,
  },
  {
    name: 'customers createdBefore',
    run: c({createdBefore: AT}),
    index: /customers_created_at_id_partial \(.*created_at<\?/,
  },
  {
    name: 'customers created window',
    run: c({createdAfter: AT, createdBefore: '2026-06-01T00:00:00Z'}),
    index: /customers_created_at_id_partial \(created_at>\? AND created_at<\?/,
  },
  {
    name: 'customers updatedAfter',
    run: c({updatedAfter: AT}),
    index: /customers_updated_at \(updated_at>\?/,
    sortsFew: true,
  },
  {
    name: 'customers updatedBefore',
    run: c({updatedBefore: AT}),
    index: /customers_updated_at \(updated_at<\?/,
    sortsFew: true,
  },
  {name: 'transactions', run: t({}), index: /transactions_created_at_id/},
  {name: 'transactions asc', run: t({sortOrder: 'asc'}), index: /transactions_created_at_id/},
  {
    name: 'transactions customerId',
    run: t({customerId: 'Customer:1'}),
    index: /transactions_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'transactions platformCustomerId',
    run: t({platformCustomerId: 'p-1'}),
    index: /transactions_platform_customer_id_created_at_id \(platform_customer_id=\?/,
  },
  {
    name: 'transactions accountIdentifier',
    run: t({accountIdentifier: 'InternalAccount:1'}),
    index:
      /transactions_source_account_id_created_at_id \(source_account_id=\?[\s\S]*transactions_destination_account_id_created_at_id \(destination_account_id=\?/,
  },
  {
    name: 'transactions senderAccountIdentifier',
    run: t({senderAccountIdentifier: 'InternalAccount:1'}),
    index:
      /transactions_source_account_id_created_at_id \(source_account_id=\?[\s\S]*cardTransactions_account_id_created_at_id \(account_id=\?/,
  },
  {
    name: 'transactions receiverAccountIdentifier',
    run: t({receiverAccountIdentifier: 'ExternalAccount:1'}),
    index: /transactions_destination_account_id_created_at_id \(destination_account_id=\?/,
  },
  {name: 'transactions status', run: t({status: 'COMPLETED'}), index: /transactions_status_created_at_id \(status=\?/},
  {name: 'transactions type', run: t({type: 'OUTGOING'}), index: /transactions_type_created_at_id \(type=\?/},
  {
    name: 'transactions reference',
    run: t({reference: 'REF-1'}),
    index: /transactions_reference \(reference=\?\)[\s\S]*PRIMARY KEY|INDEX sqlite_autoindex_transactions_1 \(id=\?\)/,
    sortsFew: true,
  },
  {name: 'transactions startDate', run: t({startDate: AT}), index: /transactions_created_at_id \(created_at>\?/},
  {name: 'transactions endDate', run: t({endDate: AT}), index: /transactions_created_at_id \(created_at<\?/},
  {
    name: 'transactions date window',
    run: t({startDate: AT, endDate: '2026-06-01T00:00:00Z'}),
    index: /transactions_created_at_id \(created_at>\? AND created_at<\?/,
  },
  {
    name: 'transactions status + startDate',
    run: t({status: 'PENDING', startDate: AT}),
    index: /transactions_status_created_at_id \(status=\? AND created_at>\?/,
  },
  {name: 'cards', run: (p) => listCards(store.db, {}, p), index: /cards_created_at_id/},
  {
    name: 'cards cardholderId',
    run: (p) => listCards(store.db, {cardholderId: 'Customer:1'}, p),
    index: /cards_cardholder_id_created_at_id \(cardholder_id=\?/,
  },
  {
    name: 'cards platformCardId',
    run: (p) => listCards(store.db, {platformCardId: 'pc-1'}, p),
    index: /cards_platform_card_id_created_at_id \(platform_card_id=\?/,
  },
  {
    name: 'cards state',
    run: (p) => listCards(store.db, {state: 'ACTIVE'}, p),
    index: /cards_state_created_at_id \(state=\?/,
  },
  {
    name: 'cards accountId',
    run: (p) => listCards(store.db, {accountId: 'InternalAccount:1'}, p),
    index: /cardFundingSources_account_id \(account_id=\?/,
    sortsFew: true,
  },
  {name: 'agents', run: (p) => listAgents(store.db, {}, p), index: /agents_created_at_id/},
  {
    name: 'agents customerId',
    run: (p) => listAgents(store.db, {customerId: 'Customer:1'}, p),
    index: /agents_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'agents isPaused',
    run: (p) => listAgents(store.db, {isPaused: 'true'}, p),
    index: /agents_is_paused_created_at_id \(is_paused=\?/,
  },
  {
    name: 'agents isConnected',
    run: (p) => listAgents(store.db, {isConnected: 'false'}, p),
    index: /agents_is_connected_created_at_id \(is_connected=\?/,
  },
  {
    name: 'agents createdAfter',
    run: (p) => listAgents(store.db, {createdAfter: AT}, p),
    index: /agents_created_at_id \(created_at>\?/,
  },
  {
    name: 'agents updatedAfter',
    run: (p) => listAgents(store.db, {updatedAfter: AT}, p),
    index: /agents_updated_at \(updated_at>\?/,
    sortsFew: true,
  },
  {
    name: 'agent approvals',
    run: (p) => listAgentActions(store.db, {status: 'PENDING_APPROVAL'}, p),
    index: /agentActions_status_created_at_id \(status=\?/,
  },
  {
    name: 'agent actions agentId',
    run: (p) => listAgentActions(store.db, {agentId: 'Agent:1'}, p),
    index: /agentActions_agent_id_created_at_id \(agent_id=\?/,
  },
  {
    name: 'agent actions customerId',
    run: (p) => listAgentActions(store.db, {customerId: 'Customer:1'}, p),
    index: /agentActions_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'internal accounts customerId',
    run: (p) => pageInternalAccounts(store.db, {customerId: 'Customer:1'}, p),
    index: /internalAccounts_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'internal accounts platform',
    run: (p) => pageInternalAccounts(store.db, {customerId: null}, p),
    index: /internalAccounts_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'internal accounts currency',
    run: (p) => pageInternalAccounts(store.db, {currency: 'USD'}, p),
    index: /internalAccounts_currency_created_at_id \(currency=\?/,
  },
  {
    name: 'internal accounts type',
    run: (p) => pageInternalAccounts(store.db, {type: 'EMBEDDED_WALLET'}, p),
    index: /internalAccounts_type_created_at_id \(type=\?/,
  },
  {
    name: 'external accounts customerId',
    run: (p) => pageExternalAccounts(store.db, {platform: false, customerId: 'Customer:1'}, p),
    index: /externalAccounts_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'external accounts platform',
    run: (p) => pageExternalAccounts(store.db, {platform: true}, p),
    index: /externalAccounts_customer_id_created_at_id \(customer_id=\?/,
  },
  {
    name: 'external accounts currency',
    run: (p) => pageExternalAccounts(store.db, {platform: false, currency: 'MXN'}, p),
    index: /externalAccounts_currency_created_at_id \(currency=\?/,
  },
]

/** Tables whose rows grow with use; a SCAN of one is a read of the whole table. */
const BIG =
  /^(SCAN|SEARCH) (\w+ AS )?(c|k|customers|customerCurrencies|transactions|cardTransactions|cards|agents|agentActions|internalAccounts|externalAccounts|events)\b/

describe('every list filter is answered from an index (EXPLAIN QUERY PLAN)', () => {
  for (const tc of cases) {
    for (const [when, paging] of [
      ['first page', first],
      ['next page', next],
    ] as const) {
      it(`${tc.name}, ${when}`, () => {
        const statements = plansOf(() => tc.run(paging))
        const text = (s: {sql: string; plan: string[]}) => `${s.sql}\n  ${s.plan.join('\n  ')}`
        const pages = statements.filter((s) => !/SELECT count\(\*\)/.test(s.sql))
        expect(pages.map((s) => s.plan.join('\n')).join('\n'), pages.map(text).join('\n')).toMatch(tc.index)
        for (const s of statements) {
          for (const line of s.plan) {
            // A SCAN is allowed only as the unfiltered first page's walk of the order index, which
            // LIMIT stops after limit + 1 rows.
            const unfilteredWalk =
              paging === first &&
              /^SCAN \w+( AS \w+)? USING (COVERING )?INDEX \w+_created_at_id(_partial)?$/.test(line) &&
              !/WHERE/.test(s.sql.replace(/WHERE c\.is_deleted = 0|WHERE is_deleted = 0/, ''))
            if (BIG.test(line) && line.startsWith('SCAN')) expect(unfilteredWalk, text(s)).toBe(true)
            if (/TEMP B-TREE/.test(line)) expect(tc.sortsFew, `sorts its matches: ${text(s)}`).toBe(true)
          }
        }
      })
    }
  }

  // A created-at window's total: bucket sums on timeCounts' primary key, and the two partial
  // minutes at the edges counted on a range of the keyset index bounded on both sides.
  for (const [name, run, edge] of [
    [
      'customers createdAfter',
      c({createdAfter: AT}),
      /customers_created_at_id_partial \(created_at>\? AND created_at<\?\)/,
    ],
    [
      'customers createdBefore + deleted',
      c({createdBefore: AT, isIncludingDeleted: 'true'}),
      /customers_created_at_id \(created_at>\? AND created_at<\?\)/,
    ],
    [
      'transactions startDate',
      t({startDate: AT}),
      /(transactions|cardTransactions)_created_at_id \(created_at>\? AND created_at<\?\)/,
    ],
  ] as const) {
    it(`${name}: the total is read from created_at buckets, not counted over the range`, () => {
      const statements = plansOf(() => run(first))
      const counts = statements.filter((s) => /count\(\*\)|timeCounts/.test(s.sql))
      const buckets = counts.filter((s) => /timeCounts/.test(s.sql))
      expect(buckets.length).toBeGreaterThan(0)
      for (const s of buckets)
        for (const line of s.plan.filter((l) => /timeCounts/.test(l)))
          expect(line).toMatch(/^SEARCH timeCounts USING PRIMARY KEY \(name=\? AND bucket[<>]\?/)
      const edges = counts.filter((s) => /count\(\*\)/.test(s.sql))
      expect(edges.length).toBeGreaterThan(0)
      for (const s of edges) expect(s.plan.join('\n'), s.sql).toMatch(edge)
    })
  }

  it('events of a type: an index range on (type, seq), no LIKE scan', () => {
    const [s] = plansOf(() => eventsOfType(store.db, 'CUSTOMER'))
    expect(s!.plan.join('\n')).toMatch(/events_type_seq \(type=\?\)[\s\S]*events_type_seq \(type>\? AND type<\?\)/)
    expect(s!.plan.join('\n')).not.toMatch(/^SCAN events/m)
  })
})
