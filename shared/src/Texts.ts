// The one English text catalogue (UI texts; not postMessage messages) of the product. Each section is its own export so a bundle only
// carries the sections it imports. Texts are the spec's, verbatim (typos included): tests and users
// match on them. This module holds the core texts, which the frame needs to draw Connect and the
// account; a feature's texts live in texts/<feature>.ts (sendText, swapText, …), never re-exported
// here, so they load with that feature's chunk.

// spec §5, §8 and the EIP-1193 standard texts
// The errors the host SDK and the channel can raise: their own section so the 7 KB SDK bundles only
// these (spec §5, §8 and EIP-1193 texts among them), not the whole catalogue.
export const somethingWentWrong = 'Something went wrong'
export const requestAborted = 'Request was aborted'
export const invalidAccountId = 'Invalid CAIP-10 address'
export const invalidChainId = 'Invalid CAIP-2 network id'
export const siweConfigAndSiwx = 'Cannot set both `siweConfig` and `siwx` options'
export const requestTimedOut = 'Request timed out'
export const frameUnavailable = 'Unable to load the wallet modal'
export const invalidOption = 'Invalid option `{option}`'
export const unknownWallet = 'Unknown wallet: it was not announced'
export const invalidParams = 'Invalid method parameter(s).'
export const userRejected = 'User rejected the request.'
export const unauthorized = 'The requested method and/or account has not been authorized by the user.'
export const unsupportedMethod = 'The requested method is not supported by this Ethereum provider.'
export const disconnected = 'The provider is disconnected from all chains.'
export const chainDisconnected = 'The provider is disconnected from the specified chain.'
export const unrecognizedChain = 'Unrecognized chain ID.'

/** The same texts as one section, for the frame and tests. */
export const core = {
  somethingWentWrong,
  requestAborted,
  invalidAccountId,
  invalidChainId,
  siweConfigAndSiwx,
  requestTimedOut,
  frameUnavailable,
  invalidOption,
  unknownWallet,
  invalidParams,
  userRejected,
  unauthorized,
  unsupportedMethod,
  disconnected,
  chainDisconnected,
  unrecognizedChain,
} as const

/** spec §8; its own export so the secure-site carries it without the errors section. */
export const emailLoginThrottled = 'Please try again after {n} seconds'

export const errors = {
  featureOff: 'The {view} view needs features.{feature} to be on',
  notInitialized: 'The wallet modal is not initialised yet',
  // spec §8 toasts and thrown errors
  tokenBalanceUnavailable: 'Token Balance Unavailable',
  transactionStarted: 'Transaction started',
  sendTransactionFailed: 'Failed to send transaction. Please try again.',
  fetchTransactionsFailed: 'Failed to fetch transactions',
  gasPriceNetworkNotSupported: 'Network not supported for Gas Price',
  swapsNetworkNotSupported: 'Network not supported for Swaps',
  unsupportedChain: 'Unsupported chain',
  authenticationInitFailed: 'A problem occurred while trying initialize authentication',
  signatureDeclined: 'Signature declined',
  smartAccountsNotSupported: 'This application might not support Smart Accounts',
  // spec §8 sign-in (SIWX)
  siwxNotEnabled: 'SIWX is not enabled',
  noActiveCaipAddress: 'No ActiveCaipAddress found',
  noActiveCaipNetwork: 'No ActiveCaipNetwork or client found',
  noConnectionControllerClient: 'No ConnectionController client found',
  // spec §8 adapters and networks
  adapterNotFound: 'Adapter not found',
  caipNetworkNotFound: 'CaipNetwork not found',
  adapterForNamespaceNotFound: "Adapter for namespace {ns} doesn't exist",
  networkWithIdNotFound: 'Network with ID {id} not found',
  cannotRemoveLastNetwork: 'Cannot remove last network for a namespace',
  chainNotSupported: 'Chain is not supported',
  // spec §8 name registration; the API's first reason description is preferred over the fallbacks
  networkNotFound: 'Network not found',
  addressOrAuthConnectorNotFound: 'Address or auth connector not found',
  resolveNameFailed: 'Error resolving name',
  fetchNameSuggestionsFailed: 'Error fetching name suggestions',
  fetchNamesForAddressFailed: 'Error fetching names for address',
  registerNameFailed: 'Error registering name {name}',
  // spec §8 embedded-wallet generic messages ('Something went wrong' is shared above)
  anErrorOccurred: 'An error occurred',
  emailLoginDependencyUnavailable: 'Unable to load email login dependency',
  // spec §5 validation
  invalidSendInput: 'Please enter a valid amount and receiver address',
  emailLoginThrottled,
  // our own: the channel to the modal frame and createModal options (not in the spec)
  // EIP-1193 provider errors, standard texts (4001, 4100, 4200, 4900, 4901, 4902)
} as const

