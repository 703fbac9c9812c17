/**
 * The dev wallet's logic, free of the DOM: an EIP-1193 provider over one mnemonic account, with the
 * approval step and the storage injected so tests run it in Node against real anvil chains.
 * The state and its steps are Context.ts; the answer to each request is Handlers.ts.
 */
import { numberToHex } from 'viem'
import type * as Chains from './Chains.js'
import * as Context from './Context.js'
import type { Request } from './Describe.js'
import * as Handlers from './Handlers.js'

export type { Approval, Storage } from './Context.js'

export const testMnemonic = 'test test test test test test test test test test test junk'

export type Provider = ReturnType<typeof create>['provider']

export function create(options: create.Options) {
  const { mnemonic = testMnemonic } = options
  const context = Context.create({ ...options, mnemonic })
  const { events, chains, changed } = context

  const provider = {
    isDoorwayDevWallet: true as const,
    request: (request: Request): Promise<unknown> => Handlers.request(context, request),
    on: events.on,
    removeListener: events.removeListener,
  }

  // EIP-1193 `connect` once listeners attached during page load can hear it.
  setTimeout(() => events.emit('connect', { chainId: numberToHex(chains.current()) }))

  return {
    provider,
    address: context.account.address,
    setChain: (id: number) => Context.setChain(context, id),
    addKnownChain: (id: number, rpcUrl: string) => Context.addKnownChain(context, id, rpcUrl),
    /** For the dev controls: the wallet's state now, and a callback when any of it changes. */
    state: () => ({ chainId: chains.current(), chains: chains.list(), permitted: Context.permitted(context) }),
    onChange(listener: () => void) {
      changed.add(listener)
      return () => changed.delete(listener)
    },
  }
}
export declare namespace create {
  type Options = {
    approve: (approval: Context.Approval) => Promise<boolean>
    storage: Context.Storage
    /** The page's origin, remembered as permitted on approval (in a browser, `location.origin`). */
    origin: string
    mnemonic?: string
    chains?: Chains.Known
  }
}
