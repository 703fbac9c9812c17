/**
 * The one schema of every message between the host SDK, the frame-app and the secure-site
 * (docs/architecture.md §4). Each side exposes a flat API; each method has a params and a result schema,
 * checked on receipt by Channel.
 */
import * as Caip from './Caip.js'
import * as Constants from './Constants.js'
import * as Ids from './Ids.js'
import * as S from './Schema.js'

export const version = 1 as const

/** Handshake messages, the only ones ever sent over window.postMessage. */
export const handshake = { ready: 'doorway:ready', connect: 'doorway:connect' } as const

// spec §2 "Views named", plus the feature views that Account's wallet features open.
export const views = [
  'Connect',
  'Account',
  'AllWallets',
  'ConnectingWalletConnectBasic',
  'ApproveTransaction',
  'SIWXSignMessage',
  'ConnectingExternal',
  'ConnectingWalletConnect',
  'ConnectingSiwe',
  'ConnectingFarcaster',
  // A social sign-in in progress (issue 24): the popup is at the provider, the flow is redeemed (docs/embedded-wallet.md §5).
  'ConnectingSocial',
  // The embedded wallet's email and code steps (issue 9), drawn by the secure-site over the view (docs/embedded-wallet.md §4).
  'EmailLogin',
  'EmailVerifyOtp',
  // A new device for an existing wallet waits for the person's approval from a mailed link (VERIFY_DEVICE).
  'EmailVerifyDevice',
  // The embedded wallet's key export, shown by the secure-site over this view (docs/embedded-wallet.md §8).
  'ExportWallet',
  // The embedded wallet's devices and activity log, shown by the secure-site over this view (docs/embedded-wallet.md §10).
  'WalletSecurity',
  // The smart account's sessions (issue 25): what each allows, its state, and Revoke (features.smartSessions).
  'SmartSessionList',
  'UnsupportedChain',
  'RegisterAccountName',
  'RegisterAccountNameSuccess',
  'Networks',
  'Send',
  // The send flow's steps after choosing a token (issue 8: one typed route per step).
  'SendAmount',
  'SendReceiver',
  'SendPreview',
  'SendConfirm',
  'SendResult',
  'Receive',
  'Swap',
  // The swap flow's steps (issue 11): a token picker per side, the preview (approve, then swap), the result.
  'SwapSelectToken',
  'SwapPreview',
  'SwapResult',
  'OnRamp',
  // The buy's progress (issue 12): the provider's page is open; the order is followed to its end.
  'OnRampProgress',
] as const
export type ViewName = (typeof views)[number]

/** Views a dapp may open directly: the ones that need no arguments. */
export const openableViews = [
  'Connect',
  'Account',
  'AllWallets',
  'ConnectingWalletConnectBasic',
  'Networks',
  'Send',
  'Receive',
  'Swap',
  'OnRamp',
  'RegisterAccountName',
] as const satisfies readonly ViewName[]
export type OpenableView = (typeof openableViews)[number]

// The defaults list every value, in the spec's order: one array each, shared with the SDK's defaults.
export const socials = Constants.defaultFeatures.socials
export const connectMethods = Constants.defaultFeatures.connectMethodsOrder
export const walletFeatures = Constants.defaultFeatures.walletFeaturesOrder

const text = S.string({ max: 256 })
const walletId = S.string({ min: 1, max: 128 })
const chainId = Caip.isChainId

export const network = S.object({
  caipNetworkId: chainId,
  name: S.string({ min: 1, max: 64 }),
  nativeCurrency: S.object({ name: text, symbol: S.string({ min: 1, max: 16 }), decimals: S.number }),
  rpcUrl: S.optional(S.url),
  explorerUrl: S.optional(S.url),
  testnet: S.boolean,
})
export type Network = S.Infer<typeof network>