// spec §8 alerts: each is shown once; wallet-connect provider errors map onto these keys
export const alerts = {
  // spec §5: a missing project id raises a configuration alert
  projectIdNotConfigured: {
    title: 'Project ID Not Configured',
    message: 'A projectId is required. Pass projectId to createModal() — see the README.',
  },
  // spec §8: analytics HTTP 403
  invalidAppConfiguration: {
    title: 'Invalid App Configuration',
    message: 'Origin {origin} not found on Allowlist - update configuration',
  },
  switchNetworkNotFound: {
    title: 'Network Not Found',
    message: "Network not found - please make sure it is included in the 'networks' option",
  },
  socialsTimeout: {
    title: 'Invalid App Configuration',
    message: 'There was an issue loading the embedded wallet. Please verify that your domain is allowed.',
  },
  // wallet-connect provider errors (relay rejected the origin, the key or the session token)
  unverifiedDomain: {
    title: 'Invalid App Configuration',
    message: 'There was an issue loading the embedded wallet. Please verify that your domain is allowed.',
  },
  projectIdInvalid: {
    title: 'Invalid App Configuration',
    message: 'Invalid Project ID - update configuration',
  },
  sessionExpired: {
    title: 'Session Expired',
    message: 'Invalid session found - please check the time settings on your device',
  },
} as const

/** The `{name}` placeholders of a template, so a literal template checks its values at compile time. */
export type Placeholders<template extends string> = string extends template
  ? string
  : template extends `${string}{${infer key}}${infer rest}`
    ? key | Placeholders<rest>
    : never

/**
 * Fills `{name}` placeholders. A missing value throws rather than shipping a literal `{name}` to a user.
 * @example format(errors.registerNameFailed, { name: 'alice' }) // 'Error registering name alice'
 */
export function format<template extends string>(
  template: template,
  values: Record<Placeholders<template>, string | number>,
): string {
  const table = values as Record<string, string | number>
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (!Object.hasOwn(table, key)) throw new Error(`Missing value for placeholder {${key}}`)
    return String(table[key])
  })
}

/** Text the host SDK needs: kept apart so the SDK bundles only these few strings. */
export const sdk = {
  dialogLabel: 'Wallet connection',
  frameTitle: 'Doorway wallet',
  projectIdMissing: 'createModal(): projectId is missing',
} as const

/**
 * The frame-app's interface text that the first drawing needs; the features' own sections are in
 * texts/. View titles double as the dialog's accessible name.
 */
export const ui = {
  frame: {
    standalone: 'This page is the Doorway wallet modal. It opens inside a site that uses Doorway.',
  },
  modal: { close: 'Close', back: 'Back', loading: 'Loading', dismissAlert: 'Dismiss alert' },
  views: {
    Connect: 'Connect Wallet',
    Account: 'Account',
    AllWallets: 'All Wallets',
    ConnectingWalletConnectBasic: 'WalletConnect',
    ApproveTransaction: 'Approve Transaction',
    SIWXSignMessage: 'Sign In',
    ConnectingExternal: 'Connecting',
    ConnectingWalletConnect: 'WalletConnect',
    ConnectingSiwe: 'Sign In',
    ConnectingFarcaster: 'Farcaster',
    ConnectingSocial: 'Social Login',
    EmailLogin: 'Email',
    EmailVerifyOtp: 'Confirm Email',
    EmailVerifyDevice: 'Approve this browser',
    ExportWallet: 'Export Wallet',
    WalletSecurity: 'Devices and Activity',
    SmartSessionList: 'Sessions',
    UnsupportedChain: 'Switch Network',
    RegisterAccountName: 'Choose Name',
    RegisterAccountNameSuccess: 'Name Registered',
    Networks: 'Choose Network',
    Send: 'Send',
    SendAmount: 'Send',
    SendReceiver: 'Send',
    SendPreview: 'Review Send',
    SendConfirm: 'Confirm Send',
    SendResult: 'Transaction',
    Receive: 'Receive',
    Swap: 'Swap',
    SwapSelectToken: 'Select Token',
    SwapPreview: 'Review Swap',
    SwapResult: 'Swap',
    OnRamp: 'Buy Crypto',
    OnRampProgress: 'Buy Crypto',
  },
  connect: {
    or: 'or',
    installed: 'Installed',
    recent: 'Recent',
    waiting: 'Continue in {wallet}',
    waitingHint: 'Accept the connection request in your wallet.',
    declined: 'Connection declined',
    declinedHint: 'You declined the request in {wallet}. You can try again.',
    failed: 'Connection failed',
    retry: 'Try again',
    walletMissing: 'This wallet is no longer available on this page.',
    email: 'Email',
    socials: 'Social login',
    wallets: 'Wallets',
    continueWithWallet: 'Continue with a wallet',
    continueWithEmail: 'Continue with email',
    featured: 'Featured wallets',
    recommended: 'Recommended wallets',
    legalPrefix: 'By connecting your wallet, you agree to our',
    terms: 'Terms of Service',
    and: 'and',
    privacy: 'Privacy Policy',
  },
  socials: {
    google: 'Google',
    x: 'X',
    discord: 'Discord',
    farcaster: 'Farcaster',
    github: 'GitHub',
    apple: 'Apple',
    facebook: 'Facebook',
  },
  secure: {
    title: 'Doorway secure wallet',
    loading: 'Secure wallet frame: loading',
    ready: 'Secure wallet frame: connected to {origin}',
    error: 'Secure wallet frame: could not be reached',
  },
  // The WalletConnect entry on Connect; the pairing view's texts are in texts/walletConnect.ts.
  walletConnect: {
    entry: 'WalletConnect',
    entryTag: 'QR code',
  },
} as const
