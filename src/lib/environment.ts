/**
 * Every environment variable svc reads, for `svc help environment` (gh's `help environment`). A
 * test scans src/ and bin/ for variable names and fails when one is read but not listed here.
 */
export interface EnvironmentVariable {
  name: string
  group: 'credentials' | 'places' | 'output' | 'network' | 'sandbox' | 'internal'
  description: string
}

export const ENVIRONMENT: EnvironmentVariable[] = [
  {name: 'SVC_PROFILE', group: 'credentials', description: 'profile to use, as --profile'},
  {name: 'SVC_BASE_URL', group: 'credentials', description: 'API base URL; with the two below it replaces a profile'},
  {name: 'SVC_TOKEN_ID', group: 'credentials', description: 'API token id (client id)'},
  {name: 'SVC_CLIENT_SECRET', group: 'credentials', description: 'API client secret (never printed)'},
  {
    name: 'SVC_ENVIRONMENT',
    group: 'credentials',
    description: 'the environment the env credentials are for (production refuses writes without --yes)',
  },
  {name: 'SVC_KEYSTORE_PASSPHRASE', group: 'credentials', description: 'passphrase of the wallet key store, for CI'},
  {
    name: 'SVC_PROVIDER_CLIENT_SECRET',
    group: 'credentials',
    description: 'stablecoin provider API secret for `stablecoins provider-accounts link`',
  },
  {
    name: 'SVC_QUORUM_PUBLIC_KEY',
    group: 'credentials',
    description: "the enclave's quorum key the wallet crypto checks",
  },
  {name: 'SVC_CONFIG_DIR', group: 'places', description: 'where profiles live (default: XDG_CONFIG_HOME/svc)'},
  {name: 'SVC_DATA_DIR', group: 'places', description: 'where keys and history live (default: XDG_DATA_HOME/svc)'},
  {name: 'SVC_CACHE_DIR', group: 'places', description: 'where code caches live (default: XDG_CACHE_HOME/svc)'},
  {name: 'SVC_SANDBOX_DIR', group: 'places', description: "the local sandbox's data dir"},
  {name: 'XDG_CONFIG_HOME', group: 'places', description: 'base of the config dir (default ~/.config)'},
  {name: 'XDG_DATA_HOME', group: 'places', description: 'base of the data dir (default ~/.local/share)'},
  {name: 'XDG_CACHE_HOME', group: 'places', description: 'base of the cache dir (default ~/.cache)'},
  {name: 'SVC_HISTORY_MAX_BYTES', group: 'places', description: '`svc history` file size before it is trimmed'},
  {name: 'SVC_NO_INPUT', group: 'output', description: 'never prompt (as off a terminal); missing flags are errors'},
  {name: 'CI', group: 'output', description: 'set by CI systems: never prompt'},
  {name: 'NO_COLOR', group: 'output', description: 'no colour, as --no-color'},
  {name: 'FORCE_COLOR', group: 'output', description: 'colour even when stderr is not a terminal (0 turns it off)'},
  {name: 'TERM', group: 'output', description: '"dumb" turns colour off'},
  {
    name: 'SVC_PAGER',
    group: 'output',
    description: 'pager for lists on a terminal (empty or cat: none); wins over PAGER',
  },
  {name: 'PAGER', group: 'output', description: 'pager when SVC_PAGER is unset (default: less, if installed)'},
  {name: 'LESS', group: 'output', description: "less's options (default FRX: quit if one screen, keep colours)"},
  {name: 'LV', group: 'output', description: "lv's options when it is the pager (default -c: keep colours)"},
  {name: 'SVC_DEBUG', group: 'output', description: 'trace HTTP requests on stderr, as --debug (secrets redacted)'},
  {name: 'DEBUG', group: 'output', description: "oclif's own debug output (svc:*, oclif:*)"},
  {name: 'HTTPS_PROXY', group: 'network', description: 'proxy for https URLs (https_proxy too; lower case first)'},
  {name: 'HTTP_PROXY', group: 'network', description: 'proxy for http URLs (http_proxy too)'},
  {name: 'ALL_PROXY', group: 'network', description: 'proxy for either when the above are unset (all_proxy too)'},
  {name: 'NO_PROXY', group: 'network', description: 'hosts that connect directly (no_proxy too)'},
  {name: 'SVC_CA_FILE', group: 'network', description: 'extra CA (PEM) to trust, as --ca-file'},
  {
    name: 'NODE_EXTRA_CA_CERTS',
    group: 'network',
    description: "extra CAs, as Node reads them; svc's proxy trusts them too",
  },
  {name: 'SVC_SANDBOX_ADMIN_SECRET', group: 'sandbox', description: "a team sandbox server's admin secret, for CI"},
  {name: 'SVC_NO_BUNDLE', group: 'internal', description: 'run from the unbundled files (debugging svc itself)'},
  {name: 'SVC_ONE_BUNDLE', group: 'internal', description: 'load the one big bundle, not per-topic ones (benchmarks)'},
  {name: 'SVC_PLANNED_REQUESTS', group: 'internal', description: '`svc mcp`: the requests a confirmed plan may send'},
  {name: 'SVC_PLAN_IDEMPOTENCY_KEY', group: 'internal', description: '`svc mcp`: the key a confirmed plan reuses'},
  {name: 'SVC_COUNT_STARTS', group: 'internal', description: 'tests: a file each start of svc appends a line to'},
  {name: 'SVC_COUNT_TEST', group: 'internal', description: 'tests: the test file named on that line'},
  {
    name: 'SVC_TEST_CLOCK_OFFSET_MS',
    group: 'internal',
    description: "tests: skews svc's clock to play a wrong machine clock",
  },
  {name: 'OCLIF_DISABLE_ENGINE_WARNING', group: 'internal', description: "set by svc: oclif's Node version warning"},
  {name: 'HOME', group: 'internal', description: 'the home dir the default places hang from'},
  {name: 'PATH', group: 'internal', description: 'where the default pager (less) is looked up'},
]
