/**
 * The devnet social providers' own pages (provider.ts), rendered on the server with no script and no
 * external resource: sign in (a fixed test user, or any email typed), consent (Allow or Deny), and
 * errors. Each has one h1 and a label for every control, so tests and e2e find them by role and name.
 */
import { createHash } from 'node:crypto'
import type { FaceInfo } from './faces.js'
import { type TestUserName, testUsers } from './users.js'

const style = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
main{max-width:26rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.35rem;margin:0 0 .5rem}
form{margin:1rem 0}
button{display:block;width:100%;padding:.6rem;margin:.4rem 0;font:inherit;border:1px solid #a1a1aa;border-radius:8px;background:#fff;cursor:pointer}
button.primary{background:#18181b;color:#fff;border-color:#18181b}
label{display:block;margin-top:.6rem}
input[type=email],input[type=text]{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:1px solid #a1a1aa;border-radius:8px}
.check{display:flex;gap:.5rem;align-items:center}.check label{margin:0}
.hint,.who{color:#52525b;font-size:.9rem}
[role=alert]{color:#b91c1c}
`

/** Only the page's own style; forms may post anywhere their redirects lead (the client's callback). */
export const csp = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!)

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`
}

export type LoginOptions = {
  face: FaceInfo
  clientName: string
  /** The interaction's path, `/${face}/interaction/${uid}`: the forms post below it. */
  action: string
  /** Prefills the email (the request's login_hint, or what was typed before an error). */
  email?: string | undefined
  error?: string | undefined
}

export function login({ face, clientName, action, email = '', error }: LoginOptions): string {
  const users = (Object.keys(testUsers) as TestUserName[])
    .map((id) => `<button type="submit" name="user" value="${id}">Continue as ${escape(testUsers[id].name)}</button>`)
    .join('\n')
  return layout(
    `Sign in to ${face.label}`,
    `<h1>Sign in to ${escape(face.label)} (Doorway devnet)</h1>
<p>${escape(clientName)} wants to sign you in.</p>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="${escape(action)}/login" aria-label="Test users">
${users}
</form>
<form method="post" action="${escape(action)}/login" aria-label="Another account">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escape(email)}">
<div class="check"><input id="verified" name="verified" type="checkbox" value="true" checked><label for="verified">Email verified</label></div>
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="name" aria-describedby="name-hint">
<span id="name-hint" class="hint">Optional</span>
<button class="primary" type="submit">Sign in</button>
</form>
<form method="post" action="${escape(action)}/abort">
<button type="submit">Cancel</button>
</form>`,
  )
}

export type ConsentOptions = {
  face: FaceInfo
  clientName: string
  action: string
  /** Who is signed in, as the page names them. */
  who: string
  /** The requested scopes the face knows. */
  scopes: readonly string[]
}

export function consent({ face, clientName, action, who, scopes }: ConsentOptions): string {
  const items = scopes.map((scope) => `<li>${escape(face.scopeWords[scope] ?? scope)}</li>`).join('\n')
  return layout(
    `${clientName} · ${face.label}`,
    `<h1>Allow ${escape(clientName)} to use your ${escape(face.label)} account?</h1>
<p class="who">Signed in as ${escape(who)}</p>
<p>${escape(clientName)} will be able to:</p>
<ul>
${items}
</ul>
<form method="post" action="${escape(action)}/consent">
<button class="primary" type="submit">Allow</button>
</form>
<form method="post" action="${escape(action)}/abort">
<button type="submit">Deny</button>
</form>`,
  )
}

export function error(title: string, message: string): string {
  return layout(title, `<h1>${escape(title)}</h1>\n<p role="alert">${escape(message)}</p>`)
}
