/**
 * The devnet's test Farcaster client (docs/embedded-wallet.md §5): a page that plays the Farcaster app for
 * the connect relay stand-in (relay.ts). The relay's connect URI opens it: `/client?channelToken=…` shows
 * which domain asks, one button per test user, and Cancel. Approving does what the Farcaster app does:
 * it builds the Sign In With Farcaster message with auth-client, signs it with the user's custody key,
 * and posts it to the relay's `POST /v1/channel/authenticate` over HTTP with the relay's auth key.
 * Rendered on the server, no script. Dev only, never shipped.
 * `import * as Client from './client.js'`; the relay routes `Client.owns(path)` here.
 */
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type CreateClientArgs, type StatusAPIResponse, type WalletClient, createWalletClient } from '@farcaster/auth-client'
import { type Address, type Hex, createPublicClient, custom, keccak256, stringToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { HttpError, readText, securityHeaders } from '../httpServer.js'
import { escape } from '../oidc/pages.js'

export type User = {
  /** The Farcaster username, shown as @name. */
  name: string
  fid: number
  displayName: string
  bio: string
  custody: Address
  privateKey: Hex
}

/**
 * Fixed devnet custody keys, keccak256 of a label: the same on every machine, and none of anvil's funded
 * dev accounts, so a custody address never holds devnet funds. Published test keys: never use them elsewhere.
 */
function testUser(name: string, fid: number, displayName: string, bio: string): User {
  const privateKey = keccak256(stringToBytes(`doorway devnet farcaster custody ${name}`))
  return { name, fid, displayName, bio, custody: privateKeyToAccount(privateKey).address, privateKey }
}

export const users: readonly User[] = [
  testUser('alice', 1, 'Alice Farcaster', 'Test user of the Doorway devnet'),
  testUser('bob', 2, 'Bob Farcaster', 'Test user of the Doorway devnet'),
]

export const findUser = (fid: number) => users.find((user) => user.fid === fid)

/** The user's profile picture, served here: `${origin}/pfp/${fid}.svg`. */
export const pfpUrl = (origin: string, fid: number) => `${origin}/pfp/${fid}.svg`

/** What the page needs of a channel: its state and what the app asked to be signed. */
export type Request = Pick<StatusAPIResponse, 'state' | 'signatureParams'> & { nonce: string }

/** What the relay gives its client page. */
export type Context = {
  /** The relay's origin: the page posts to it, and authenticates against it. */
  origin: string
  /** The relay's auth key, as the Farcaster app holds its own. */
  authKey: string
  /** The live channel with this token, or undefined (unknown, expired, or already read as completed). */
  request(channelToken: string): Request | undefined
}

/** The paths this page serves: the rest of the origin is the relay's. */
export const owns = (path: string) => path === '/client' || path.startsWith('/client/') || path.startsWith('/pfp/')

/** A form is two short fields. */
const formBytes = 1024
/** auth-client's fetch takes no signal: the wait for the relay (this same server) is bounded here. */
const authenticateTimeoutMs = 10_000

export async function handle(context: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://loopback')
  const route = routes[url.pathname]
  const pfp = /^\/pfp\/(\d{1,9})\.svg$/.exec(url.pathname)
  if (pfp && req.method === 'GET') return sendPfp(res, Number(pfp[1]))
  if (!route) return sendPage(res, 404, Pages.error('Not found', `Nothing at ${url.pathname}`))
  if (req.method !== route.method) {
    res.setHeader('allow', route.method)
    return sendPage(res, 405, Pages.error('Not allowed', `${url.pathname} takes ${route.method}`))
  }
  try {
    const page = await route.handle(context, req, url)
    sendPage(res, page.status ?? 200, page.html)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    if (error.status === 413) res.setHeader('connection', 'close')
    sendPage(res, error.status, Pages.error('Sign-in failed', error.message))
  }
}

type Page = { status?: number; html: string }
type Route = { method: 'GET' | 'POST'; handle(context: Context, req: IncomingMessage, url: URL): Page | Promise<Page> }

const routes: Record<string, Route> = {
  '/client': { method: 'GET', handle: (context, _req, url) => show(context, url.searchParams.get('channelToken')) },
  '/client/approve': { method: 'POST', handle: (context, req) => approve(context, req) },
  // The relay has no reject: the app is not told, and its channel expires on its own.
  '/client/cancelled': { method: 'GET', handle: () => ({ html: Pages.cancelled() }) },
}

const unknownRequest = () => ({ status: 404, html: Pages.unknown() })

function show(context: Context, channelToken: string | null): Page {
  if (!channelToken) return { status: 400, html: Pages.error('No sign-in request', 'This link has no channelToken: open it from the app') }
  const request = context.request(channelToken)
  if (!request) return unknownRequest()
  if (request.state === 'completed') return { status: 409, html: Pages.answered() }
  return { html: Pages.request({ channelToken, domain: request.signatureParams.domain, siweUri: request.signatureParams.siweUri }) }
}

async function approve(context: Context, req: IncomingMessage): Promise<Page> {
  // A form of this page only: another site's page must not sign in a test user for the person.
  const origin = req.headers.origin
  if ((origin !== undefined && origin !== context.origin) || req.headers['sec-fetch-site'] === 'cross-site')
    throw new HttpError(403, 'Approve from the test Farcaster client page itself')
  const form = new URLSearchParams(await readText(req, formBytes))
  const channelToken = form.get('channelToken') ?? ''
  const user = findUser(Number(form.get('fid')))
  if (!user) throw new HttpError(400, `No test user with fid ${form.get('fid') ?? '(none)'}`)
  const request = context.request(channelToken)
  if (!request) return unknownRequest()
  if (request.state === 'completed') return { status: 409, html: Pages.answered() }

  const wallet = createWalletClient({ relay: context.origin, ethereum: noChain })
  const { message, signature } = await sign(wallet, user, request)
  const result = await withTimeout(
    wallet.authenticate({
      authKey: context.authKey,
      channelToken,
      message,
      signature,
      authMethod: 'custody',
      fid: user.fid,
      username: user.name,
      bio: user.bio,
      displayName: user.displayName,
      pfpUrl: pfpUrl(context.origin, user.fid),
    }),
  )
  if (result.isError) throw new HttpError(502, `The relay did not answer: ${result.error?.message ?? 'unknown error'}`)
  const status = result.response.status
  if (status === 201) return { html: Pages.signedIn(user, request.signatureParams.domain) }
  // Expired, or read as completed, between the page's check and the relay's.
  if (status === 401) return unknownRequest()
  if (status === 409) return { status: 409, html: Pages.answered() }
  throw new HttpError(502, `The relay refused the sign-in (${status}): ${String((result.data as { error?: unknown }).error)}`)
}

/** The SIWF message for the channel's parameters, signed by the user's custody key, as the Farcaster app does. */
async function sign(wallet: WalletClient, user: User, request: Request): Promise<{ message: string; signature: Hex }> {
  const params = request.signatureParams
  const account = privateKeyToAccount(user.privateKey)
  let built: ReturnType<typeof wallet.buildSignInMessage>
  try {
    built = wallet.buildSignInMessage({
      address: account.address,
      fid: user.fid,
      uri: params.siweUri,
      domain: params.domain,
      nonce: request.nonce,
      ...(params.notBefore ? { notBefore: new Date(params.notBefore) } : {}),
      ...(params.expirationTime ? { expirationTime: new Date(params.expirationTime) } : {}),
      ...(params.requestId ? { requestId: params.requestId } : {}),
    })
  } catch (error) {
    // viem's createSiweMessage throws on a field EIP-4361 refuses (the relay checked them at creation).
    throw new HttpError(400, `This sign-in request cannot be signed: ${(error as Error).message}`)
  }
  if (built.isError) throw new HttpError(400, `This sign-in request cannot be signed: ${built.error?.message ?? 'invalid message'}`)
  return { message: built.message, signature: await account.signMessage({ message: built.message }) }
}

/** The test client builds and relays messages only: it never reads the chain, so its connector refuses to. */
const refuse = () => Promise.reject(new Error('The test Farcaster client reads no chain'))
const noChain: CreateClientArgs['ethereum'] = {
  getFid: refuse,
  isValidAuthAddress: refuse,
  publicClient: createPublicClient({ transport: custom({ request: refuse }) }),
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(504, 'The relay did not answer in time')), authenticateTimeoutMs)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** A small avatar in the user's colour with their initial. */
function sendPfp(res: ServerResponse, fid: number) {
  const user = findUser(fid)
  if (!user) return sendPage(res, 404, Pages.error('Not found', `No test user with fid ${fid}`))
  const hue = (fid * 137) % 360
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="hsl(${hue} 60% 45%)"/><text x="48" y="62" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">${user.name[0]!.toUpperCase()}</text></svg>`
  res.writeHead(200, { ...securityHeaders, 'content-type': 'image/svg+xml', 'content-security-policy': "default-src 'none'" }).end(svg)
}

