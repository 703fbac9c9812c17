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
  /** The older sign-in shape (AppKit's SIWE config), mapped onto `siwx` and shown as ConnectingSiwe. */
  siweConfig?: SiweConfig
  /** Sign-in on connect (spec §4, CAIP-122): functions that stay on this page; `@doorway/sdk/siwx` has a ready one. */
  siwx?: Siwx
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

/** What the modal asks a CAIP-122 message for: the account that signs it and its network. */
export type SiwxInput = { accountAddress: string; chainId: Caip.ChainId; notBefore?: string; expirationTime?: string }
/** CAIP-122 fields of a sign-in message (EIP-4361 for eip155). Plain data: it crosses to the frame. */
export type SiwxData = SiwxInput & {
  domain: string
  uri: string
  version: string
  nonce: string
  statement?: string
  resources?: string[]
  requestId?: string
  issuedAt?: string
}
/** The message's data with its text: `toString()` is the exact text the wallet signs. */
export type SiwxMessage = SiwxData & { toString(): string }
/** A signed-in session: the message's data, its text and the wallet's signature (hex for eip155). */
export type SiwxSession = { data: SiwxData; message: string; signature: string }

/**
 * The dapp's sign-in (issue 13, AppKit's SIWXConfig in shape). The frame calls these through the host
 * channel, each call checked and cut by a timeout; none of them crosses to the frame.
 */
export type Siwx = {
  createMessage(input: SiwxInput): Promise<SiwxMessage>
  /** Optional: sign the text yourself; otherwise the connected wallet signs it (personal_sign). */
  signMessage?(args: { message: string; chainId: Caip.ChainId; accountAddress: string }): Promise<string>
  /** Verify and keep a session; throwing refuses the sign-in. */
  addSession(session: SiwxSession): Promise<void>
  revokeSession(chainId: Caip.ChainId, address: string): Promise<void>
  setSessions(sessions: SiwxSession[]): Promise<void>
  getSessions(chainId: Caip.ChainId, address: string): Promise<SiwxSession[]>
  /** True: the person must sign in to stay connected (cancelling disconnects). Absent: optional. */
  getRequired?(): boolean
  /** Forget the sessions when the wallet disconnects. */
  signOutOnDisconnect?: boolean
}

/** AppKit's older SIWE config, accepted and mapped onto `Siwx` (spec §2 ConnectingSiwe). */
export type SiweConfig = {
  getNonce(address?: string): Promise<string>
  getMessageParams?(): Promise<{ domain?: string; uri?: string; statement?: string; resources?: string[]; expiry?: number; chains?: number[] }>
  createMessage(args: { address: string; chainId: number; nonce: string; domain: string; uri: string; version: string; iat: string; statement?: string; resources?: string[] }): string
  verifyMessage(args: { message: string; signature: string }): Promise<boolean>
  getSession(): Promise<{ address: string; chainId: number } | null>
  signOut(): Promise<boolean>
  onSignIn?(session?: { address: string; chainId: number }): void
  onSignOut?(): void
  /** Default true. */
  required?: boolean
  /** Default true. */
  signOutOnDisconnect?: boolean
}
