// The jmespath package (0.16) ships no types, and @types/jmespath declares only `search`: the two
// functions svc uses, as the package's jmespath.js defines them.
declare module 'jmespath' {
  /** The parsed expression; throws on a syntax error (message names the position). */
  export function compile(expression: string): unknown
  export function search(data: unknown, expression: string): unknown
  const jmespath: {compile: typeof compile; search: typeof search}
  export default jmespath
}
