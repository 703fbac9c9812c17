/** The active network and switching it (spec §4 EVM network switch). */
import * as Caip from '@doorway/shared/Caip'
import type { ChainId } from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { configAtom } from './config.js'
import { accountsAtom, activeNamespaceAtom, chainChangedAtom, connectedAtom, namespaceOf } from './connection.js'

/** Per namespace, the network the person picked while not connected in it. */
const pickedAtom = atom<Partial<Record<Caip.Namespace, ChainId>>>({})

/**
 * The network in use, of the namespace in use: the connected wallet's network there (undefined if
 * unconfigured), else the one the person picked, else the dapp's default or its first of that namespace.
 */
export const activeNetworkAtom = atom((get) => {
  const config = get(configAtom)
  const namespace = get(activeNamespaceAtom)
  const account = get(accountsAtom)[namespace]
  const ofNamespace = config?.networks.filter((n) => namespaceOf(n.caipNetworkId) === namespace) ?? []
  const fallback = ofNamespace.find((n) => n.caipNetworkId === config?.defaultNetwork) ?? ofNamespace[0]
  const id = account ? account.chainId : (get(pickedAtom)[namespace] ?? fallback?.caipNetworkId)
  return config?.networks.find((n) => n.caipNetworkId === id)
})

/** A network's namespace has no connected account: the person must connect a wallet for it first. */
export const needsWalletAtom = atom((get) => (network: Protocol.Network) => {
  const namespace = namespaceOf(network.caipNetworkId)
  return get(connectedAtom) && !get(accountsAtom)[namespace]
})

/**
 * spec §4. Another namespace becomes the one in use (its wallet's account, or none yet). Within eip155:
 * try a switch; if the wallet does not recognise the chain (4902), add it and switch; otherwise throw
 * 'Chain is not supported'. Other namespaces switch in the frame: the wallet's account must hold that network.
 * Disconnected in the namespace, it only picks the network.
 */
export const switchNetworkAtom = atom(null, async (get, set, network: Protocol.Network) => {
  const namespace = namespaceOf(network.caipNetworkId)
  set(activeNamespaceAtom, namespace)
  const account = get(accountsAtom)[namespace]
  if (!account) return set(pickedAtom, (picked) => ({ ...picked, [namespace]: network.caipNetworkId }))
  if (account.chainId === network.caipNetworkId) return
  if (namespace !== 'eip155') {
    // A WalletConnect session's accounts name their chains; a wallet that lacks this one cannot switch to it.
    if (account.connector.chains && !account.connector.chains().includes(network.caipNetworkId)) throw Errors.chainNotSupported()
    return set(chainChangedAtom, network.caipNetworkId)
  }
  const { request } = account.connector
  const chainId = Caip.eip155Hex(network.caipNetworkId)
  const switchChain = () => request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
  try {
    await switchChain()
  } catch (error) {
    if ((error as { code?: unknown }).code !== Errors.codes.unrecognizedChain) throw Errors.chainNotSupported(error)
    try {
      await request({ method: 'wallet_addEthereumChain', params: [addChainParams(network, chainId)] })
      await switchChain()
    } catch (cause) {
      throw Errors.chainNotSupported(cause)
    }
  }
  set(chainChangedAtom, network.caipNetworkId)
})

/** EIP-3085 parameters from the dapp's network. */
function addChainParams(network: Protocol.Network, chainId: string) {
  return {
    chainId,
    chainName: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: network.rpcUrl ? [network.rpcUrl] : [],
    ...(network.explorerUrl && { blockExplorerUrls: [network.explorerUrl] }),
  }
}
