import * as z from 'zod'

// Apart from uma.ts (the look-up and the sandbox's UMA requests), so a quote's schema builds just this.

/** `$name@domain`, as customers' umaAddress. */
export const UMA_ADDRESS = /^\$[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,}$/i
export const umaAddress = z.string().regex(UMA_ADDRESS, {message: 'must be an UMA address ($name@domain)'})
