/**
 * The WalletConnect connector (docs/architecture.md §9): @walletconnect/universal-provider in the frame. This
 * module is a lazy chunk (the provider is most of its weight); `walletConnectClient.ts` loads it, in the
 * background once the frame is idle (walletConnect.ts), so choosing WalletConnect only waits for the relay.
 *
 * The session lives in the frame's storage (walletConnectStorage.ts), so a reload restores it without
 * a new pairing. Verify and telemetry are the SDK's own calls to hosted services; local and test builds
 * turn them off at build time (frame-app/vite.config.ts), production builds keep them.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { UniversalProvider } from '@walletconnect/universal-provider'
import { type Connector, walletConnectId } from '../../core/connectors/Connector.js'
import * as Solana from './walletConnectSolana.js'
import * as Storage from './walletConnectStorage.js'

/** What a wallet may be asked over the session; the wallet approves the ones it supports. */
export const methods = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'eth_sendTransaction',
  'eth_signTransaction',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData',
  'eth_signTypedData_v4',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getPermissions',
  'wallet_requestPermissions',
  'wallet_watchAsset',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_showCallsStatus',
  'wallet_grantPermissions',
]

/**
 * EIP-5792's methods go only to a wallet whose session lists them (issue 25). The provider would send an
 * unlisted one to its sign client, which throws without a code (the dapp would read 5000, "user
 * rejected"), or for wallet_getCallsStatus fail the same way after looking for a bundler.
 */
export const callsMethods: ReadonlySet<string> = new Set(['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus', 'wallet_showCallsStatus'])
export const events = ['chainChanged', 'accountsChanged']

/**
 * The wallet methods of the other namespaces (docs: WalletConnect chain support; issue 23). Only these go
 * to the wallet: the universal provider sends any other method of these namespaces to a hosted RPC, so
 * the frame never asks it one (reads go to the api and the dapp's own RPC).
 */
export const namespaceMethods = {
  solana: ['solana_signTransaction', 'solana_signMessage', 'solana_signAndSendTransaction'],
  bip122: ['getAccountAddresses', 'signMessage', 'sendTransfer', 'signPsbt'],
  polkadot: ['polkadot_signMessage', 'polkadot_signTransaction'],
} as const
const namespaceEvents = { solana: [], bip122: ['bip122_addressesChanged'], polkadot: ['chainChanged', 'accountsChanged'] }

/** spec §4 wallet-connect events, as the connection state needs them. */
export type Event =
  | { type: 'accountsChanged'; accounts: unknown[] }
  | { type: 'chainChanged'; chainId: Protocol.Network['caipNetworkId'] }
  | { type: 'disconnect' }
  | { type: 'error'; error: unknown }

export type Peer = { name: string; icon?: string }

export type WalletConnect = {
  connector: Connector
  /** The restored or current session's wallet, if there is a session. */
  peer(): Peer | undefined
  /** The session's accounts in every namespace (CAIP-10, parsed). */
  accounts(): Caip.parseAccountId.ReturnType[]
  /**
   * One pairing attempt: `onUri` gets the `wc:` URI to show; settles when the wallet answers. A
   * rejection is a 4001 error; `abort()` ends the attempt with an AbortError.
   */
  pair(onUri: (uri: string) => void): Promise<void>
  abort(): void
  disconnect(): Promise<void>
  subscribe(listener: (event: Event) => void): () => void
}

export type Options = {
  projectId: string
  relayUrl: string
  networks: readonly Protocol.Network[]
  metadata: { name: string; description: string; url: string; icons: string[] }
}

