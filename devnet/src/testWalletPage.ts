/**
 * A dev page for the QR flow without a terminal: paste the `wc:` link the modal copies, and the test
 * wallet (testWallet.ts) pairs with it over the devnet relay. One page and a small JSON API on loopback.
 * Dev only, never shipped. `import * as TestWalletPage from './testWalletPage.js'` → `await TestWalletPage.start({ … })`.
 */
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Body, HttpError, isLoopbackHost, listenLoopback, readJson, securityHeaders, sendJson } from './httpServer.js'
import * as TestWallet from './testWallet.js'

export const limits = {
  /** Largest request body; every API body is a few dozen bytes. */
  bodyBytes: 4 * 1024,
  /** A WalletConnect v2 URI is ~200 bytes; anything near this is not one. */
  uriBytes: 2 * 1024,
  /** How many answered requests /state lists, newest first. */
  requests: 10,
  /** How long a pair waits for the dapp's proposal. */
  pairTimeoutMs: 30_000,
}

export function start(options: start.Options): Promise<start.ReturnType> {
  const { port, relayUrl, chains, host, solana, bitcoin, polkadot } = options
  const app = createApp(relayUrl, chains, { solana, bitcoin, polkadot })
  const handler = (req: IncomingMessage, res: ServerResponse) => void handle(app, req, res)
  return listenLoopback({ name: 'test wallet page', port, host, handle: handler, finish: app.stop }).then((served) => ({ ...served, url: `${served.url}/` }))
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; `url` says which. */
    port: number
    relayUrl: string
    /** The wallet's chains; the first is the one it starts on. */
    chains: readonly TestWallet.Chain[]
    /** A loopback address. Default 127.0.0.1. */
    host?: string
  } & Others
  type ReturnType = { url: string; stop(): Promise<void> }
}

/** The wallet's namespaces besides eip155, as TestWallet.create takes them: each on when given. */
type Others = Pick<TestWallet.create.Options, 'solana' | 'bitcoin' | 'polkadot'>

/** What GET /state answers. Until the first action the wallet is not started and has no account. */
export type State = {
  started: boolean
  address: string | null
  /** Index into the test mnemonic. */
  account: number
  chainId: number | null
  chains: number[]
  /** Its solana, bip122 and polkadot accounts (those it was started with), once started. */
  accounts: TestWallet.Account[]
  pairing: boolean
  sessions: { topic: string; peer: string }[]
  /** The last answered requests, newest first. */
  requests: TestWallet.Handled[]
}


type App = ReturnType<typeof createApp>

function createApp(relayUrl: string, chains: readonly TestWallet.Chain[], others: Others) {
  let wallet: Promise<TestWallet.TestWallet> | undefined
  let started: TestWallet.TestWallet | undefined
  let account = 0
  let pairing = false
  // Every pairing topic handed to the wallet: the sdk refuses an active one again, so repeats are refused
  // here with a clear 409 before they reach it (TestWallet.pair clears its proposal timer when pairing fails).
  const used = new Set<string>()

  // Lazily, and once: a failed start is forgotten so the next action tries again (the relay may be up now).
  function ready(): Promise<TestWallet.TestWallet> {
    wallet ??= TestWallet.create({ relayUrl, chains, storagePrefix: 'doorway-test-wallet-page', ...others }).then(
      (created) => (started = created),
      (error: Error) => {
        wallet = undefined
        throw new HttpError(503, `The test wallet could not start on ${relayUrl}: ${error.message}`)
      },
    )
    return wallet
  }

  function state(): State {
    return {
      started: started !== undefined,
      address: started?.address() ?? null,
      account,
      chainId: started?.chainId() ?? null,
      chains: chains.map((c) => c.id),
      accounts: started?.otherAccounts() ?? [],
      pairing,
      sessions: (started?.sessions() ?? []).map((s) => ({ topic: s.topic, peer: s.peer.metadata.name || 'unnamed dapp' })),
      requests: (started?.requests() ?? []).slice(-limits.requests).reverse(),
    }
  }

  async function pair(body: Body) {
    const { uri, policy } = body
    const topic = pairingTopic(uri)
    if (policy !== 'approve' && policy !== 'reject') throw new HttpError(400, 'policy must be "approve" or "reject"')
    if (used.has(topic)) throw new HttpError(409, 'This link was used already: open the WalletConnect view again for a new one')
    // TestWallet.pair settles every waiting pair with the next proposal: one at a time keeps them apart.
    if (pairing) throw new HttpError(409, 'A pairing is in progress: wait for it to finish')
    pairing = true
    try {
      const w = await ready()
      used.add(topic)
      w.onProposal(policy)
      const session = await w.pair(uri as string, { timeoutMs: limits.pairTimeoutMs }).catch((error: Error) => {
        throw new HttpError(502, `Pairing failed: ${error.message}`)
      })
      return { outcome: session ? 'approved' : 'rejected' }
    } finally {
      pairing = false
    }
  }

  async function chain(body: Body) {
    const { id } = body
    if (!chains.some((c) => c.id === id))
      throw new HttpError(400, `id must be one of the wallet's chains: ${chains.map((c) => c.id).join(', ')}`)
    await (await ready()).switchChain(id as number)
    return state()
  }

  async function changeAccount(body: Body) {
    const { index } = body
    // BIP-32 non-hardened indexes: what mnemonicToAccount's addressIndex accepts.
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= 2 ** 31)
      throw new HttpError(400, 'index must be an integer from 0 to 2147483647')
    await (await ready()).changeAccount(index)
    account = index
    return state()
  }

  async function disconnect() {
    await (await ready()).disconnect()
    return state()
  }

  async function stop() {
    const w = await wallet?.catch(() => undefined)
    await w?.stop()
  }

  const hasOthers = Object.values(others).some((o) => o !== undefined)
  return { page: html(chains.map((c) => c.id), hasOthers), state, pair, chain, changeAccount, disconnect, stop }
}

