/**
 * The pages the person opens from the vault's mail (docs/embedded-wallet.md §4 VERIFY_DEVICE): plain
 * HTML on the vault's own origin, readable without the stylesheet, no script at all, every value
 * escaped. A GET only shows; the decision is a POSTed form, since mail scanners prefetch links.
 * `import * as Page from './vault/page.js'`.
 */
import type { Approval } from './store.js'
import { site, utc } from './mails.js'

/** No script, no frame, forms only to this origin (the CSP of every page and the stylesheet). */
export const contentSecurityPolicy = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

export const stylesheet = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#f6f6f6}
main{max-width:32rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:12px}
h1{font-size:1.4rem;margin-top:0}
dt{font-weight:600}dd{margin:0 0 .75rem}
.reported{color:#a15c00}
form{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1rem;border-radius:8px;border:1px solid #444;background:#fff;cursor:pointer}
button[value=approve]{background:#111;color:#fff}
`

export function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(title)} · Doorway</title>
<link rel="stylesheet" href="/approve.css">
</head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`
}

/** The question: who asked, from where, when; Approve and "This wasn't me". */
export function approval(options: { token: string; email: string; approval: Approval }): string {
  const { token, email, approval } = options
  const origin = approval.attested
    ? escape(approval.origin)
    : `${escape(approval.origin)} <span class="reported">(reported: the browser could not confirm this site)</span>`
  return document(
    'Approve a new device?',
    `<p>A device asked to use the Doorway wallet of <strong>${escape(email)}</strong>.</p>
<dl>
<dt>Site</dt><dd>${origin}</dd>
<dt>Browser</dt><dd>${escape(approval.browser)}</dd>
<dt>Asked at</dt><dd>${escape(utc(approval.createdAt))}</dd>
</dl>
<p>Approve only if you just signed in on this site, in this browser: approving lets it unlock your wallet.</p>
<form method="post" action="/approve">
<input type="hidden" name="token" value="${escape(token)}">
<button type="submit" name="decision" value="approve">Approve this device</button>
<button type="submit" name="decision" value="deny">This wasn't me</button>
</form>`,
  )
}

export function approved(approval: Approval): string {
  return document('Device approved', `<p>Device approved. You can go back to ${escape(site(approval.origin, approval.attested))}.</p>`)
}

export function denied(): string {
  return document('Denied', '<p>Denied. Nothing was unlocked.</p><p>Your wallet stays safe: no device was given access.</p>')
}

/** Why a link cannot be used, as the page says it. */
export const refusals = {
  unknown: { status: 404, title: 'Link not valid', text: 'This link is not valid.' },
  used: { status: 410, title: 'Link already used', text: 'This link was already used.' },
  superseded: { status: 410, title: 'Link replaced', text: 'A newer link was sent: use the newest mail.' },
  expired: { status: 410, title: 'Link expired', text: 'This link has expired. Ask for a new one from the sign-in screen.' },
  revoked: { status: 410, title: 'Device removed', text: 'This device was removed from your wallet.' },
  decision: { status: 400, title: 'Not understood', text: 'Choose "Approve this device" or "This wasn\'t me" on the page from your mail.' },
  tooLarge: { status: 413, title: 'Not understood', text: 'The request was too large.' },
  error: { status: 500, title: 'Something went wrong', text: 'Something went wrong on our side. Open the link from your mail again in a moment.' },
} as const satisfies Record<string, { status: number; title: string; text: string }>

export type Refusal = keyof typeof refusals

export function refusal(which: Refusal): string {
  const { title, text } = refusals[which]
  return document(title, `<p>${escape(text)}</p>`)
}