export async function create(options: Options): Promise<WalletConnect> {
  const { networks } = options
  const evm = networks.filter((n) => n.caipNetworkId.startsWith('eip155:'))
  const others = (Object.keys(namespaceMethods) as (keyof typeof namespaceMethods)[]).flatMap((ns) => {
    const chains = networks.filter((n) => n.caipNetworkId.startsWith(`${ns}:`))
    const rpcMap = Object.fromEntries(chains.flatMap((n) => (n.rpcUrl ? [[n.caipNetworkId, n.rpcUrl]] : [])))
    return chains.length ? [[ns, { chains: chains.map((n) => n.caipNetworkId), methods: [...namespaceMethods[ns]], events: namespaceEvents[ns], rpcMap }] as const] : []
  })
  const storage = Storage.create()
  const provider = await UniversalProvider.init({
    projectId: options.projectId,
    relayUrl: options.relayUrl,
    metadata: options.metadata,
    storage,
    logger: 'silent',
    telemetryEnabled: false,
  })

  const listeners = new Set<(event: Event) => void>()
  listen(provider, (event) => listeners.forEach((listener) => listener(event)))

  let attempt: { reject(error: unknown): void } | undefined
  // Reads go to the dapp's RPC URLs only: a chain without one would fall back to a hosted RPC.
  const rpcMap: Record<string, string> = Object.fromEntries(
    evm.flatMap((n) => (n.rpcUrl ? [[Caip.parseChainId(n.caipNetworkId).reference, n.rpcUrl]] : [])),
  )
  async function disconnect() {
    try {
      if (provider.session) await provider.disconnect()
    } finally {
      await storage.clear()
    }
  }

  return {
    connector: connectorOf(provider, rpcMap, disconnect),
    accounts: () => Caip.namespaces.flatMap((ns) => sessionAccounts(provider, ns)),
    peer() {
      const metadata = provider.session?.peer.metadata
      return metadata && { name: metadata.name, ...(metadata.icons[0] && { icon: metadata.icons[0] }) }
    },
    pair(onUri) {
      const onDisplay = (uri: string) => onUri(uri)
      provider.on('display_uri', onDisplay)
      const aborted = new Promise<never>((_, reject) => (attempt = { reject }))
      const connected = provider.connect({
        optionalNamespaces: {
          ...(evm.length && { eip155: { chains: evm.map((n) => n.caipNetworkId), methods, events, rpcMap } }),
          ...Object.fromEntries(others),
        },
      })
      return Promise.race([connected, aborted])
        .then((session) => {
          if (!session) throw Errors.userRejected()
        })
        .catch((error: unknown) => {
          throw toError(error)
        })
        .finally(() => {
          provider.off('display_uri', onDisplay)
          attempt = undefined
        })
    },
    abort() {
      provider.abortPairingAttempt()
      attempt?.reject(new DOMException('The pairing was replaced', 'AbortError'))
    },
    disconnect,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

type Provider = Awaited<ReturnType<typeof UniversalProvider.init>>

/** The provider's and the relay's events, as the connection reads them (spec §4). */
function listen(provider: Provider, emit: (event: Event) => void) {
  provider.on('accountsChanged', (accounts: unknown) => emit({ type: 'accountsChanged', accounts: Array.isArray(accounts) ? accounts : [] }))
  provider.on('chainChanged', (chain: unknown) => {
    // The provider's chain ids: a number, a decimal or hex string, or already CAIP-2.
    const chainId = Caip.fromEip155(chain)
    if (chainId) emit({ type: 'chainChanged', chainId })
  })
  provider.on('session_delete', () => emit({ type: 'disconnect' }))
  // The provider does not listen for expiry (7 days without use): the session is over all the same.
  provider.client.on('session_expire', ({ topic }) => topic === provider.session?.topic && emit({ type: 'disconnect' }))
  provider.client.core.relayer.on('relayer_error', (error: unknown) => emit({ type: 'error', error }))
}

/**
 * EIP-1193 requests over the session; reads need one of the dapp's RPC URLs (`rpcMap`). Another
 * namespace's wallet methods go to the wallet on that namespace's chain.
 */
function connectorOf(provider: Provider, rpcMap: Record<string, string>, disconnect: () => Promise<void>): Connector {
  const accounts = () => Object.values(provider.session?.namespaces ?? {}).flatMap((ns) => ns.accounts)
  const send = (method: string, params: Protocol.RpcRequest['params'], chainId?: string) =>
    provider.request({ method, ...(params !== undefined && { params }) }, chainId).catch((error: unknown) => {
      throw toError(error)
    })
  const request: Connector['request'] = async ({ method, params }, chainId) => {
    const session = provider.session
    if (!session) throw Errors.disconnected()
    if (chainId && !chainId.startsWith('eip155:')) {
      const namespace = Caip.parseChainId(chainId).namespace
      if (!session.namespaces[namespace]?.methods.includes(method)) throw Errors.unsupportedMethod()
      return send(method, params, chainId)
    }
    if (callsMethods.has(method) && !session.namespaces.eip155?.methods.includes(method)) throw notOffered(method)
    const chain = String(await provider.request({ method: 'eth_chainId' }))
    if (!session.namespaces.eip155?.methods.includes(method) && !rpcMap[chain])
      throw Errors.fromCode(Errors.codes.chainDisconnected, `No RPC URL for chain eip155:${chain}: it is not one of the app's networks`)
    const result = await send(method, params)
    if (method !== 'eth_chainId') return result
    // The provider answers eth_chainId with a number; EIP-1193 says hex.
    const chainId_ = Caip.fromEip155(result)
    return chainId_ ? Caip.eip155Hex(chainId_) : result
  }
  return {
    id: walletConnectId,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT',
    get namespaces() {
      return Caip.namespaces.filter((ns) => provider.session?.namespaces[ns])
    },
    chains: () => [...new Set(accounts().map((a) => a.split(':').slice(0, 2).join(':') as Caip.ChainId))],
    request,
    solana: Solana.signer(request),
    disconnect,
  }
}

/** The session's accounts (CAIP-10) of a namespace, first of each chain. */
export function sessionAccounts(provider: { session?: { namespaces: Record<string, { accounts: string[] }> } | undefined }, namespace: Caip.Namespace) {
  return (provider.session?.namespaces[namespace]?.accounts ?? []).filter(Caip.isAccountId).map((id) => Caip.parseAccountId(id))
}

/**
 * 4200 for a method the wallet did not approve. The text is EIP-1474's method-not-found one, which viem's
 * sendCalls `experimental_fallback` (wagmi's useSendCalls) reads as "fall back to eth_sendTransaction".
 */
function notOffered(method: string): Error {
  return Errors.unsupportedMethod(`The method "${method}" does not exist / is not available: the wallet did not approve it for this session.`)
}

/** Wallet answers become typed errors: a rejected proposal is 4001 (spec §8 / EIP-1193). */
function toError(error: unknown): Error {
  if (error instanceof Errors.DoorwayError || (error instanceof DOMException && error.name === 'AbortError')) return error
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  const text = typeof message === 'string' ? message : String(error)
  // WalletConnect's USER_REJECTED is 5000 and its proposal rejections say "rejected".
  if (code === 5000 || code === 4001 || (typeof code !== 'number' && /reject/i.test(text))) return Errors.userRejected()
  // Wallet errors keep their EIP-1193 code (4902 drives the add-chain step of spec §4).
  if (typeof code === 'number') return Errors.fromCode(code, text)
  return new Errors.DoorwayError(text || 'WalletConnect failed', { cause: error })
}
