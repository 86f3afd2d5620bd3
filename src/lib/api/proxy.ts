import {isIP} from 'node:net'
import {usageError} from '../errors.js'

/** The proxy a URL goes through, from the environment as curl reads it. */
export interface ProxyChoice {
  /** The proxy's URL, credentials included: only the dispatcher sees this. */
  url: URL
  /** The variable it came from (`https_proxy`, `HTTPS_PROXY`, `all_proxy` ...). */
  variable: string
  /** The URL for output: credentials hidden. */
  shown: string
}

/** Why a URL connects directly although a proxy is set: the NO_PROXY entry that matched. */
export interface ProxyBypass {
  bypass: string
  variable: string
}

/**
 * curl's choice of proxy for `target` (https_proxy / HTTPS_PROXY for https URLs, http_proxy /
 * HTTP_PROXY for http ones, then all_proxy / ALL_PROXY; the lower-case form first; an empty value
 * counts as unset), unless NO_PROXY names the host. Pure: no undici, so a command that sends
 * nothing, or runs without a proxy, pays nothing for it.
 */
export function proxyFor(target: string, env: NodeJS.ProcessEnv): ProxyChoice | ProxyBypass | undefined {
  const u = new URL(target)
  const scheme = u.protocol === 'https:' ? 'https' : 'http'
  const names = [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY']
  const variable = names.find((n) => env[n]?.trim())
  if (!variable) return undefined
  const noProxyVar = ['no_proxy', 'NO_PROXY'].find((n) => env[n] !== undefined)
  const entry = noProxyVar ? noProxyMatch(u.hostname, env[noProxyVar]!) : undefined
  if (entry !== undefined) return {bypass: entry, variable: noProxyVar!}
  const url = parseProxyUrl(variable, env[variable]!.trim())
  return {url, variable, shown: redactProxyUrl(url)}
}

/** A proxy URL as curl takes it: no scheme means http://, no port means 1080. Only http(s) proxies are spoken. */
export function parseProxyUrl(variable: string, value: string): URL {
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`)
  } catch {
    throw usageError(
      `${variable} is not a proxy URL (${redactProxyText(value)})`,
      `Set ${variable} to http://host:port (credentials as http://user:password@host:port), or unset it.`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(
      `${variable} names a ${url.protocol.slice(0, -1)} proxy; svc speaks to http:// and https:// proxies only`,
      `Point ${variable} at an HTTP proxy (CONNECT), or unset it.`,
    )
  if (!url.port) url.port = '1080'
  return url
}

/** A proxy URL for output: user and password are credentials, and both are hidden. */
export function redactProxyUrl(url: URL): string {
  const shown = new URL(url.href)
  const hadCredentials = Boolean(shown.username || shown.password)
  shown.username = ''
  shown.password = ''
  const text = shown.href.replace(/\/$/, '')
  return hadCredentials ? text.replace('://', '://[REDACTED]@') : text
}

/** A value that is not even a URL may still hold `user:password@`: everything before the last @ goes. */
function redactProxyText(value: string): string {
  const at = value.lastIndexOf('@')
  if (at < 0) return value
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? ''
  return `${scheme}[REDACTED]${value.slice(at)}`
}

/**
 * curl's NO_PROXY: a comma-separated list; `*` alone matches every host; a name matches itself and
 * its subdomains (a leading dot is ignored); an IP address matches itself, or a range in CIDR
 * notation. Ports are not part of an entry. Returns the entry that matched.
 */
export function noProxyMatch(hostname: string, noProxy: string): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry === '*') return raw.trim()
    const [net, bits] = entry.split('/')
    if (isIP(host) && isIP(net!)) {
      if (bits === undefined ? net === host : inCidr(host, net!, Number(bits))) return raw.trim()
      continue
    }
    const name = entry.replace(/^\.+/, '')
    if (host === name || host.endsWith(`.${name}`)) return raw.trim()
  }
  return undefined
}

function inCidr(ip: string, net: string, bits: number): boolean {
  if (isIP(ip) !== isIP(net) || !Number.isInteger(bits)) return false
  const a = ipBits(ip)
  const b = ipBits(net)
  if (bits < 0 || bits > a.length) return false
  return a.slice(0, bits) === b.slice(0, bits)
}

/** An address as a string of bits (IPv6 with `::` expanded). */
function ipBits(ip: string): string {
  if (isIP(ip) === 4)
    return ip
      .split('.')
      .map((o) => Number(o).toString(2).padStart(8, '0'))
      .join('')
  const [head, tail = ''] = ip.split('::')
  const h = head ? head.split(':') : []
  const t = ip.includes('::') && tail ? tail.split(':') : []
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h
  return groups
    .map((g) =>
      parseInt(g || '0', 16)
        .toString(2)
        .padStart(16, '0'),
    )
    .join('')
}
