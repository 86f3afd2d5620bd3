/**
 * "Did you mean" for mistyped commands and flags. The ranking is plain edit distance (optimal string
 * alignment: a swap of two neighbours counts once, "custmoers" is one step from "customers"); a
 * candidate is offered only when it is plausibly what was meant, so `svc frobnicate` gets no random
 * suggestion. No dependencies: bin/run.js loads this file (tsc output) only when a command is unknown.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({length: rows}, (_, i) =>
    Array.from({length: cols}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/** The closest candidate within a third of the input's length (at least 2 edits), or undefined. */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.floor(input.length / 3))
  let best: {value: string; distance: number} | undefined
  for (const value of candidates) {
    const distance = editDistance(input.toLowerCase(), value.toLowerCase())
    if (distance <= limit && (!best || distance < best.distance)) best = {value, distance}
  }
  return best?.value
}

/**
 * The command meant by the words typed (`["custmers", "list", "--json"]`): the longest run of
 * leading words that is close to a command id; returns the id and how many words it replaces.
 */
export function suggestCommand(words: string[], commandIds: string[]): {id: string; consumed: number} | undefined {
  const leading: string[] = []
  for (const w of words) {
    if (w.startsWith('-')) break
    leading.push(w)
  }
  for (let n = Math.min(leading.length, 4); n >= 1; n--) {
    const typed = leading.slice(0, n).join(':')
    const sameDepth = commandIds.filter((id) => id.split(':').length === n)
    const id = closest(typed, sameDepth)
    if (id) return {id, consumed: n}
  }
  return undefined
}

/**
 * A command or topic typed without its topic (`svc snapshot` for `sandbox snapshot`, `svc capture`
 * for `flow capture`): the typed words, exactly, as the later words of one id. Offered only when
 * they point at one place (`svc list` is in every topic: no guess). Returns the id or topic.
 */
export function suggestAcrossTopics(words: string[], commandIds: string[]): string | undefined {
  const typed = words.map((w) => w.toLowerCase())
  const places = new Set<string>()
  for (const id of commandIds) {
    const parts = id.split(':')
    for (let at = 1; at + typed.length <= parts.length; at++)
      if (typed.every((w, k) => parts[at + k] === w)) places.add(parts.slice(0, at + typed.length).join(':'))
  }
  return places.size === 1 ? [...places][0] : undefined
}

/** suggestCommand, then the same words under another topic: what "Did you mean" offers. */
export function suggestAnywhere(words: string[], commandIds: string[]): {id: string; consumed: number} | undefined {
  const near = suggestCommand(words, commandIds)
  if (near) return near
  const leading: string[] = []
  for (const w of words) {
    if (w.startsWith('-')) break
    leading.push(w)
  }
  for (let n = Math.min(leading.length, 3); n >= 1; n--) {
    const id = suggestAcrossTopics(leading.slice(0, n), commandIds)
    if (id) return {id, consumed: n}
  }
  return undefined
}
