// Business constants and limits (spec §9 unless noted). `const` primitives already have literal types.

// spec §9 token balance retry lockout (spec §5: retry only 30 s after the last failure)
export const tokenBalanceRetryLockoutMs = 30_000

// spec §9 timings
export const toastSwapDelayMs = 150
export const shakeMs = 500
export const walletSearchMinDelayMs = 300
export const rejectedRequestMessageDelayMs = 300

// spec §9 wallet lists
export const featuredWalletsCount = 4
export const recommendedWalletsCount = 4
export const walletPageSize = 40
export const walletSearchSize = 100
export const imagePrefetchCount = 20

// spec §9 prices and swaps; the spec leaves slippage open and lists a library default of 1 (%)
export const priceCurrency = 'usd'
export const slippagePercent = 1

// spec §9 number display
export const quantityDecimals = 3
export const moneyDecimals = 2
export const numberDecimals = 2
export const numberLocale = 'en-US'

// spec §9 onramp
export const onrampDefaultExperience = 'buy'

// spec §9: storage keys share a prefix
export const storagePrefix = '@doorway/'

// spec §9 cache expiry
export const portfolioCacheMs = 30_000
export const nativeBalanceCacheMs = 30_000
export const nameCacheMs = 300_000
export const identityCacheMs = 300_000

// spec §9
export const recentWalletsMax = 2

// spec §9 wallet-connect pairing
export const pairingExpiryMarginMs = 10_000
export const pairingLifetimeMs = 240_000
export const pairingRetryMs = 1_000

// spec §9
export const imagePreloadTimeoutMs = 2_000
export const loggerBufferBytes = 1_024_000

// spec §9 navigation menu
export const navigationMenuDelayMs = 200
export const navigationSkipDelayMs = 300

// spec §9 transactions
export const pendingTransactionPollMs = 30_000
export const receiptWaitMs = 25_000

// spec §9: the sign-in message defaults to the eip155 chain namespace
export const siwxDefaultNamespace = 'eip155'

// spec §7: email, device, OTP, social and social-redirect requests to the secure frame
export const embeddedRequestTimeoutMs = 30_000

// spec §5: a new email login is refused within 30 s of the last
export const emailLoginThrottleMs = 30_000

// spec §2 animation durations
export const headerTextAnimationMs = 120
export const modalHeightAnimationMs = 150
export const viewTransitionMs = 150

// spec §1/§9 default features. analytics is opt-in (our decision); history is not in the spec's
// default list. farcaster is a connect option of its own, so it is here but not in socialProviders.
export const defaultFeatures = {
  swaps: true,
  onramp: true,
  receive: true,
  send: true,
  email: true,
  socials: ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'],
  history: false,
  analytics: false,
  connectMethodsOrder: ['email', 'social', 'wallet'],
  walletFeaturesOrder: ['onramp', 'swaps', 'receive', 'send'],
  collapseWallets: false,
} as const

// spec §5 embedded-wallet messages: the social providers a connect request may name
export const socialProviders = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const

export type SocialProvider = (typeof socialProviders)[number]

// issue 24 (our choice, the spec is silent): how long the server holds one social redeem before it answers
// pending, well under spec §7's 30 s, and short, because a closed sign-in window is only believed after
// a redeem that began after it closed answers pending (features/embedded/socialLogin.ts); and how long a
// social flow lives for the person at the provider.
export const socialPollMs = 5_000
export const socialFlowTtlMs = 10 * 60_000
