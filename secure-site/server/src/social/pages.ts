/**
 * The popup's pages on the secure origin (docs/embedded-wallet.md §5, API.md Social sign-in): plain HTML
 * under the app's CSP, every value escaped. A callback's page closes its window with /oauth/done.js, a
 * file of this origin (script-src 'self'): the app learns the outcome from its redeem, never from the
 * popup. A refused /oauth/start stays open, so the person reads why. `import * as Pages from './pages.js'`.
 */
import type { PageRefusal } from './Flow.js'
import { escape } from '../vault/page.js'
import * as Social from './providers.js'

/** Drops the opener (docs/embedded-wallet.md §5: the popup keeps no handle on the app) and closes the popup. */
export const doneScript = `'use strict'
try {
  window.opener = null
} catch {
  // a browser that will not drop it: closing is what matters
}
window.close()
`

/** The vault's page escaping, for the popup's pages too. */
export { escape }

export type Page = { status: 200 | 400 | 404 | 409 | 410 | 413; html: string }

function document(title: string, text: string, close: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(title)} · Doorway</title>
${close ? '<script src="/oauth/done.js"></script>\n' : ''}</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p>${escape(text)}</p>
</main>
</body>
</html>
`
}

const back = 'You can close this window and go back to the app.'

const refusalTexts = {
  malformed: { status: 400, title: 'Not understood', text: 'This sign-in link is not valid. Close this window and start again from the app.' },
  unknown: { status: 404, title: 'Sign-in not found', text: 'This sign-in is not known here. Close this window and start again from the app.' },
  off: { status: 404, title: 'Sign-in not available', text: 'This way of signing in is not configured on this server. Close this window and continue with email.' },
  opened: { status: 409, title: 'Sign-in already open', text: 'This sign-in was already opened in another window. Finish it there, or start again from the app.' },
  notOpened: { status: 409, title: 'Sign-in not started', text: 'This sign-in was never sent to the provider. Start again from the app.' },
  used: { status: 409, title: 'Sign-in already used', text: 'This sign-in was already completed. Nothing was changed.' },
  expired: { status: 410, title: 'Sign-in cancelled or expired', text: 'This sign-in was cancelled or has expired, so nothing was stored. Start again from the app.' },
} as const satisfies Record<PageRefusal, { status: Page['status']; title: string; text: string }>

/** A page that refuses; at the callback it also closes the popup. */
export function refusal(which: PageRefusal, options: { close: boolean }): Page {
  const { status, title, text } = refusalTexts[which]
  return { status, html: document(title, text, options.close) }
}

/** The callback's outcomes, each closing the popup. */
export const outcomes = {
  signedIn: (provider: Social.Provider): Page => ({ status: 200, html: document(`Signed in with ${Social.name(provider)}`, back, true) }),
  denied: (provider: Social.Provider): Page => ({
    status: 200,
    html: document('Sign-in not allowed', `You did not allow the app to use your ${Social.name(provider)} account. ${back}`, true),
  }),
  invalid: (provider: Social.Provider): Page => ({
    status: 400,
    html: document('Sign-in could not be checked', `${Social.name(provider)}'s answer could not be checked. ${back}`, true),
  }),
  tooLarge: (): Page => ({ status: 413, html: document('Not understood', 'The request was too large.', true) }),
}
