/**
 * The devnet's test Farcaster client (docs/embedded-wallet.md §5): a page that plays the Farcaster app for
 * the connect relay stand-in (relay.ts). The relay's connect URI opens it: `/client?channelToken=…` shows
 * which domain asks, one button per test user, a form to sign in as a new account, and Cancel. Approving
 * does what the Farcaster app does: it builds the Sign In With Farcaster message with auth-client, signs
 * it with the user's custody key, and posts it to the relay's `POST /v1/channel/authenticate` over HTTP
 * with the relay's auth key.
 * Rendered on the server, no script. Dev only, never shipped.
 * `import * as Client from './client.js'`; the relay routes `Client.owns(path)` here.
 */
import { createHash, randomInt } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type CreateClientArgs, type StatusAPIResponse, type WalletClient, createWalletClient } from '@farcaster/auth-client'
import { type Address, type Hex, createPublicClient, custom, http, keccak256, pad, stringToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { HttpError, readText, securityHeaders } from '../httpServer.js'
import { escape } from '../oidc/pages.js'
import * as Registry from './registry.js'

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

/**
 * A new account's custody key, keccak256 of a label and its fid: the key follows from the fid alone, so
 * a fid registered by an earlier run is still signed for by the same key.
 */
function newUser(name: string, fid: number): User {
  const privateKey = keccak256(stringToBytes(`doorway devnet farcaster custody fid ${fid}`))
  return { name, fid, displayName: name, bio: 'New test account of the Doorway devnet', custody: privateKeyToAccount(privateKey).address, privateKey }
}

/** A Farcaster username (fname): 1 to 16 lowercase letters, digits or hyphens, not starting with a hyphen. */
const usernamePattern = /^[a-z0-9][a-z0-9-]{0,15}$/

/**
 * New accounts' fids are random in this range, apart from the fixed users': a fid that signed in once is
 * linked to a wallet for good, and the secure-site's database outlives a restart of this page.
 */
export const newFids = { min: 10_000, max: 2 ** 31 }
/** New accounts kept at once (each a few hundred bytes): beyond, making one is 429. */
const maxNewAccounts = 10_000
/** Each JSON-RPC call to the chain. */
const chainTimeoutMs = 10_000

/** The users the page signs in as: the fixed test users and the new accounts made on it. */
export type Accounts = {
  find(fid: number): User | undefined
  /** Every account the page offers: the fixed users, then the new ones, oldest first (a person signing in again). */
  list(): User[]
  /** A new account named `name` with a fid no one used, its custody registered on the chain. */
  create(name: string): Promise<User>
}

/** The accounts of one relay, with the chain whose ID registry (registry.ts) names their fids. */
export function createAccounts(rpcUrl: string): Accounts {
  const created = new Map<number, User>()
  // Fids picked but not yet registered: two forms posted at once never get the same one.
  const picking = new Set<number>()
  const chain = createPublicClient({ transport: http(rpcUrl, { timeout: chainTimeoutMs, retryCount: 0 }) })
  const find = (fid: number) => users.find((user) => user.fid === fid) ?? created.get(fid)
  // The registry's slot for the custody address (registry.ts): set by a run before this one on a reused chain.
  const registered = async (user: User) =>
    BigInt((await chain.getStorageAt({ address: Registry.addresses.idRegistry, slot: pad(user.custody.toLowerCase() as Hex) })) ?? 0) !== 0n

  async function register(user: User): Promise<boolean> {
    try {
      if (await registered(user)) return false
      // Installs the registries again too: an anvil restarted under a running stack has lost them.
      await Registry.installRegistry(rpcUrl, [user])
      return true
    } catch (error) {
      throw new HttpError(502, `The chain did not answer: ${(error as Error).message.split('\n')[0]}`)
    }
  }

  return {
    find,
    list: () => [...users, ...created.values()],
    async create(name) {
      if (created.size >= maxNewAccounts) throw new HttpError(429, 'Too many new accounts: restart the devnet')
      // A collision in 2^31 fids is rare: a few draws always find a free one.
      for (let draw = 0; draw < 8; draw++) {
        const user = newUser(name, randomInt(newFids.min, newFids.max))
        if (find(user.fid) || picking.has(user.fid)) continue
        picking.add(user.fid)
        try {
          if (!(await register(user))) continue
          created.set(user.fid, user)
          return user
        } finally {
          picking.delete(user.fid)
        }
      }
      throw new HttpError(503, 'No unused fid was found: try again')
    },
  }
}

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
  /** Who may sign in: the relay also reads it, as the hub it stands in for. */
  accounts: Accounts
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
  const pfp = /^\/pfp\/(\d{1,10})\.svg$/.exec(url.pathname)
  if (pfp && req.method === 'GET') return sendPfp(res, context.accounts.find(Number(pfp[1])))
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
  '/client/new-account': { method: 'POST', handle: (context, req) => approveNewAccount(context, req) },
  // The relay has no reject: the app is not told, and its channel expires on its own.
  '/client/cancelled': { method: 'GET', handle: () => ({ html: Pages.cancelled() }) },
}

const unknownRequest = () => ({ status: 404, html: Pages.unknown() })