type Route = { GET?: (app: App) => unknown; POST?: (app: App, body: Body) => Promise<unknown> }

const routes: Record<string, Route> = {
  '/state': { GET: (app) => app.state() },
  '/pair': { POST: (app, body) => app.pair(body) },
  '/chain': { POST: (app, body) => app.chain(body) },
  '/account': { POST: (app, body) => app.changeAccount(body) },
  '/disconnect': { POST: (app) => app.disconnect() },
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse) {
  try {
    // DNS rebinding: a page on another name that resolves to loopback must not drive the wallet.
    if (!isLoopbackHost(req.headers.host)) throw new HttpError(403, 'Only loopback host names may use the test wallet page')
    const path = new URL(req.url ?? '/', 'http://loopback').pathname
    if (path === '/' && req.method === 'GET') return sendPage(res, app.page)
    const route = routes[path]
    if (!route) throw new HttpError(404, `No such endpoint: ${path}`)
    if (req.method === 'GET' && route.GET) return sendJson(res, 200, route.GET(app))
    if (req.method === 'POST' && route.POST) return sendJson(res, 200, await route.POST(app, await readJson(req, limits.bodyBytes)))
    res.setHeader('allow', route.GET ? 'GET' : 'POST')
    throw new HttpError(405, `${path} takes ${route.GET ? 'GET' : 'POST'}`)
  } catch (error) {
    if (res.headersSent) return void res.destroy()
    const status = error instanceof HttpError ? error.status : 500
    // The rest of an oversized body is not read: close the connection rather than parse it as a request.
    if (status === 413) res.setHeader('connection', 'close')
    sendJson(res, status, { error: (error as Error).message })
  }
}

/**
 * The pairing topic of a WalletConnect v2 URI (`wc:<topic>@2?relay-protocol=irn&symKey=<key>…`), checked
 * here with the messages a person pasting it needs: the sdk's own errors name none of this.
 */
function pairingTopic(uri: unknown): string {
  if (typeof uri !== 'string' || !uri.startsWith('wc:'))
    throw new HttpError(400, 'uri must be the WalletConnect link the modal copies: it starts with wc:')
  if (Buffer.byteLength(uri) >= limits.uriBytes) throw new HttpError(400, 'uri must be shorter than 2 KB')
  const [, topic, query = ''] = /^wc:([0-9a-f]{64})@2\?(.*)$/i.exec(uri) ?? []
  const params = new URLSearchParams(query)
  if (!topic || !params.get('relay-protocol') || !/^[0-9a-f]{64}$/i.test(params.get('symKey') ?? ''))
    throw new HttpError(400, 'uri is not a WalletConnect v2 pairing link (wc:<topic>@2?relay-protocol=…&symKey=…)')
  const expiry = Number(params.get('expiryTimestamp') ?? Infinity)
  if (expiry * 1000 < Date.now()) throw new HttpError(400, 'This link has expired: open the WalletConnect view again for a new one')
  return topic.toLowerCase()
}


