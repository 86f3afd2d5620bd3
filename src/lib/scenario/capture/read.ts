import type {ApiClient} from '../../api/client.js'

/** One JSON document as the remote sent it (only the fields the flow needs are read by name). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer read loosely; each field is checked where used
export type Doc = Record<string, any>

/** Everything `flow capture` knows about one customer, read with GETs only. */
export interface Situation {
  customer: Doc
  /** Oldest first. */
  verifications: Doc[]
  /** Holder id -> its documents (the metadata only; files are never downloaded). */
  documents: Record<string, Doc[]>
  owners: Doc[]
  internalAccounts: Doc[]
  externalAccounts: Doc[]
  /** The most recent transactions (newest first, at most RECENT_TRANSACTIONS). */
  transactions: Doc[]
  /** Quote id -> quote, for the transactions that name one. */
  quotes: Record<string, Doc>
  /** Embedded wallet account id -> its credentials and sessions. */
  wallets: Record<string, {credentials: Doc[]; sessions: Doc[]}>
}

export const RECENT_TRANSACTIONS = 20

/**
 * Reads the customer's situation. Every request here is a GET: capture never changes the remote
 * (the integration test checks the remote's request log).
 */
export async function readSituation(client: ApiClient, customerId: string): Promise<Situation> {
  const get = async (path: string[], query?: Record<string, string | number>) =>
    (await client.request<Doc>({method: 'GET', path, query})).body
  const all = async (path: string[], query: Record<string, string>) => {
    const out: Doc[] = []
    for (let cursor: string | undefined; ;) {
      const page = await get(path, {...query, limit: 100, ...(cursor ? {cursor} : {})})
      out.push(...((page?.data as Doc[]) ?? []))
      if (!page?.hasMore || !page.nextCursor) return out
      cursor = page.nextCursor as string
    }
  }

  // The customer first: an unknown id stops here (404) before anything else is asked.
  const customer = await get(['customers', customerId])
  const business = customer.customerType === 'BUSINESS'
  const [verifications, owners, internalAccounts, externalAccounts, recent] = await Promise.all([
    all(['verifications'], {customerId}),
    business ? all(['beneficial-owners'], {customerId}) : Promise.resolve([]),
    all(['customers', 'internal-accounts'], {customerId}),
    all(['customers', 'external-accounts'], {customerId}),
    get(['transactions'], {customerId, limit: RECENT_TRANSACTIONS, sortOrder: 'desc'}),
  ])
  const documents: Record<string, Doc[]> = {}
  for (const holder of [customerId, ...owners.map((o) => String(o.id))])
    documents[holder] = await all(['documents'], {documentHolder: holder})
  const transactions = ((recent?.data as Doc[]) ?? []).slice(0, RECENT_TRANSACTIONS)
  const quotes: Record<string, Doc> = {}
  for (const t of transactions)
    if (typeof t.quoteId === 'string' && !quotes[t.quoteId]) quotes[t.quoteId] = await get(['quotes', t.quoteId])
  const wallets: Situation['wallets'] = {}
  for (const a of internalAccounts.filter((x) => x.type === 'EMBEDDED_WALLET')) {
    const [credentials, sessions] = await Promise.all([
      get(['auth', 'credentials'], {accountId: a.id}),
      get(['auth', 'sessions'], {accountId: a.id}),
    ])
    wallets[a.id] = {credentials: credentials?.data ?? [], sessions: sessions?.data ?? []}
  }
  return {
    customer,
    verifications: [...verifications].sort(byCreated),
    documents,
    owners,
    internalAccounts,
    externalAccounts,
    transactions,
    quotes,
    wallets,
  }
}

const byCreated = (a: Doc, b: Doc) => String(a.createdAt ?? '').localeCompare(String(b.createdAt ?? ''))
