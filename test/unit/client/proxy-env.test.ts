import {describe, expect, it} from 'vitest'
import {noProxyMatch, proxyFor, redactProxyUrl} from '../../../src/lib/api/proxy.js'

describe('proxyFor: the environment read as curl reads it', () => {
  const shown = (target: string, env: NodeJS.ProcessEnv) => {
    const r = proxyFor(target, env)
    return r && ('bypass' in r ? `direct (${r.variable}: ${r.bypass})` : `${r.shown} from ${r.variable}`)
  }

  it('the scheme picks the variable; the lower-case form first; empty is unset; ALL_PROXY last', () => {
    const env = {
      HTTPS_PROXY: 'http://s:1',
      https_proxy: 'http://ls:1',
      HTTP_PROXY: 'http://h:1',
      ALL_PROXY: 'http://a:1',
    }
    expect(shown('https://api.example.com/v', env)).toBe('http://ls:1 from https_proxy')
    expect(shown('https://api.example.com/v', {...env, https_proxy: ''})).toBe('http://s:1 from HTTPS_PROXY')
    expect(shown('http://api.example.com/v', env)).toBe('http://h:1 from HTTP_PROXY')
    expect(shown('http://api.example.com/v', {ALL_PROXY: 'http://a:1'})).toBe('http://a:1 from ALL_PROXY')
    expect(shown('https://api.example.com/v', {HTTP_PROXY: 'http://h:1'})).toBeUndefined()
    expect(shown('https://api.example.com/v', {})).toBeUndefined()
  })

  it('no scheme means http://, no port means 1080 (curl)', () => {
    expect(shown('https://x.test', {HTTPS_PROXY: 'proxy.corp'})).toBe('http://proxy.corp:1080 from HTTPS_PROXY')
    expect(shown('https://x.test', {HTTPS_PROXY: 'proxy.corp:3128'})).toBe('http://proxy.corp:3128 from HTTPS_PROXY')
  })

  it('NO_PROXY (lower-case first) takes precedence over the proxy', () => {
    expect(shown('https://api.example.com', {HTTPS_PROXY: 'p:1', NO_PROXY: 'example.com'})).toBe(
      'direct (NO_PROXY: example.com)',
    )
    expect(shown('https://api.example.com', {HTTPS_PROXY: 'p:1', no_proxy: '', NO_PROXY: 'example.com'})).toBe(
      'http://p:1 from HTTPS_PROXY',
    )
  })

  it('credentials are hidden whole in what is shown, but kept for the dispatcher', () => {
    const r = proxyFor('https://x.test', {HTTPS_PROXY: 'http://al%40ce:p%3Ass@proxy:8080'})
    expect(r && 'url' in r && r.shown).toBe('http://[REDACTED]@proxy:8080')
    expect(r && 'url' in r && r.url.password).toBe('p%3Ass')
    expect(redactProxyUrl(new URL('https://proxy:8443'))).toBe('https://proxy:8443')
  })

  it('only http(s) proxies; a value that is no URL is refused naming the variable, credentials hidden', () => {
    expect(() => proxyFor('https://x.test', {HTTPS_PROXY: 'socks5h://p:1'})).toThrow(
      'HTTPS_PROXY names a socks5h proxy; svc speaks to http:// and https:// proxies only',
    )
    expect(() => proxyFor('https://x.test', {HTTPS_PROXY: 'http://u:secret@[::1'})).toThrow(
      'HTTPS_PROXY is not a proxy URL (http://[REDACTED]@[::1)',
    )
  })
})

describe('noProxyMatch: curl NO_PROXY entries', () => {
  it.each([
    ['api.example.com', 'example.com', 'example.com'],
    ['example.com', '.example.com', '.example.com'],
    ['api.example.com', '*.example.com', undefined], // '*' alone is the only wildcard (curl)
    ['notexample.com', 'example.com', undefined],
    ['example.com.evil', 'example.com', undefined],
    ['anything', 'a.test, *', '*'],
    ['10.1.2.3', '10.0.0.0/8', '10.0.0.0/8'],
    ['11.1.2.3', '10.0.0.0/8', undefined],
    ['[::1]', '::1', '::1'],
    ['[2001:db8::7]', '2001:db8::/32', '2001:db8::/32'],
    ['127.0.0.1', 'localhost', undefined], // loopback is not special (curl)
    ['API.Example.COM', 'example.com', 'example.com'],
  ])('%s against %j', (host, list, expected) => {
    expect(noProxyMatch(host, list)).toBe(expected)
  })
})