function sendPage(res: ServerResponse, body: string) {
  res.writeHead(200, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(body)
}

// The script and style are static (the script finds the chain buttons in the markup), so hashes pin
// them for the CSP: nothing else may run, load or frame the page.
const style = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f5f5f7; color: #111; }
main { max-width: 720px; margin: 0 auto; padding: 32px 16px; }
label { font-weight: 600; }
textarea { display: block; width: 100%; box-sizing: border-box; font: 13px ui-monospace, monospace; margin: 4px 0 12px; }
fieldset { border: 0; padding: 0; margin: 0 0 12px; display: flex; gap: 16px; }
legend { font-weight: 600; float: left; margin-right: 8px; }
fieldset label { font-weight: 400; }
button { font: inherit; padding: 8px 16px; border-radius: 12px; border: 0; background: #4c5fe6; color: #fff; cursor: pointer; margin: 0 8px 8px 0; }
button:focus-visible, textarea:focus-visible, input:focus-visible { outline: 3px solid #111; outline-offset: 2px; }
#status { min-height: 1.5em; font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font: 14px ui-monospace, monospace; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
ul, ol { font: 13px ui-monospace, monospace; padding-left: 24px; overflow-wrap: anywhere; }
`

// Plain browser JavaScript: every value from the API goes in through textContent, never as markup.
const script = `
const $ = (id) => document.getElementById(id)
let state
let busy = false

function say(text) { $('status').textContent = text }

async function call(method, path, body) {
  const init = method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}
  const res = await fetch(path, init)
  const data = await res.json().catch(() => ({}))
  if (!res.ok) throw new Error(data.error || 'HTTP ' + res.status)
  return data
}

function list(id, items, empty, text) {
  const el = $(id)
  el.replaceChildren(...(items.length ? items : [null]).map((item) => {
    const li = document.createElement('li')
    li.textContent = item === null ? empty : text(item)
    return li
  }))
}

function render(next) {
  state = next
  $('address').textContent = next.started ? next.address + ' (account ' + next.account + ')' : 'not started: pair or press a button below'
  $('chain').textContent = next.chainId ?? '—'
  if ($('accounts')) list('accounts', next.accounts, next.started ? 'none' : 'not started', (a) => a.namespace + ': ' + a.address + ' on ' + a.chainId)
  list('sessions', next.sessions, 'none', (s) => s.peer + ' · ' + s.topic.slice(0, 8) + '…')
  list('requests', next.requests, 'none yet', (r) =>
    r.method + ' on ' + r.chainId + ' → ' + (r.error ? 'error ' + r.error.code + ' ' + r.error.message : JSON.stringify(r.result)))
}

let offline = false
async function refresh() {
  try {
    render(await call('GET', '/state'))
    if (offline) say('Reconnected to the test wallet page.')
    offline = false
  } catch {
    if (!offline) say('The test wallet page is not answering: is the local stack running?')
    offline = true
  }
}

async function act(pending, run, done) {
  if (busy) return say('Still working on the last action…')
  busy = true
  say(pending)
  try {
    say(done(await run()))
  } catch (error) {
    say('Failed: ' + error.message)
  } finally {
    busy = false
    refresh()
  }
}

$('pair-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const uri = $('uri').value.trim()
  const policy = new FormData(event.target).get('policy')
  act('Pairing…', () => call('POST', '/pair', { uri, policy }), (r) => {
    if (r.outcome === 'approved') $('uri').value = ''
    return r.outcome === 'approved' ? 'Approved: the dapp is connected.' : 'Rejected the proposal.'
  })
})
for (const button of document.querySelectorAll('[data-chain]')) {
  const id = Number(button.dataset.chain)
  button.addEventListener('click', () => act('Switching…', () => call('POST', '/chain', { id }), () => 'Switched to chain ' + id + '.'))
}
$('next-account').addEventListener('click', () => {
  const index = state && state.started ? state.account + 1 : 1
  act('Changing account…', () => call('POST', '/account', { index }), (s) => 'Now on account ' + index + ': ' + s.address + '.')
})
$('disconnect').addEventListener('click', () =>
  act('Disconnecting…', () => call('POST', '/disconnect'), () => 'Disconnected every session.'))

refresh()
setInterval(refresh, 1000)
`

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

const csp = [
  "default-src 'self'",
  `script-src ${sha256(script)}`,
  `style-src ${sha256(style)}`,
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The page's markup: only the chain ids come from the options, and they are numbers. The other
 * namespaces' accounts, when the wallet has some, are filled in from /state.
 */
function html(chainIds: readonly number[], hasOthers: boolean): string {
  const switches = chainIds.map((id) => `<button type="button" data-chain="${id}">Switch to chain ${id}</button>`).join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Doorway test wallet (WalletConnect)</title>
<style>${style}</style>
</head>
<body>
<main>
<h1>Doorway test wallet (WalletConnect)</h1>
<p>Dev only. Copy the link from the modal's WalletConnect view, paste it here and press Pair. The wallet
answers over the local relay with the anvil test accounts.</p>
<form id="pair-form">
<label for="uri">WalletConnect URI</label>
<textarea id="uri" name="uri" rows="3" required spellcheck="false" autocomplete="off" placeholder="wc:…"></textarea>
<fieldset>
<legend>Proposal</legend>
<label><input type="radio" name="policy" value="approve" checked /> Approve</label>
<label><input type="radio" name="policy" value="reject" /> Reject</label>
</fieldset>
<button type="submit">Pair</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<section aria-labelledby="wallet-title">
<h2 id="wallet-title">Wallet</h2>
<dl>
<dt>Account</dt><dd id="address">—</dd>
<dt>Chain</dt><dd id="chain">—</dd>
${hasOthers ? '<dt>Other accounts</dt><dd><ul id="accounts"></ul></dd>' : ''}
</dl>
${switches}
<button type="button" id="next-account">Next account</button>
<button type="button" id="disconnect">Disconnect</button>
</section>
<section aria-labelledby="sessions-title">
<h2 id="sessions-title">Active sessions</h2>
<ul id="sessions"></ul>
</section>
<section aria-labelledby="requests-title">
<h2 id="requests-title">Last requests answered</h2>
<ol id="requests"></ol>
</section>
</main>
<script>${script}</script>
</body>
</html>
`
}
