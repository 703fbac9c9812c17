/**
 * A wallet's places (spec §3 wallet listing: mobile, desktop and web links, app stores) as the
 * platform tabs of ConnectingWalletConnect, and the deep links that carry a `wc:` URI to them.
 */
import type { Links } from '../../features/catalogue/catalogue.js'

export type Platform = 'qrcode' | 'mobile' | 'browser' | 'web' | 'desktop'

/**
 * The tabs for a wallet on this device: the QR on desktop, the app link on mobile, then the web
 * wallet, the desktop app and the browser extension when the wallet has them. No wallet (the generic
 * WalletConnect entry): the QR only.
 */
export function platforms(links: Links | undefined, mobile: boolean): Platform[] {
  if (!links) return ['qrcode']
  const list: Platform[] = mobile ? (links.mobile ? ['mobile'] : []) : ['qrcode']
  if (links.webapp) list.push('web')
  if (!mobile && links.desktop) list.push('desktop')
  if (!mobile && links.chromeStore) list.push('browser')
  // A phone and a wallet with no app link: the QR still works from another device.
  return list.length ? list : ['qrcode']
}

const isHttp = (url: string) => /^https?:\/\//i.test(url)

/**
 * The link that opens a wallet app with a pairing URI: `scheme://wc?uri=…` for an app scheme, or the
 * universal link's `…/wc?uri=…`. A bare scheme (`metamask:` or `metamask`) becomes `metamask://`.
 */
export function walletLink(appUrl: string, uri: string): string {
  let base = appUrl
  if (!isHttp(base) && !base.includes('://')) base = `${base.replaceAll('/', '').replaceAll(':', '')}://`
  if (!base.endsWith('/')) base += '/'
  return `${base}wc?uri=${encodeURIComponent(uri)}`
}

/** Where to get the wallet when it is not installed, for this device. */
export function installLink(links: Links | undefined, platform: 'ios' | 'android' | 'other'): string | null {
  if (!links) return null
  if (platform === 'ios') return links.appStore ?? links.homepage
  if (platform === 'android') return links.playStore ?? links.homepage
  return links.chromeStore ?? links.homepage
}

export function devicePlatform(userAgent: string): 'ios' | 'android' | 'other' {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  if (/Android/i.test(userAgent)) return 'android'
  return 'other'
}
