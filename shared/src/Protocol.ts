/**
 * The one schema of every message between the host SDK, the frame-app and the secure-site
 * (DESIGN.md §4). Each side exposes a flat API; each method has a params and a result schema,
 * checked on receipt by Channel.
 */
import * as Caip from './Caip.js'
import * as S from './Schema.js'

export const version: 1 = 1

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
  'UnsupportedChain',
  'RegisterAccountName',
  'RegisterAccountNameSuccess',
  'Networks',
  'Send',
  'Receive',
  'Swap',
  'OnRamp',
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

export const socials = ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'] as const
export const connectMethods = ['email', 'social', 'wallet'] as const
export const walletFeatures = ['onramp', 'swaps', 'receive', 'send'] as const

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
  socials: S.union(S.literal(false), S.array(S.literal(...socials), socials.length)),
  swaps: S.boolean,
  onramp: S.boolean,
  receive: S.boolean,
  send: S.boolean,
  history: S.boolean,
  analytics: S.boolean,
  connectMethodsOrder: S.array(S.literal(...connectMethods), connectMethods.length),
  walletFeaturesOrder: S.array(S.literal(...walletFeatures), walletFeatures.length),
  collapseWallets: S.boolean,
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
  defaultAccountTypes: S.record(S.literal(...Caip.namespaces), S.literal('eoa', 'smartAccount', 'payment'), 4),
  enableNetworkSwitch: S.boolean,
  allowUnsupportedChain: S.boolean,
  basic: S.boolean,
  embedded: S.boolean,
  siwx: S.boolean,
}
export const config = S.object(configShape)
export type Config = S.Infer<typeof config>

export const modalState = S.object({
  open: S.boolean,
  view: S.literal(...views),
  loading: S.boolean,
})
export type ModalState = S.Infer<typeof modalState>

/** What `open()` settles with. */
export const openResult = S.object({ status: S.literal('closed') })
export type OpenResult = S.Infer<typeof openResult>

export const frameEvent = S.union(
  S.object({ type: S.literal('state'), state: modalState }),
  S.object({ type: S.literal('close'), result: openResult }),
)
export type FrameEvent = S.Infer<typeof frameEvent>

const nothing = S.literal(null)

/** Exposed by the frame-app, called by the host SDK. */
export const frameApi = {
  init: { params: config, result: modalState },
  open: { params: S.object({ view: S.optional(S.literal(...openableViews)) }), result: modalState },
  close: { params: S.object({}), result: modalState },
}

/** Exposed by the host SDK, called by the frame-app. */
export const hostApi = {
  event: { params: frameEvent, result: nothing },
}

/** Exposed by the secure-site, called by the frame-app. The embedded wallet comes later. */
export const secureApi = {
  status: { params: S.object({}), result: S.object({ version: S.literal(version), origin: S.url }) },
}

/** The frame-app exposes nothing to the secure-site yet. */
export const secureClientApi = {}
