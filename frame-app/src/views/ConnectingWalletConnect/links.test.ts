import { describe, expect, test } from 'vitest'
import type { Links } from '../../features/catalogue/catalogue.js'
import * as L from './links.js'

const none: Links = { mobile: null, desktop: null, webapp: null, appStore: null, playStore: null, chromeStore: null, homepage: null }
const uri = 'wc:abc@2?relay-protocol=irn&symKey=00ff'

describe('walletLink', () => {
  test.each([
    ['an app scheme', 'metamask://', 'metamask://wc?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn%26symKey%3D00ff'],
    ['a bare scheme with a colon', 'rainbow:', 'rainbow://wc?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn%26symKey%3D00ff'],
    ['a bare scheme', 'zerion', 'zerion://wc?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn%26symKey%3D00ff'],
    ['a universal link', 'https://link.trustwallet.com', 'https://link.trustwallet.com/wc?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn%26symKey%3D00ff'],
    ['a universal link with a slash', 'https://wallet.example/app/', 'https://wallet.example/app/wc?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn%26symKey%3D00ff'],
  ])('behavior: %s', (_, appUrl, expected) => {
    expect(L.walletLink(appUrl, uri)).toBe(expected)
    expect(decodeURIComponent(new URL(expected).searchParams.get('uri') ?? '')).toBe(uri)
  })
})

describe('platforms', () => {
  test.each([
    ['no wallet on desktop: the QR', undefined, false, ['qrcode']],
    ['no wallet on a phone: the QR', undefined, true, ['qrcode']],
    ['a mobile wallet on desktop', { ...none, mobile: 'metamask://' }, false, ['qrcode']],
    ['a mobile wallet on a phone', { ...none, mobile: 'metamask://' }, true, ['mobile']],
    ['every place on desktop', { ...none, mobile: 'x://', webapp: 'https://w', desktop: 'x-desktop://', chromeStore: 'https://c' }, false, ['qrcode', 'web', 'desktop', 'browser']],
    ['every place on a phone', { ...none, mobile: 'x://', webapp: 'https://w', desktop: 'x-desktop://', chromeStore: 'https://c' }, true, ['mobile', 'web']],
    ['a phone and a wallet without an app link', { ...none, chromeStore: 'https://c' }, true, ['qrcode']],
  ])('behavior: %s', (_, links, mobile, expected) => {
    expect(L.platforms(links, mobile)).toEqual(expected)
  })
})

test.each([
  ['ios', { ...none, appStore: 'https://apps.apple.com/x', homepage: 'https://h' }, 'https://apps.apple.com/x'],
  ['android', { ...none, playStore: 'https://play.google.com/x', homepage: 'https://h' }, 'https://play.google.com/x'],
  ['android', { ...none, homepage: 'https://h' }, 'https://h'],
  ['other', { ...none, chromeStore: 'https://chromewebstore.google.com/x' }, 'https://chromewebstore.google.com/x'],
] as const)('behavior: the install link on %s', (platform, links, expected) => {
  expect(L.installLink(links, platform)).toBe(expected)
})

test.each([
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', 'ios'],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 7)', 'android'],
  ['Mozilla/5.0 (X11; Linux x86_64)', 'other'],
])('behavior: devicePlatform of %s', (ua, expected) => {
  expect(L.devicePlatform(ua)).toBe(expected)
})