export const features = S.object({
  email: S.boolean,
  socials: S.union(S.literal(false), S.array(S.oneOf(socials), socials.length)),
  swaps: S.boolean,
  onramp: S.boolean,
  receive: S.boolean,
  send: S.boolean,
  history: S.boolean,
  analytics: S.boolean,
  connectMethodsOrder: S.array(S.oneOf(connectMethods), connectMethods.length),
  walletFeaturesOrder: S.array(S.oneOf(walletFeatures), walletFeatures.length),
  collapseWallets: S.boolean,
  /**
   * Smart sessions (issue 25): the embedded smart account answers wallet_grantPermissions and
   * wallet_requestExecutionPermissions, and the Account view lists the sessions. Off unless the dapp
   * turns it on, as the incumbents ship it; absent from the defaults, so it costs the SDK nothing.
   */
  smartSessions: S.optional(S.boolean),
})
export type Features = S.Infer<typeof features>

export const customWallet = S.object({
  id: walletId,
  name: S.string({ min: 1, max: 64 }),
  imageUrl: S.optional(S.url),
  homepage: S.optional(S.url),
  mobileLink: S.optional(S.string({ max: 512 })),
  desktopLink: S.optional(S.string({ max: 512 })),
  webappLink: S.optional(S.url),
})

/** spec §3 Identifiers: the account types (`payment` only for bip122). */
export const accountType = S.literal('eoa', 'smartAccount', 'payment')
export type AccountType = S.Infer<typeof accountType>

