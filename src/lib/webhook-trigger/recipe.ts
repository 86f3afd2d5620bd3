import type {Kit} from './kit.js'

/** What a recipe made happen: the object the event is about, and how to recognise its event in the log. */
export interface Made {
  /** The object the event will be about (customer, transaction, card, account, invitation code ...). */
  objectId: string
  /** True for the `data` of the event this run caused (the log holds everyone's events). */
  matches(data: Record<string, unknown>): boolean
}

export type Recipe = (kit: Kit) => Promise<Made>

export const byId = (id: string) => (d: Record<string, unknown>) => d.id === id
