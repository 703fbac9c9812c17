/**
 * Redirect mode (spec §7 social-redirect; docs/embedded-wallet.md §5). A mobile in-app browser (Instagram,
 * Facebook, LINE, X, TikTok, an Android WebView) or Telegram's web view opens no usable popup: a window
 * opened there is blocked, or lands in another browser whose answer never comes back. So the dapp's own
 * page goes to the provider and returns: the frame asks the SDK to send it to this origin's redirect page
 * (the SDK sends the top window only to the frame's origin), which sends it on to the secure-site's
 * /oauth/start, never elsewhere; the callback brings it back to the dapp's address with `result_uri`.
 * Pure functions: the page is src/redirect.ts, the flow socialLogin.ts.
 */

/** The in-app browsers' own marks in their user agents; `; wv)` is every Android WebView's. */
const inAppBrowser = /; wv\)|FBAN|FBAV|FB_IAB|Instagram|\bLine\/|Twitter|MicroMessenger|musical_ly|BytedanceWebview|Snapchat|LinkedInApp/

/** Whether a social sign-in redirects here instead of opening a window. */
export function redirects(userAgent: string, telegram: boolean): boolean {
  return telegram || inAppBrowser.test(userAgent)
}

/** The redirect page's file, beside the frame's own page (so under the frame URL the SDK checks). */
export const pageName = 'redirect.html'

/**
 * Where the SDK sends the dapp's page: this origin's redirect page with the secure-site's start address.
 * It ends in `return=`: the SDK appends the dapp's own address, which only the host page knows.
 */
export function hopUrl(start: string, frameHref: string): string {
  const page = new URL(pageName, frameHref)
  page.search = `to=${encodeURIComponent(start)}&return=`
  return page.href
}

/**
 * The redirect page's next address: the secure-site's /oauth/start for one flow, with the dapp's address
 * to come back to; null for anything else, so the page can never send anyone to another site. The
 * secure-site server checks that the address is the flow's own dapp.
 */
export function hopTarget(href: string, secureHref: string): string | null {
  const params = new URL(href).searchParams
  const to = params.get('to')
  const back = params.get('return')
  if (!to || !back || !URL.canParse(to) || !URL.canParse(back)) return null
  const target = new URL(to)
  const secure = new URL(secureHref)
  if (target.origin !== secure.origin || target.pathname !== '/oauth/start' || !/^[0-9a-f]{32}$/.test(target.searchParams.get('flow') ?? '')) return null
  if (!/^https?:$/.test(new URL(back).protocol)) return null
  return `${secure.origin}/oauth/start?${new URLSearchParams({ flow: target.searchParams.get('flow')!, return: back })}`
}