/** What the frame needs of the dapp's options: only data, validated again on receipt. */
export const configShape = {
  projectId: S.optional(S.string({ min: 1, max: 128 })),
  sdkType: S.string({ min: 1, max: 32 }),
  sdkVersion: S.string({ min: 1, max: 64 }),
  networks: S.array(network, 64),
  defaultNetwork: S.optional(chainId),
  features,
  metadata: S.optional(
    S.object({ name: S.string({ min: 1, max: 64 }), description: text, url: S.url, icons: S.array(S.url, 8) }),
  ),
  themeMode: S.literal('dark', 'light'),
  accent: S.optional(S.string({ pattern: /^#[0-9a-fA-F]{6}$/ })),
  termsConditionsUrl: S.optional(S.url),
  privacyPolicyUrl: S.optional(S.url),
  includeWalletIds: S.array(walletId),
  excludeWalletIds: S.array(walletId),
  featuredWalletIds: S.array(walletId),
  customWallets: S.array(customWallet, 32),
  tokens: S.record(chainId, S.object({ address: S.string({ min: 1, max: 128 }), image: S.optional(S.url) }), 64),
  defaultAccountTypes: S.record(S.literal(...Caip.namespaces), accountType, 4),
  enableNetworkSwitch: S.boolean,
  allowUnsupportedChain: S.boolean,
  basic: S.boolean,
  embedded: S.boolean,
  /** spec §5: the host page runs in Telegram's web view, which filters the social providers (features/embedded/telegram.ts). */
  telegram: S.optional(S.boolean),
  /** A social sign-in's redirect came back with this flow (spec §5 result_uri, §7 social-redirect): the frame redeems it. */
  resume: S.optional(Ids.isId),
  /**
   * Sign-in (issue 13): only what the frame needs to know of the dapp's `siwx`, whose functions stay
   * on the host page; `siwe` when it is the older `siweConfig` (shown as ConnectingSiwe), whose
   * `required` is a flag (siwx asks getRequired() when sign-in starts).
   */
  siwx: S.optional(S.object({ siwe: S.boolean, signMessage: S.boolean, signOutOnDisconnect: S.boolean, required: S.boolean })),
}
export const config = S.object(configShape)
export type Config = S.Infer<typeof config>

// An RFC-2397 data URI of an image (EIP-6963's and Wallet Standard's icons); rendered only through <img>, so an SVG cannot run script.
const dataImage = S.string({ max: 131_072, pattern: /^data:image\/(svg\+xml|png|jpeg|webp|gif)(;base64)?,/ })

/** An EIP-6963 wallet as the host saw it: only this info crosses to the frame, never the provider. */
export const walletInfo = S.object({
  // A UUID (EIP-6963) in its 36-character form; only ever an opaque key.
  uuid: S.string({ pattern: /^[\da-f-]{36}$/i }),
  name: S.string({ min: 1, max: 64 }),
  icon: dataImage,
  rdns: S.string({ min: 1, max: 128, pattern: /^[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/ }),
  /** INJECTED for a legacy window.ethereum, ANNOUNCED for EIP-6963 (spec §3 connector types). */
  type: S.literal('INJECTED', 'ANNOUNCED'),
})
export type WalletInfo = S.Infer<typeof walletInfo>

/** EIP-1193 request arguments. Params are checked again by whoever executes them. */
const rpcMethod = S.string({ min: 1, max: 64, pattern: /^[a-zA-Z][a-zA-Z0-9_]*$/ })
export const rpcRequest = S.object({ method: rpcMethod, params: S.optional(S.union(S.array(S.unknown, 64), S.isPlainObject)) })
export type RpcRequest = S.Infer<typeof rpcRequest>

const address = S.string({ min: 1, max: 128 })
export const account = S.object({ address, caipAddress: Caip.isAccountId, chainId: chainId })
export type Account = S.Infer<typeof account>

export const modalState = S.object({
  open: S.boolean,
  // A view's name by its form, not the list of every view: the 7 KB SDK checks this state on every change,
  // and the list is a quarter KB of it. The frame only ever sends names of `views`.
  view: S.string({ pattern: /^[A-Z][A-Za-z]{1,40}$/ }) as S.Schema<ViewName>,
  loading: S.boolean,
  /** spec §4: connection status (of the active namespace). */
  status: S.literal('connecting', 'connected', 'disconnected'),
  address: S.optional(address),
  caipAddress: S.optional(Caip.isAccountId),
  chainId: S.optional(chainId),
  /** Every namespace's connected account (CAIP-10), the active one's included: the Doorway Solana wallet reads its account here (issue 23). */
  accounts: S.optional(S.array(Caip.isAccountId, 4)),
  /** spec §3 Account profileName and profileImage: the account's name (`alice.doorway.id`) and avatar, when it has them. */
  profileName: S.optional(S.string({ min: 1, max: 255 })),
  profileImage: S.optional(S.url),
  /** spec §3 Account user: the embedded wallet's login, and the provider's name for the person after a social sign-in. */
  user: S.optional(S.object({ email: S.optional(S.string({ max: 254 })), username: S.optional(S.string({ min: 1, max: 100 })) })),
  /** spec §3 Account preferredAccountType and smartAccountDeployed: the connected account's type, and whether a smart account has code yet. */
  preferredAccountType: S.optional(accountType),
  smartAccountDeployed: S.optional(S.boolean),
})
export type ModalState = S.Infer<typeof modalState>

/**
 * A sign-in the dapp's `siwx.addSession` accepted (issue 13): the CAIP-122 message's data, its text and
 * the signature. The frame checks the data in full (siwxData); the host only relays it to the dapp.
 */
export const siwxSession = S.object({ data: S.isPlainObject, message: S.string({ max: 8192 }), signature: S.string({ max: 65_536 }) })

/** What `open()` settles with: a connection made in that opening, a transaction submitted, or a close. */
export const openResult = S.union(
  S.object({ status: S.literal('closed') }),
  S.object({ status: S.literal('connected'), address, caipAddress: Caip.isAccountId, chainId, session: S.optional(siwxSession) }),
  // An EVM transaction hash, or a Solana signature (base58, 64 bytes) or a Bitcoin txid (64 hex).
  S.object({ status: S.literal('sent', 'swapped'), hash: S.string({ pattern: /^(0x)?[\da-f]{64}$|^[1-9A-HJ-NP-Za-km-z]{64,88}$/i }), chainId }),
)
export type OpenResult = S.Infer<typeof openResult>

export const frameEvent = S.union(
  S.object({ type: S.literal('state'), state: modalState }),
  /** The modal closed itself (Escape, close button, backdrop, going back at the root). */
  S.object({ type: S.literal('close'), result: openResult }),
  /** Settle a pending open() without closing (e.g. connected). */
  S.object({ type: S.literal('result'), result: openResult }),
  /** The modal needs to be seen (e.g. the wallet moved to an unsupported chain). */
  S.object({ type: S.literal('show') }),
  S.object({ type: S.literal('connect'), account }),
  S.object({ type: S.literal('disconnect') }),
  S.object({ type: S.literal('accountChanged'), account }),
  S.object({ type: S.literal('chainChanged'), chainId }),
  /**
   * Open a wallet's link from the top window, within the person's tap (issue 5: a host's frame-src CSP
   * and iOS would block it from the frame). An https or app link: never a script or data URL (browsers
   * refuse file: and blob: from a web page by themselves). The SDK picks the target: web pages open in
   * a new tab, so the frame can never navigate the dapp's own page to another site.
   */
  S.object({ type: S.literal('navigate'), url: S.string({ max: 4096, pattern: /^(?!(javascript|data):)[a-z][\w+.-]*:/i }) }),
)
export type FrameEvent = S.Infer<typeof frameEvent>

/** Provider events forwarded from a host wallet to the frame. */
export const walletEvent = S.union(
  S.object({ uuid: S.string({ max: 64 }), event: S.literal('accountsChanged'), data: S.array(address, 64) }),
  S.object({ uuid: S.string({ max: 64 }), event: S.literal('chainChanged'), data: S.string({ max: 80 }) }),
  S.object({ uuid: S.string({ max: 64 }), event: S.literal('disconnect'), data: S.unknown }),
)
export type WalletEvent = S.Infer<typeof walletEvent>

const nothing = S.literal(null)

/**
 * Wallet Standard wallets on the host page (issue 23, docs/architecture.md §4): the SDK's host chunk
 * (sdk/src/standard/) discovers them and serialises each explicitly (a wallet's account objects keep
 * their data behind getters, which structured clone drops). Bytes cross as Uint8Array. The frame calls
 * only these features; `standard:events` stays on the host, which forwards account changes.
 */
export const standardFeatures = [
  'standard:connect',
  'standard:disconnect',
  'solana:signTransaction',
  'solana:signAndSendTransaction',
  'solana:signMessage',
  'solana:signIn',
] as const
export type StandardFeature = (typeof standardFeatures)[number]
/** The random 128-bit id the host chunk gives each wallet object it found. */
const standardId = Ids.isId
export const bytes = (max: number): S.Schema<Uint8Array> => (x): x is Uint8Array => x instanceof Uint8Array && x.length <= max
const standardChain = S.string({ min: 3, max: 64, pattern: /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,48}$/ })
export const standardAccount = S.object({
  address: S.string({ min: 1, max: 128 }),
  publicKey: bytes(64),
  chains: S.array(standardChain, 16),
  features: S.array(S.string({ max: 64 }), 32),
  label: S.optional(S.string({ max: 64 })),
  icon: S.optional(dataImage),
})
export type StandardAccount = S.Infer<typeof standardAccount>
export const standardWallet = S.object({
  id: standardId,
  name: S.string({ min: 1, max: 64 }),
  icon: dataImage,
  version: S.string({ max: 16 }),
  chains: S.array(standardChain, 16),
  /** Only the features of `standardFeatures` the wallet has. */
  features: S.array(/* @__PURE__ */ S.oneOf(standardFeatures), standardFeatures.length),
  accounts: S.array(standardAccount, 16),
})
export type StandardWallet = S.Infer<typeof standardWallet>

/**
 * The dapp changes its networks at runtime (spec §4 "Account type and adapters"): `addNetwork`,
 * `removeNetwork`, `addAdapter`, `removeAdapter`. The SDK only converts the networks it is given
 * (viem chains too) and forwards the call; the frame applies the spec's rules and answers their errors
 * (spec §8), so the rules and messages cost the 7 KB SDK nothing.
 */
export const editNetworks = S.union(
  S.object({ op: S.literal('addNetwork'), namespace: S.oneOf(Caip.namespaces), network }),
  S.object({ op: S.literal('removeNetwork'), namespace: S.oneOf(Caip.namespaces), id: S.union(S.string({ min: 1, max: 64 }), S.number) }),
  S.object({ op: S.literal('addAdapter'), namespace: S.oneOf(Caip.namespaces), networks: S.array(network, 64) }),
  S.object({ op: S.literal('removeAdapter'), namespace: S.oneOf(Caip.namespaces) }),
)
export type EditNetworks = S.Infer<typeof editNetworks>

/**
 * `open({ view: 'Send' | 'Swap', arguments })` (issues 8, 11). The channel takes any small record of strings and
 * numbers, so that a wrong key or type reaches the frame, which answers it with a clear error naming
 * the argument (a call that failed this check would be dropped and time out instead).
 */
export const sendArguments = S.record(S.string({ max: 32 }), S.union(S.string({ max: 256 }), S.number), 8)
export type SendArguments = {
  /** The ERC-20 contract (0x… or CAIP-10); omitted, the network's native token. */
  assetAddress?: string
  /** In whole units, as a decimal string: '0.01'. */
  amount?: string
  /** An address or a name. */
  to?: string
  /** CAIP-2 or an EIP-155 number; omitted, the active network. */
  chainId?: string | number
}
/** `open({ view: 'Swap', arguments })` (issue 11); the frame checks the values, as for Send. */
export type SwapArguments = {
  /** A symbol ('ETH', 'DUSD'), a 0x contract address or CAIP-10; native: 'ETH' or 0xeeee…eeee. */
  fromToken?: string
  toToken?: string
  /** In whole units of fromToken, as a decimal string: '0.5'. */
  amount?: string
}

// Each API is two tables: the params a side checks on the calls it serves, and the results a caller
// checks on replies. Kept apart so each side bundles only what it receives (the SDK has 7 KB).

/** Exposed by the frame-app, called by the host SDK. */
export const frameParams = {
  init: S.object({ config, wallets: S.array(walletInfo, 64) }),
  /** The host's wallet list changed (a late EIP-6963 announcement). */
  wallets: S.object({ wallets: S.array(walletInfo, 64) }),
  walletEvent,
  /** The dapp's EIP-1193 request, routed by the frame to the connected connector. */
  request: rpcRequest,
  open: S.object({ view: S.optional(/* @__PURE__ */ S.oneOf(openableViews)), arguments: S.optional(sendArguments) }),
  /** The dapp's close (silent: the host already closed); `person`: Escape on the host's dialog, as in the frame. */
  close: S.object({ person: S.optional(S.boolean) }),
  /** The Wallet Standard wallets the host chunk found (sent whenever the list changes). */
  standardWallets: S.object({ wallets: S.array(standardWallet, 32) }),
  /** A Wallet Standard wallet's accounts changed (its `standard:events` change). */
  standardEvent: S.object({ id: standardId, accounts: S.array(standardAccount, 16) }),
  editNetworks,
}
export const frameResults = {
  init: modalState,
  wallets: nothing,
  walletEvent: nothing,
  request: S.unknown,
  open: modalState,
  close: modalState,
  standardWallets: nothing,
  standardEvent: nothing,
  editNetworks: modalState,
} satisfies Record<keyof typeof frameParams, unknown>
export type FrameApi = { params: typeof frameParams; results: typeof frameResults }

/** The dapp's sign-in functions the frame may call on the host: `siwx`'s, then `siweConfig`'s (sdk/src/types.ts). */
export const siwxFunctions = [
  'createMessage',
  'signMessage',
  'addSession',
  'getSessions',
  'revokeSession',
  'setSessions',
  'getRequired',
  'getNonce',
  'getMessageParams',
  'verifyMessage',
  'getSession',
  'signOut',
  'onSignIn',
  'onSignOut',
] as const
export type SiwxFunction = (typeof siwxFunctions)[number]

const siwxTime = S.optional(S.string({ max: 64 }))
/** CAIP-122 fields of a sign-in message as the dapp's createMessage made them (sdk SiwxData). */
export const siwxData = S.object({
  accountAddress: address,
  chainId,
  domain: S.string({ min: 1, max: 256 }),
  uri: S.string({ min: 1, max: 2048 }),
  version: S.string({ min: 1, max: 16 }),
  nonce: S.string({ min: 1, max: 256 }),
  statement: S.optional(S.string({ max: 2048 })),
  resources: S.optional(S.array(S.string({ max: 2048 }), 32)),
  requestId: S.optional(S.string({ max: 256 })),
  issuedAt: siwxTime,
  expirationTime: siwxTime,
  notBefore: siwxTime,
})
export type SiwxData = S.Infer<typeof siwxData>

/** Exposed by the host SDK, called by the frame-app. */
export const hostParams = {
  event: frameEvent,
  /** Run a request on a host wallet the host announced (by uuid); others are refused. */
  walletRequest: S.object({ uuid: S.string({ max: 64 }), request: rpcRequest }),
  /** Call one of the dapp's sign-in functions; the frame checks each answer by function (frame-app/src/features/siwx/siwx.ts). */
  siwx: S.object({ fn: /* @__PURE__ */ S.oneOf(siwxFunctions), args: S.array(S.unknown, 2) }),
  /**
   * Call one allowlisted feature of a Wallet Standard wallet the host chunk found, with one input. An
   * input names its account by `address`; the host swaps in the wallet's own account object. The frame
   * checks each answer by feature.
   */
  // A feature's name by its form: the host chunk, which alone calls wallets, allows only `standardFeatures`
  // (the list would cost the SDK's entry its bytes).
  standardRequest: S.object({ id: standardId, feature: S.string({ max: 64, pattern: /^(standard|solana):\w+$/ }), input: S.isPlainObject }),
  /**
   * Redirect mode (spec §7 social-redirect): the dapp's page goes to the frame's own redirect page, which
   * sends it on to the secure-site's sign-in and back to this page's address, which the SDK appends. Only
   * to the frame's origin: the frame can never send the dapp's page to another site.
   */
  redirect: S.string(),
}
export const hostResults = { event: S.unknown, walletRequest: S.unknown, siwx: S.unknown, standardRequest: S.unknown, redirect: S.unknown } satisfies Record<keyof typeof hostParams, unknown>
export type HostApi = { params: typeof hostParams; results: typeof hostResults }

/**
 * The embedded wallet (docs/architecture.md §6, docs/embedded-wallet.md §6). The frame-app names each long
 * operation with a random 128-bit `op` so it can `abort` it (a 30 s timeout or the modal closing): the
 * secure-site then aborts its fetch and forgets the operation, and a late answer changes nothing.
 * Only addresses, emails and signatures cross; never a key, seed or share.
 */
const op = Ids.isId
const evmAddress = S.string({ pattern: /^0x[0-9a-fA-F]{40}$/ })
const hexData = S.string({ max: 262_144, pattern: /^0x[0-9a-fA-F]*$/ })
const accountEmail = S.string({ min: 3, max: 254 })
const socialUsername = S.string({ min: 1, max: 100 })
const socialAvatar: S.Schema<string> = (x): x is string => S.url(x) && x.length <= 500
/** A Solana address: base58 of 32 bytes. */
const solanaAddress = S.string({ min: 32, max: 44, pattern: /^[1-9A-HJ-NP-Za-km-z]+$/ })
/**
 * The embedded wallet's accounts: its EVM address and its Solana address (SLIP-0010 m/44'/501'/0'/0' of
 * the same seed, docs/embedded-wallet.md §1). Every unlock derives both, so every answer carries both.
 */
export const embeddedAccount = S.object({
  email: accountEmail,
  address: evmAddress,
  solanaAddress,
  /** spec §3 Account user.username: the provider's name for the person after a social sign-in, while its session lives. */
  username: S.optional(socialUsername),
  /** Their picture at the provider, when it gave one: an http(s) URL (never a script or data URL), as the server bounds it. */
  avatar: S.optional(socialAvatar),
})
export type EmbeddedAccount = S.Infer<typeof embeddedAccount>
/**
 * spec §4 unsafe methods we sign in this version (docs/embedded-wallet.md §6 lists the rest of AppKit's 11).
 * The Solana ones take a `solana:` chainId and one param: the transaction's wire bytes (solana_signTransaction)
 * or the message's bytes (solana_signMessage), as standard base64.
 */
export const embeddedUnsafeMethods = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'solana_signTransaction', 'solana_signMessage'] as const
/**
 * What the frame asks the secure-site to sign: the unsafe methods, and a smart account's user operation
 * (issue 25), which the frame builds from eth_sendTransaction or wallet_sendCalls and a dapp never sends
 * itself. Its one param is the EntryPoint v0.7 operation, unpacked, its numbers as hex (ERC-7769's JSON).
 * A smart session (issue 25): `eth_signDelegation` signs the ERC-7710 delegation the frame built from the
 * dapp's permission request (Permissions.toJson), shown as its limits in words; `doorway_revokeSession` signs
 * the operation that disables one ([operation, delegation]) and, in the same approval, `Revoke session {pci}`
 * for the api's record (the answer's `revoke`).
 */
export const secureSignMethods = [...embeddedUnsafeMethods, 'eth_signUserOperation', 'eth_signDelegation', 'doorway_revokeSession'] as const
/** solana_signTransaction's answer: the whole wire transaction (at most 1232 bytes) with the signature in slot 0, as base64. */
const signedSolanaTransaction = S.string({ min: 4, max: 1644, pattern: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/ })
/** solana_signMessage's answer: the 64-byte ed25519 signature, as base58. */
const solanaSignature = S.string({ min: 64, max: 88, pattern: /^[1-9A-HJ-NP-Za-km-z]+$/ })
/** The host page's origin as the frame pinned it at the handshake; the secure-site shows it as reported. */
const hostOrigin = S.string({ min: 1, max: 200, pattern: /^https?:\/\/[^/?#\s]+$/ })

const contract = S.string({ pattern: /^0x[0-9a-fA-F]{40}$/ }) as S.Schema<`0x${string}`>
/** The Delegation Framework's addresses on one chain that a smart account needs (SmartAccount.ts; the api serves them per network). */
export const smartAccountEnvironment = S.object({
  EntryPoint: contract,
  DelegationManager: contract,
  SimpleFactory: contract,
  implementations: S.object({ HybridDeleGatorImpl: contract }),
})

/** Exposed by the secure-site, called by the frame-app. */
export const secureParams = {
  status: S.object({}),
  /** The modal's look and language, so the secure-site's screens match it (its theme mode and accent, spec §2). */
  configure: S.object({
    theme: S.literal('dark', 'light'),
    accent: S.string({ pattern: /^#[0-9a-fA-F]{6}$/ }),
    onAccent: S.literal('#000', '#fff'),
    /** The modal's locale (BCP 47), the secure-site's document language (what screen readers speak its texts in). */
    locale: S.string({ max: 35, pattern: /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/ }),
  }),
  /** CONNECT_DEVICE: a returning device reconnects without a code, when its session is alive. */
  restore: S.object({ op }),
  /**
   * CONNECT_EMAIL, typed only on the secure origin (docs/embedded-wallet.md §4): the secure-site shows the email
   * form in its own DOM over the view's slot and mails the code (the server enforces spec §5's 30 s throttle).
   * The frame learns only that a code went out, or that the person pressed Escape.
   */
  emailStep: S.object({ op, host: hostOrigin }),
  /**
   * CONNECT_OTP, typed only on the secure origin: the six digit fields, resend and the throttles, in the
   * secure-site's own DOM. Answers the account, VERIFY_DEVICE (with the email the device step names), or the
   * person's way out: another email, or Escape.
   */
  codeStep: S.object({ op }),
  /**
   * VERIFY_DEVICE: after `codeStep` answered it, waits until the person approves this device from the
   * link the vault mailed to them, then recovers the wallet here (docs/embedded-wallet.md §4).
   */
  awaitDevice: S.object({ op }),
  /**
   * A social sign-in (issue 24, docs/embedded-wallet.md §4.5): a flow at the server bound to this device.
   * The frame opened the popup in the person's click (at this origin's /oauth/popup) and sends it to `url`.
   */
  socialStart: S.object({ op, provider: S.oneOf(socials), host: hostOrigin, redirect: S.optional(S.boolean) }),
  /**
   * Redirect mode (spec §7 social-redirect): the page came back with `result_uri`; the flow this device
   * kept when it left becomes the one `socialRedeem` waits on. Its provider, for the view.
   */
  socialResume: S.object({ op, flowId: Ids.isId }),
  /**
   * One wait for the flow `socialStart` began (each at most `Constants.socialPollMs`, under spec §7's 30 s):
   * pending while the person is at the provider; then the account, or VERIFY_DEVICE as `codeStep` answers.
   */
  socialRedeem: S.object({ op }),
  /** Ends the flow at the server (the popup closed, the person cancelled, the modal closed): a late answer is refused. */
  socialCancel: S.object({ op }),
  /** Mails a new approval link; the last one stops working. */
  resendDevice: S.object({ op }),
  abort: S.object({ op }),
  /**
   * An unsafe request, approved or rejected by the person inside the secure-site (docs/embedded-wallet.md §7). For
   * eth_sendTransaction the frame has filled nonce, gas and fees, and gets back the signed raw
   * transaction to broadcast; for solana_signTransaction the frame has set the fee payer and blockhash, and
   * gets back the signed wire transaction to broadcast. The secure-site has no chain access.
   */
  sign: S.object({
    op,
    method: S.oneOf(secureSignMethods),
    params: S.array(S.unknown, 4),
    chainId,
    host: hostOrigin,
    /** How the approval names the network and prices its native coin (shown beside the signed chain id, never instead of it). */
    network: S.optional(
      S.object({ name: S.string({ min: 1, max: 64 }), symbol: S.string({ min: 1, max: 16 }), price: S.optional(S.number), currency: S.optional(S.string({ pattern: /^[A-Z]{3}$/ })) }),
    ),
    /**
     * The person's smart account signs (issue 25): the Delegation Framework on this chain, from which the
     * secure-site derives the account its key owns. personal_sign and typed data are answered with the owner's
     * signature, which the account checks (ERC-1271; the frame wraps it in ERC-6492 while it is undeployed).
     * eth_signUserOperation needs it; eth_sendTransaction refuses it (a smart account sends operations).
     */
    smartAccount: S.optional(smartAccountEnvironment),
  }),
  signOut: S.object({}),
  /**
   * Key export (docs/embedded-wallet.md §8): the secure-site asks for a fresh code and shows the key in its own DOM.
   * The frame learns only that it is done.
   */
  exportKey: S.object({ op, host: hostOrigin }),
  /**
   * The person's devices and activity (docs/embedded-wallet.md §10): the secure-site lists them, removes a
   * device after a fresh code, and checks the activity log against the vault, all in its own DOM. The
   * frame learns only that the person is done.
   */
  manageWallet: S.object({ op, host: hostOrigin }),
}
export const secureResults = {
  status: S.object({ version: S.literal(version), origin: S.url }),
  configure: nothing,
  restore: S.object({ account: S.union(embeddedAccount, S.literal(null)) }),
  emailStep: S.object({ action: S.literal('VERIFY_OTP', 'close') }),
  codeStep: S.union(
    S.object({ account: embeddedAccount }),
    S.object({ action: S.literal('VERIFY_DEVICE'), email: accountEmail }),
    S.object({ action: S.literal('otherEmail', 'close') }),
  ),
  awaitDevice: S.object({ account: embeddedAccount }),
  socialStart: S.object({ url: S.url }),
  socialResume: S.object({ provider: S.oneOf(socials) }),
  socialRedeem: S.union(
    S.object({ state: S.literal('pending') }),
    S.object({ account: embeddedAccount }),
    S.object({ action: S.literal('VERIFY_DEVICE'), email: accountEmail }),
    /** Farcaster proved an account that is no one's yet, and gives no email: the person adds one (EmailLogin), which links it. */
    S.object({ action: S.literal('ADD_EMAIL') }),
  ),
  socialCancel: nothing,
  resendDevice: S.object({ expiresAt: S.number }),
  abort: nothing,
  /** eth_*: hex; solana_signTransaction: base64; solana_signMessage: base58; doorway_revokeSession adds the revoke message's signature. */
  sign: S.object({ result: S.union(hexData, signedSolanaTransaction, solanaSignature), revoke: S.optional(hexData) }),
  signOut: nothing,
  exportKey: nothing,
  manageWallet: nothing,
} satisfies Record<keyof typeof secureParams, unknown>
export type SecureApi = { params: typeof secureParams; results: typeof secureResults }
/** The checked params of a secure-site operation. */
export type SecureParams = { [K in keyof typeof secureParams]: S.Infer<(typeof secureParams)[K]> }

/** The frame-app exposes nothing to the secure-site. */
export const secureClientParams = {}
export const secureClientResults = {}
export type SecureClientApi = { params: typeof secureClientParams; results: typeof secureClientResults }
