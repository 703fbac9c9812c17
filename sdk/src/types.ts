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

/**
 * The options of spec §1. Their comments make the options table of docs/sdk.md (scripts/docs.ts), whose
 * defaults are internal/options.ts's; `@default` names one that the SDK or the frame applies elsewhere.
 */
export type Options = {
  /** Your project id, sent with every api call (spec §7). Missing: the SDK logs an error and the modal shows the configuration alert (spec §8). */
  projectId: string
  /**
   * The dapp's networks, at least one. A viem `Chain` works as it is; other namespaces set `chainNamespace` or
   * `caipNetworkId`. With a solana network the SDK fetches its Wallet Standard chunk (under 2 KB), which finds the page's Solana wallets.
   */
  networks: readonly NetworkOption[]
  /**
   * The network used before a wallet connects.
   * @default the first of `networks`
   */
  defaultNetwork?: NetworkOption
  /**
   * Which parts of the modal exist; a flag left out takes its default.
   * @default each flag's own (Features below)
   */
  features?: Partial<Features>
  /**
   * The dapp as WalletConnect wallets show it.
   * @default the page's host and origin
   */
  metadata?: { name: string; description: string; url: string; icons: string[] }
  /** The modal's colours. */
  themeMode?: 'dark' | 'light'
  /**
   * `accent`: a `#rrggbb` colour for buttons and links.
   * @default one for dark, one for light
   */
  themeVariables?: { accent?: string }
  /** Linked under the Connect view. */
  termsConditionsUrl?: string
  /** Linked under the Connect view. */
  privacyPolicyUrl?: string
  /** Catalogue wallet ids: only these are listed. */
  includeWalletIds?: string[]
  /** Catalogue wallet ids that are never listed. */
  excludeWalletIds?: string[]
  /** Catalogue wallet ids listed first. */
  featuredWalletIds?: string[]
  /** The dapp's own wallets, listed with the others: `{ id, name, imageUrl?, homepage?, mobileLink?, desktopLink?, webappLink? }`. */
  customWallets?: CustomWallet[]
  /** Per network (CAIP-2 key), a token `{ address, image? }`. Checked and passed to the frame, which does not use it yet. */
  tokens?: Tokens
  /** Per namespace: `'eoa'`, `'smartAccount'` or `'payment'`. Checked and passed to the frame, which does not use it yet. */
  defaultAccountTypes?: AccountTypes
  /** The person may switch networks in the modal. */
  enableNetworkSwitch?: boolean
  /** A wallet on a network outside `networks` is accepted; otherwise the modal shows UnsupportedChain (spec §4). */
  allowUnsupportedChain?: boolean
  /** Sent with every api call (`st`). */
  sdkType?: string
  /**
   * Sent with every api call (`sv`).
   * @default `html-doorway-` and the SDK's version
   */
  sdkVersion?: string
  /** WalletConnect only: no chain adapters, so opening while disconnected shows WalletConnect's QR (AllWallets on a phone; spec §2 opening rule 1). */
  basic?: boolean
  /**
   * Do not append the dialog to document.body; place `modal.element` yourself.
   * @default false
   */
  disableAppend?: boolean
  /** Render the modal inline into this element instead of a dialog; it is open from the start. */
  embedded?: HTMLElement
  /** The older sign-in shape (AppKit's SIWE config), mapped onto `siwx` and shown as ConnectingSiwe. Not with `siwx`. */
  siweConfig?: SiweConfig
  /** Sign-in on connect (spec §4, CAIP-122): functions that stay on this page; `@doorway/sdk/siwx` has a ready one. */
  siwx?: Siwx
  /**
   * Where the frame-app is served.
   * @default this build's `DOORWAY_FRAME_URL`
   */
  frameUrl?: string
}

/** The feature flags of spec §1: which parts of the modal exist. */
export type Features = Protocol.Features
/** A wallet of the dapp's own, listed with the catalogue's. */
export type CustomWallet = Protocol.Config['customWallets'][number]
/** Per network (CAIP-2), a token: `{ address, image? }`. */
export type Tokens = Protocol.Config['tokens']
/** Per namespace, the account type to create: `'eoa'`, `'smartAccount'` or `'payment'` (bip122). */
export type AccountTypes = Protocol.Config['defaultAccountTypes']

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