function show(context: Context, channelToken: string | null): Page {
  if (!channelToken) return { status: 400, html: Pages.error('No sign-in request', 'This link has no channelToken: open it from the app') }
  const request = context.request(channelToken)
  if (!request) return unknownRequest()
  if (request.state === 'completed') return { status: 409, html: Pages.answered() }
  return { html: requestPage(context.accounts, channelToken, request) }
}

const requestPage = (accounts: Accounts, channelToken: string, request: Request, newAccount?: NewAccountForm) =>
  Pages.request({ accounts: accounts.list(), channelToken, domain: request.signatureParams.domain, siweUri: request.signatureParams.siweUri, newAccount })

/** A form of this page only: another site's page must not sign in a test user for the person. */
async function readForm(context: Context, req: IncomingMessage): Promise<URLSearchParams> {
  // A browser says where a form came from in Sec-Fetch-Site; its Origin is "null" under this page's
  // no-referrer policy. Without the header (a script), the Origin it sent, if any, must be this one.
  const site = req.headers['sec-fetch-site']
  const origin = req.headers.origin
  if (site ? site !== 'same-origin' : origin !== undefined && origin !== context.origin) throw new HttpError(403, 'Approve from the test Farcaster client page itself')
  return new URLSearchParams(await readText(req, formBytes))
}

async function approve(context: Context, req: IncomingMessage): Promise<Page> {
  const form = await readForm(context, req)
  const channelToken = form.get('channelToken') ?? ''
  const user = context.accounts.find(Number(form.get('fid')))
  if (!user) throw new HttpError(400, `No test user with fid ${form.get('fid') ?? '(none)'}`)
  const request = context.request(channelToken)
  if (!request) return unknownRequest()
  if (request.state === 'completed') return { status: 409, html: Pages.answered() }
  return complete(context, channelToken, request, user)
}

/** Each e2e test signs in as its own new account: a fid that signed in once stays linked to its wallet. */
async function approveNewAccount(context: Context, req: IncomingMessage): Promise<Page> {
  const form = await readForm(context, req)
  const channelToken = form.get('channelToken') ?? ''
  const request = context.request(channelToken)
  if (!request) return unknownRequest()
  if (request.state === 'completed') return { status: 409, html: Pages.answered() }
  const username = form.get('username') ?? ''
  if (!usernamePattern.test(username)) {
    const error = 'A username is 1 to 16 lowercase letters, digits or hyphens, and starts with a letter or digit'
    return { status: 400, html: requestPage(context.accounts, channelToken, request, { username, error }) }
  }
  // Names need not be unique here: runs may type the same one, and each still gets its own fid.
  return complete(context, channelToken, request, await context.accounts.create(username))
}

/** Signs the channel's message as `user` and posts it to the relay, as the Farcaster app does. */
async function complete(context: Context, channelToken: string, request: Request, user: User): Promise<Page> {
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
function sendPfp(res: ServerResponse, user: User | undefined) {
  if (!user) return sendPage(res, 404, Pages.error('Not found', 'No test user has this fid'))
  const hue = (user.fid * 137) % 360
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
label{display:block;margin-top:.6rem}
input[type=text]{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:1px solid #a1a1aa;border-radius:8px}
.hint{color:#52525b;font-size:.9rem;margin:.25rem 0}
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

/** What the new account form shows again when its username was refused. */
type NewAccountForm = { username: string; error: string }

/** The pages: one h1 each, real buttons, a label for every field, everything echoed escaped. */
const Pages = {
  request({ accounts, channelToken, domain, siweUri, newAccount }: { accounts: readonly User[]; channelToken: string; domain: string; siweUri: string; newAccount?: NewAccountForm | undefined }) {
    // The fixed users by name; an account made here also by its fid (names need not be unique).
    const buttons = accounts
      .map((user) => `<button class="primary" type="submit" name="fid" value="${user.fid}">Sign in as @${escape(user.name)}${users.includes(user) ? '' : ` (fid ${user.fid})`}</button>`)
      .join('\n')
    const refused = newAccount ? ` aria-describedby="username-hint username-error" aria-invalid="true" value="${escape(newAccount.username)}"` : ' aria-describedby="username-hint"'
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
<form method="post" action="/client/new-account" aria-label="New account">
<input type="hidden" name="channelToken" value="${escape(channelToken)}">
<label for="username">Username</label>
<input id="username" name="username" type="text" required autocomplete="off" autocapitalize="none" spellcheck="false"${refused}>
<p id="username-hint" class="hint">Lowercase letters, digits and hyphens, up to 16. The account gets a fid no one has used.</p>
${newAccount ? `<p id="username-error" role="alert">${escape(newAccount.error)}</p>\n` : ''}<button class="primary" type="submit">Sign in as a new account</button>
</form>
<form method="get" action="/client/cancelled">
<button type="submit">Cancel</button>
</form>`,
    )
  },
  signedIn(user: User, domain: string) {
    return layout('Signed in', `<h1>Signed in — you can go back to the app</h1>\n<p>@${escape(user.name)} (fid ${user.fid}) signed in to ${escape(domain)}.</p>`)
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
