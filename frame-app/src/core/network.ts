/** The active network and switching it (spec §4 EVM network switch). */
import * as Caip from '@doorway/shared/Caip'
import type { ChainId } from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { configAtom } from './config.js'
import { accountAtom, chainChangedAtom } from './connection.js'

/** The network the user picked before connecting; before any pick, the dapp's default or first one. */
const pickedAtom = atom<ChainId | null>(null)

/** The connected wallet's network when connected (undefined if unconfigured), else the picked one. */
export const activeNetworkAtom = atom((get) => {
  const config = get(configAtom)
  const account = get(accountAtom)
  const id = account ? account.chainId : (get(pickedAtom) ?? config?.defaultNetwork ?? config?.networks[0]?.caipNetworkId)
  return config?.networks.find((n) => n.caipNetworkId === id)
})

/**
 * spec §4: try a switch; if the wallet does not recognise the chain (4902), add it and switch;
 * otherwise throw 'Chain is not supported'. Disconnected, it only picks the network.
 */
export const switchNetworkAtom = atom(null, async (get, set, network: Protocol.Network) => {
  const account = get(accountAtom)
  if (!account) return set(pickedAtom, network.caipNetworkId)
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