function sendPage(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(html)
}

const style = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f0fb;color:#18181b}
main{max-width:26rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.35rem;margin:0 0 .5rem}
form{margin:1rem 0}
button{display:block;width:100%;padding:.6rem;margin:.4rem 0;font:inherit;border:1px solid #a1a1aa;border-radius:8px;background:#fff;cursor:pointer}
button.primary{background:#7c3aed;color:#fff;border-color:#7c3aed}
dt{color:#52525b;font-size:.9rem}dd{margin:0 0 .5rem;overflow-wrap:anywhere}
[role=alert]{color:#b91c1c}
`

/** Only the page's own style; its forms post to this origin only. */
const csp = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Test Farcaster client</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`

/** The pages: one h1 each, real buttons, everything echoed escaped. */
const Pages = {
  request({ channelToken, domain, siweUri }: { channelToken: string; domain: string; siweUri: string }) {
    const buttons = users
      .map((user) => `<button class="primary" type="submit" name="fid" value="${user.fid}">Sign in as @${escape(user.name)}</button>`)
      .join('\n')
    return layout(
      'Sign in with Farcaster',
      `<h1>Sign in with Farcaster</h1>
<p>An app asks you to sign in with your Farcaster account.</p>
<dl>
<dt>Domain</dt><dd>${escape(domain)}</dd>
<dt>From</dt><dd>${escape(siweUri)}</dd>
</dl>
<form method="post" action="/client/approve" aria-label="Test users">
<input type="hidden" name="channelToken" value="${escape(channelToken)}">
${buttons}
</form>
<form method="get" action="/client/cancelled">
<button type="submit">Cancel</button>
</form>`,
    )
  },
  signedIn(user: User, domain: string) {
    return layout('Signed in', `<h1>Signed in — you can go back to the app</h1>\n<p>@${escape(user.name)} signed in to ${escape(domain)}.</p>`)
  },
  cancelled() {
    return layout('Cancelled', '<h1>Cancelled</h1>\n<p>Nothing was signed. The app is not told: its request expires on its own.</p>')
  },
  answered() {
    return layout('Already answered', '<h1>This sign-in request was already answered</h1>\n<p>Start again from the app.</p>')
  },
  unknown() {
    return layout('Request expired', '<h1>This sign-in request expired or is not known</h1>\n<p>Start again from the app.</p>')
  },
  error(title: string, message: string) {
    return layout(title, `<h1>${escape(title)}</h1>\n<p role="alert">${escape(message)}</p>`)
  },
}
