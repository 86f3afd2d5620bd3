import type {Emulator} from '../emulator.js'
import type {Router} from '../router.js'
import {registerCustomers} from './customers.js'
import {registerPlatform} from './platform.js'

/** Every resource module registers its routes here (one line each). */
export function registerRoutes(router: Router, emu: Emulator): void {
  registerPlatform(router, emu)
  registerCustomers(router, emu)
}
