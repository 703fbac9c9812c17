import type * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'

/** A viem `Chain` works as it is; other namespaces set `chainNamespace` or `caipNetworkId`. */
export type NetworkOption = {
  id: number | string
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls?: { default?: { http?: readonly string[] } }
  blockExplorers?: { default?: { url: string } }
  testnet?: boolean
  chainNamespace?: Caip.Namespace
  caipNetworkId?: Caip.ChainId
}

/** The options of spec §1. */
export type Options = {
  projectId: string
  networks: readonly NetworkOption[]
  defaultNetwork?: NetworkOption
  features?: Partial<Protocol.Features>
  metadata?: { name: string; description: string; url: string; icons: string[] }
  themeMode?: 'dark' | 'light'
  themeVariables?: { accent?: string }
  termsConditionsUrl?: string
  privacyPolicyUrl?: string
  includeWalletIds?: string[]
  excludeWalletIds?: string[]
  featuredWalletIds?: string[]
  customWallets?: Protocol.Config['customWallets']
  tokens?: Protocol.Config['tokens']
  defaultAccountTypes?: Protocol.Config['defaultAccountTypes']
  enableNetworkSwitch?: boolean
  allowUnsupportedChain?: boolean
  sdkType?: string
  sdkVersion?: string
  /** "WalletConnect only" mode: no chain adapters (DESIGN.md §10, spec §2 opening rule 1). */
  basic?: boolean
  /** Do not append the dialog to document.body; place `modal.element` yourself. */
  disableAppend?: boolean
  /** Render the modal inline into this element instead of a dialog. */
  embedded?: HTMLElement
  siweConfig?: object
  siwx?: object
  /** Where the frame-app is served; defaults to this build's frame URL. */
  frameUrl?: string
}

export type State = Protocol.ModalState
/**
 * `{ status: 'connected', … }`, `{ status: 'sent', hash, chainId }` (Send flow), `{ status: 'swapped',
 * hash, chainId }` (Swap flow, once the swap is submitted) or `{ status: 'closed' }`.
 */
export type OpenResult = Protocol.OpenResult
/** What the Send view starts with; the frame checks the values and answers bad ones with an error. */
export type SendArguments = Protocol.SendArguments
/** What the Swap view starts with: `fromToken`, `toToken` (symbol, 0x or CAIP-10) and `amount`. */
export type SwapArguments = Protocol.SwapArguments
// `arguments` only with the view that reads them.
export type OpenOptions =
  | { view?: Exclude<Protocol.OpenableView, 'Send' | 'Swap'>; arguments?: never }
  | { view: 'Send'; arguments?: SendArguments }
  | { view: 'Swap'; arguments?: SwapArguments }

export type Events = {
  open: { view: Protocol.ViewName }
  close: OpenResult
  state: State
  connect: Protocol.Account
  accountChanged: Protocol.Account
  chainChanged: { chainId: Protocol.Account['chainId'] }
  disconnect: Record<string, never>
}

/** An EIP-1193 provider backed by the connected wallet, through the frame. */
export type Provider = {
  // `any`: the result is the JSON-RPC method's, which typed clients (viem, wagmi) narrow themselves.
  request(args: { method: string; params?: unknown }): Promise<any>
  on(event: 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect' | (string & {}), listener: (data: any) => void): Provider
  removeListener(event: string, listener: (data: any) => void): Provider
}

export type Modal = {
  open(options?: OpenOptions): Promise<OpenResult>
  close(): Promise<void>
  getState(): State
  getProvider(): Provider
  subscribe<E extends keyof Events>(event: E, callback: (data: Events[E]) => void): () => void
  destroy(): void
  /** The element the SDK created: the dialog, or the iframe in embedded mode. */
  readonly element: HTMLElement
}
