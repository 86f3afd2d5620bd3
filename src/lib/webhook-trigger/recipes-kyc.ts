import type {Recipe} from './recipe.js'
import {byId} from './recipe.js'
import {business, individual} from './setup.js'

/**
 * CUSTOMER.KYC_* / KYB_*: a complete packet is submitted; review begins (…_PENDING) and the decision
 * lands decisionDelayMs later, decided by the magic suffix (sandbox-behaviour.md §2, §3).
 */
const person =
  (nameSuffix?: string): Recipe =>
  async (kit) => {
    const c = await individual(kit, {nameSuffix})
    return {objectId: c.id!, matches: byId(c.id!)}
  }

const company =
  (registrationSuffix: string): Recipe =>
  async (kit) => {
    const c = await business(kit, registrationSuffix)
    return {objectId: c.id!, matches: byId(c.id!)}
  }

export const kycRecipes: Record<string, Recipe> = {
  'CUSTOMER.KYC_PENDING': person(),
  'CUSTOMER.KYC_APPROVED': person(),
  'CUSTOMER.KYC_REJECTED': person('002'),
  'CUSTOMER.KYB_PENDING': company('010'),
  'CUSTOMER.KYB_APPROVED': company('010'),
  'CUSTOMER.KYB_REJECTED': company('002'),
}
