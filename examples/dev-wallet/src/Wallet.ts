/**
 * The dev wallet's logic, free of the DOM: an EIP-1193 provider over one mnemonic account, with the
 * approval step and the storage injected so tests run it in Node against real anvil chains.
 */
import { isAddress, isAddressEqual, isHex, numberToHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import * as Chains from './Chains.js'
import { describe, type Request } from './Describe.js'
import * as Emitter from './Emitter.js'
import * as Errors from './Errors.js'
import * as Rpc from './Rpc.js'
import * as Transaction from './Transaction.js'

export const testMnemonic = 'test test test test test test test test test test test junk'

/** What the approval prompt receives: who asks, for what, in plain words. */
export type Approval = Request & { origin: string; chainId: number; description: string }

export type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

export type Provider = ReturnType<typeof create>['provider']

const permittedKey = 'doorway-dev-wallet:permitted'

export function create(options: create.Options) {
  const { approve, storage, origin, mnemonic = testMnemonic } = options
  const account = mnemonicToAccount(mnemonic)
  const events = Emitter.create()
  const chains = Chains.create(storage, options.chains)
  const changed = new Set<() => void>()
  const notify = () => changed.forEach((listener) => listener())

  // One request flow at a time, like an extension's popup: a later request is shown only once the
  // earlier one is answered and done (a send is signed and broadcast, so nonces follow each other).
  let queue: Promise<unknown> = Promise.resolve()
  function approved<T>(request: Request, then: () => T | Promise<T>, unlessAlready?: () => boolean) {
    const approval = { ...request, origin, chainId: chains.current(), description: describe(request, origin) }
    const flow = queue
      .then(() => unlessAlready?.() || approve(approval))
      .then((yes) => {
        if (!yes) throw Errors.userRejected()
        return then()
      })
    queue = flow.catch(() => undefined)
    return flow
  }

  const permitted = () => readOrigins(storage).includes(origin)
  function setPermitted(value: boolean) {
    if (value === permitted()) return
    const others = readOrigins(storage).filter((o) => o !== origin)
    storage.setItem(permittedKey, JSON.stringify(value ? [...others, origin] : others))
    events.emit('accountsChanged', value ? [account.address] : [])
    notify()
  }

  function requireAccount(address: unknown) {
    if (!permitted()) throw Errors.unauthorized()
    if (typeof address !== 'string' || !isAddress(address, { strict: false })) throw Errors.invalidParams('Expected an address')
    if (!isAddressEqual(address, account.address)) throw Errors.unauthorized()
  }

  function setChain(id: number) {
    if (!chains.rpcUrl(id)) throw Errors.unrecognizedChain(numberToHex(id))
    if (id === chains.current()) return
    chains.select(id)
    events.emit('chainChanged', numberToHex(id))
    notify()
  }

  async function connect(request: Request) {
    // a second connect queued behind an approved one finds the origin permitted and skips its prompt
    if (!permitted()) await approved(request, () => setPermitted(true), permitted)
  }

  const handlers: Record<string, (params: any[], request: Request) => unknown> = {
    eth_requestAccounts: async (_, request) => {
      await connect(request)
      return [account.address]
    },
    eth_accounts: () => (permitted() ? [account.address] : []),
    eth_chainId: () => numberToHex(chains.current()),
    net_version: () => String(chains.current()),
    wallet_requestPermissions: async (_, request) => {
      await connect(request)
      return [{ parentCapability: 'eth_accounts', invoker: origin }]
    },
    wallet_getPermissions: () => (permitted() ? [{ parentCapability: 'eth_accounts', invoker: origin }] : []),
    wallet_revokePermissions: () => {
      setPermitted(false)
      return null
    },
    wallet_switchEthereumChain: ([param]) => {
      setChain(Chains.parseId(param?.chainId))
      return null
    },
    wallet_addEthereumChain: async ([param], request) => {
      const id = Chains.parseId(param?.chainId)
      const rpcUrl = param?.rpcUrls?.[0]
      if (typeof rpcUrl !== 'string') throw Errors.invalidParams('Expected rpcUrls with at least one URL')
      return approved(request, () => {
        addKnownChain(id, rpcUrl)
        // Common wallet behaviour (MetaMask, Rabby): adding a network also switches to it.
        setChain(id)
        return null
      })
    },
    personal_sign: async ([message, address], request) => {
      requireAccount(address)
      if (typeof message !== 'string') throw Errors.invalidParams('Expected a message')
      return approved(request, () => account.signMessage({ message: isHex(message) ? { raw: message } : message }))
    },
    eth_signTypedData_v4: async ([address, data], request) => {
      requireAccount(address)
      const typed = parseTypedData(data)
      return approved(request, () => account.signTypedData(typed))
    },
    eth_sendTransaction: async ([tx], request) => {
      // like extension wallets, a missing `from` means the connected account
      requireAccount(tx?.from ?? account.address)
      // The chain the dapp asked on; a network switch while the prompt waits does not move the payment.
      const rpcUrl = chains.rpcUrl(chains.current())!
      const chainId = chains.current()
      return approved(request, async () => {
        const prepared = await Transaction.prepare(rpcUrl, chainId, { ...tx, from: account.address })
        return Rpc.request(rpcUrl, 'eth_sendRawTransaction', [await account.signTransaction(prepared)])
      })
    },
  }

  // Signing methods the node would answer with its own unlocked keys, bypassing the prompt.
  const refused = new Set(['eth_sign', 'eth_signTransaction', 'eth_signTypedData', 'eth_signTypedData_v3'])

  const provider = {
    isDoorwayDevWallet: true as const,
    async request({ method, params }: Request): Promise<unknown> {
      const handler = handlers[method]
      if (handler) return handler(Array.isArray(params) ? params : [], { method, params })
      if (refused.has(method) || method.startsWith('wallet_')) throw Errors.unsupportedMethod(method)
      return Rpc.request(chains.rpcUrl(chains.current())!, method, params ?? [])
    },
    on: events.on,
    removeListener: events.removeListener,
  }

  function addKnownChain(id: number, rpcUrl: string) {
    chains.add(id, rpcUrl)
    notify()
  }

  // EIP-1193 `connect` once listeners attached during page load can hear it.
  setTimeout(() => events.emit('connect', { chainId: numberToHex(chains.current()) }))

  return {
    provider,
    address: account.address,
    setChain,
    addKnownChain,
    /** For the dev controls: the wallet's state now, and a callback when any of it changes. */
    state: () => ({ chainId: chains.current(), chains: chains.list(), permitted: permitted() }),
    onChange(listener: () => void) {
      changed.add(listener)
      return () => changed.delete(listener)
    },
  }
}
export declare namespace create {
  type Options = {
    approve: (approval: Approval) => Promise<boolean>
    storage: Storage
    /** The page's origin, remembered as permitted on approval (in a browser, `location.origin`). */
    origin: string
    mnemonic?: string
    chains?: Chains.Known
  }
}

function readOrigins(storage: Storage): string[] {
  try {
    const value = JSON.parse(storage.getItem(permittedKey) ?? '[]')
    return Array.isArray(value) ? value : []
  } catch {
    return []
  }
}

function parseTypedData(data: unknown) {
  try {
    const typed = typeof data === 'string' ? JSON.parse(data) : data
    if (typed && typeof typed === 'object' && 'types' in typed && 'primaryType' in typed) return typed
  } catch {}
  throw Errors.invalidParams('Expected EIP-712 typed data')
}
