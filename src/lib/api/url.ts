import type {Query} from './request.js'

/** The URL of a described request: each path segment encoded on its own, an array value repeated. */
export function requestUrl(baseUrl: string, path: string[], query?: Query): string {
  const encoded = path.map((s) => encodeURIComponent(s)).join('/')
  let url = `${baseUrl}/${encoded}`
  const qs = Object.entries(query ?? {}).filter(([, v]) => v !== undefined && v !== '')
  if (qs.length)
    url +=
      '?' +
      new URLSearchParams(
        qs.flatMap(([k, v]): Array<[string, string]> => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]])),
      ).toString()
  return url
}