/** A connected account: its address, its CAIP-10 id and its network (CAIP-2). */
export type Account = Protocol.Account
/** A view of the modal (spec §2). */
export type ViewName = Protocol.ViewName

/** What `modal.subscribe(event, callback)` calls `callback` with. */
export type Events = {
  /** The frame took an open() and shows `view`. */
  open: { view: ViewName }
  /** The modal closed (the person, `close()`, `destroy()`, or a failed open()); what the opening settled with. */
  close: OpenResult
  /** Any change of `getState()`. */
  state: State
  /** A wallet connected: `{ address, caipAddress, chainId }`. */
  connect: Account
  /** The connected wallet switched accounts. */
  accountChanged: Account
  /** The connected wallet switched networks (CAIP-2). */
  chainChanged: { chainId: Account['chainId'] }
  /** The wallet disconnected. */
  disconnect: Record<string, never>
}

/** An EIP-1193 provider backed by the connected wallet, through the frame. */
export type Provider = {
  // `any`: the result is the JSON-RPC method's, which typed clients (viem, wagmi) narrow themselves.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request(args: { method: string; params?: unknown }): Promise<any>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EIP-1193 listeners take each event's own data
  on(event: 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect' | (string & {}), listener: (data: any) => void): Provider
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as for `on`
  removeListener(event: string, listener: (data: any) => void): Provider
}

/**
 * A chain adapter (spec §4 "Account type and adapters"): the namespace whose networks the modal serves,
 * `'eip155'`, `'solana'`, `'bip122'` or `'polkadot'`.
 */
export type Adapter = { namespace: Caip.Namespace }

export type Modal = {
  open(options?: OpenOptions): Promise<OpenResult>
  /**
   * Adds a network to the adapter of `namespace` (spec §4); a network without `chainNamespace` or
   * `caipNetworkId` belongs to `namespace`. Rejects with 'Adapter for namespace {namespace} doesn't
   * exist' when the modal has no such adapter (spec §8). A solana network loads the Wallet Standard
   * chunk, which finds the page's Solana wallets.
   */
  addNetwork(namespace: Caip.Namespace, network: NetworkOption): Promise<void>
  /**
   * Removes the network of `namespace` whose `id` is `id` (`NetworkOption.id`, as given). Rejects with
   * 'Network with ID {id} not found', or 'Cannot remove last network for a namespace' (spec §8).
   */
  removeNetwork(namespace: Caip.Namespace, id: string | number): Promise<void>
  /** Adds an adapter for `adapter.namespace` with its networks (each converted as in `addNetwork`). A solana one loads the Wallet Standard chunk. */
  addAdapter(adapter: Adapter, networks: readonly NetworkOption[]): Promise<void>
  /**
   * Removes the adapter of `namespace` and its networks; rejects with 'Adapter not found' when there is
   * none (spec §8). Ignored while the person is connected on that namespace.
   */
  removeAdapter(namespace: Caip.Namespace): Promise<void>
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
  /** The CAIP-122 message for the account that just connected, with a fresh nonce from your server. */
  createMessage(input: SiwxInput): Promise<SiwxMessage>
  /** Optional: sign the text yourself; otherwise the connected wallet signs it (personal_sign; a Solana account's signMessage, base58). */
  signMessage?(args: { message: string; chainId: Caip.ChainId; accountAddress: string }): Promise<string>
  /** Verify and keep a session; throwing refuses the sign-in. */
  addSession(session: SiwxSession): Promise<void>
  /** Forget the account's sessions (AppKit's shape; the modal itself signs out with `setSessions([])`). */
  revokeSession(chainId: Caip.ChainId, address: string): Promise<void>
  /** Replace every session kept; `[]` (the modal's sign-out) forgets them all. */
  setSessions(sessions: SiwxSession[]): Promise<void>
  /** The account's valid sessions: one means it is signed in already, and no message is asked for. */
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
