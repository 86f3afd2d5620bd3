/** Waits until `cond` holds, polling every 20 ms; throws after `ms`. */
export async function eventually(cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}
