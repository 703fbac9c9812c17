import { describe, expect, test } from 'vitest'
import * as Constants from './Constants.js'

describe('Constants', () => {
  // one snapshot of every value, so a changed limit shows up in review next to its spec line
  test('behavior: spec §9 values', () => {
    expect(Constants).toMatchInlineSnapshot(`
      {
        "defaultFeatures": {
          "analytics": false,
          "collapseWallets": false,
          "connectMethodsOrder": [
            "email",
            "social",
            "wallet",
          ],
          "email": true,
          "history": false,
          "onramp": true,
          "receive": true,
          "send": true,
          "socials": [
            "google",
            "x",
            "discord",
            "farcaster",
            "github",
            "apple",
            "facebook",
          ],
          "swaps": true,
          "walletFeaturesOrder": [
            "onramp",
            "swaps",
            "receive",
            "send",
          ],
        },
        "emailLoginThrottleMs": 30000,
        "embeddedRequestTimeoutMs": 30000,
        "featuredWalletsCount": 4,
        "headerTextAnimationMs": 120,
        "identityCacheMs": 300000,
        "imagePrefetchCount": 20,
        "imagePreloadTimeoutMs": 2000,
        "loggerBufferBytes": 1024000,
        "modalHeightAnimationMs": 150,
        "moneyDecimals": 2,
        "nameCacheMs": 300000,
        "nativeBalanceCacheMs": 30000,
        "navigationMenuDelayMs": 200,
        "navigationSkipDelayMs": 300,
        "numberDecimals": 2,
        "numberLocale": "en-US",
        "onrampDefaultExperience": "buy",
        "pairingExpiryMarginMs": 10000,
        "pairingLifetimeMs": 240000,
        "pairingRetryMs": 1000,
        "pendingTransactionPollMs": 30000,
        "portfolioCacheMs": 30000,
        "priceCurrency": "usd",
        "quantityDecimals": 3,
        "receiptWaitMs": 25000,
        "recentWalletsMax": 2,
        "recommendedWalletsCount": 4,
        "rejectedRequestMessageDelayMs": 300,
        "shakeMs": 500,
        "siwxDefaultNamespace": "eip155",
        "slippagePercent": 1,
        "socialFlowTtlMs": 600000,
        "socialPollMs": 5000,
        "socialProviders": [
          "google",
          "github",
          "apple",
          "facebook",
          "x",
          "discord",
        ],
        "storagePrefix": "@doorway/",
        "toastSwapDelayMs": 150,
        "tokenBalanceRetryLockoutMs": 30000,
        "viewTransitionMs": 150,
        "walletPageSize": 40,
        "walletSearchMinDelayMs": 300,
        "walletSearchSize": 100,
      }
    `)
  })

  test('behavior: farcaster is a default social option but not an embedded-wallet provider (spec §5)', () => {
    expect(Constants.defaultFeatures.socials).toContain('farcaster')
    expect(Constants.socialProviders).not.toContain('farcaster')
  })
})
