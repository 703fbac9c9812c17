/**
 * The dapp's EIP-1193 requests (from `modal.getProvider()`), routed to the connected connector.
 * Disconnected: eth_accounts is [], eth_chainId is the picked network, eth_requestAccounts and
 * wallet_requestPermissions open the modal and wait for a connection (closing the modal rejects with
 * 4001); account methods fail with 4100 and everything else with 4900. `solana_*` methods are the SDK
 * Doorway wallet's, answered for the Solana account (host/solanaRequests.ts).
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import type { createStore } from 'jotai'
import { accountMethods, unsafeMethods } from './methods.js'
import { apiAtom } from '../core/api.js'
import { balanceRefreshAtom } from '../features/balances/balance.js'
import { configAtom } from '../core/config.js'
import { accountsAtom } from '../core/connection.js'
import { notifyAtom } from '../core/host.js'
import { openAtom, openModalAtom } from '../core/modal.js'
import { activeNetworkAtom, switchNetworkAtom } from '../core/network.js'

type Store = ReturnType<typeof createStore>

export function create(store: Store) {
  return async function request({ method, params }: Protocol.RpcRequest): Promise<unknown> {
    // The SDK's Doorway wallet asks for the Solana account (host/solanaRequests.ts, a chunk of its own).
    if (method.startsWith('solana_')) return import('./solanaRequests.js').then((Solana) => Solana.request(store, method, params, connectThroughModal))
    // The dapp's EIP-1193 provider speaks for the EVM account only, whichever namespace the modal shows.
    const account = evmAccount(store)
    if (method === 'eth_chainId') {
      const active = store.get(activeNetworkAtom)?.caipNetworkId
      const chainId = account?.chainId ?? (active?.startsWith('eip155:') ? active : store.get(configAtom)?.networks.find((n) => n.caipNetworkId.startsWith('eip155:'))?.caipNetworkId)
      if (!chainId) throw Errors.disconnected()
      return Caip.eip155Hex(chainId)
    }
    if (method === 'eth_accounts') return account ? [account.address] : []
    if (method === 'eth_requestAccounts') return account ? [account.address] : connectThroughModal(store)
    // EIP-2255: wallets treat a permission request as a connect prompt; so does the modal.
    if (method === 'wallet_requestPermissions' && !account)
      return connectThroughModal(store).then(() => [{ parentCapability: 'eth_accounts' }])
    if (method === 'wallet_getAssets') return getAssets(store, params)
    if (!account) throw accountMethods.has(method) ? Errors.unauthorized() : Errors.disconnected()
    if (method === 'wallet_switchEthereumChain') {
      const network = configured(store, params)
      // A configured network goes through the modal's switch (add on 4902, state, events).
      if (network) return store.set(switchNetworkAtom, network).then(() => null)
    }
    const result = await account.connector.request({ method, ...(params && { params }) })
    // spec §4: a successful unsafe request refreshes the native balance (once, whatever the connector).
    if (unsafeMethods.has(method)) store.set(balanceRefreshAtom, (n) => n + 1)
    return result
  }
}

/** spec §7 Wallet RPC: ERC-7811 asset discovery, answered by the modal from the api (host/assets.ts). */
const evmAccount = (store: Store) => store.get(accountsAtom).eip155 ?? null

async function getAssets(store: Store, params: Protocol.RpcRequest['params']): Promise<unknown> {
  const account = evmAccount(store)
  if (!account) throw Errors.unauthorized()
  const Assets = await import('./assets.js')
  const request = Assets.parse(params)
  const api = store.get(apiAtom)
  const networks = store.get(configAtom)?.networks.map((n) => n.caipNetworkId) ?? []
  return Assets.get(request, { address: account.address, networks, balances: (chainId) => api.balances(account.address, { chainId }) })
}

function configured(store: Store, params: Protocol.RpcRequest['params']) {
  const [target] = Array.isArray(params) ? params : []
  const chainId = (target as { chainId?: unknown } | undefined)?.chainId
  return store.get(configAtom)?.networks.find((n) => typeof chainId === 'string' && Caip.eip155Hex(n.caipNetworkId) === chainId.toLowerCase())
}

/** Opens the modal for the person to pick a wallet of `namespace`; settles when they connect one or close it. */
function connectThroughModal(store: Store, namespace: Caip.Namespace = 'eip155'): Promise<string[]> {
  // Connected in another namespace, opening would show Account: Connect offers the wallets of this one.
  store.set(openModalAtom, namespace === 'eip155' ? undefined : { view: 'Connect' })
  store.set(notifyAtom, { type: 'show' })
  return new Promise((resolve, reject) => {
    const stop = () => {
      unsubscribeAccount()
      unsubscribeOpen()
    }
    const unsubscribeAccount = store.sub(accountsAtom, () => {
      const account = store.get(accountsAtom)[namespace]
      if (!account) return
      stop()
      resolve([account.address])
    })
    const unsubscribeOpen = store.sub(openAtom, () => {
      if (store.get(openAtom)) return
      stop()
      reject(Errors.userRejected())
    })
  })
}
