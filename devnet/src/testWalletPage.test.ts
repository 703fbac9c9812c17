/**
 * The test wallet page against the real SDKs: a dapp on @walletconnect/universal-provider shows a URI,
 * the test posts it to the page's API as a person would paste it, and the wallet behind the page pairs
 * over the devnet relay.
 */
import { request } from 'node:http'
import { toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as BitcoinKeys from './bitcoin/keys.js'
import * as SolanaKeys from './solana/keys.js'
import * as TestWalletPage from './testWalletPage.js'
import * as TestDapp from './testDapp.js'

// Ports apart from the running stack's and the other WalletConnect tests'.
const chains = [
  { id: 31337, port: 18821, rpcUrl: 'http://127.0.0.1:18821' },
  { id: 31338, port: 18822, rpcUrl: 'http://127.0.0.1:18822' },
]

// Each dapp below builds its own Core, as separate pages would: useDevnet sets DISABLE_GLOBAL_CORE for that.
const devnet = TestDapp.useDevnet(chains)
let page: TestWalletPage.start.ReturnType
type Provider = TestDapp.Provider

async function dapp(prefix: string) {
  const provider = await TestDapp.create({ relayUrl: devnet.relay.url, name: 'Doorway page dapp', customStoragePrefix: prefix })
  devnet.providers.push(provider)
  return provider
}

/** connect() on the dapp; resolves the URI it shows, and its outcome without ever rejecting unhandled. */
function connect(provider: Provider) {
  const uri = new Promise<string>((resolve) => provider.once('display_uri', resolve))
  const outcome = provider
    .connect({ optionalNamespaces: TestDapp.namespaces(chains, ['personal_sign', 'eth_sendTransaction']) })
    .then(
      (session) => ({ session }),
      (error: Error) => ({ error }),
    )
  return { uri, outcome }
}

const { event } = TestDapp

async function post(path: string, body: unknown, init: RequestInit = {}) {
  const res = await fetch(new URL(path, page.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

const state = async () => (await (await fetch(new URL('/state', page.url))).json()) as TestWalletPage.State

// After useDevnet's hooks: the page starts once the relay is up, and stops after the dapps close and
// before the relay does.
beforeAll(async () => {
  page = await TestWalletPage.start({ port: 0, relayUrl: devnet.relay.url, chains })
}, 30_000)

afterAll(async () => {
  await devnet.closeProviders()
  await page?.stop()
})

describe('start', () => {
  test('behavior: GET / is the page with the labelled URI field, under a CSP of hashes and self', async () => {
    const res = await fetch(page.url)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/)
    expect(csp).toContain("default-src 'self'")
    expect(csp).not.toMatch(/https?:|unsafe-inline|\*/)
    const html = await res.text()
    expect(html).toContain('<title>Doorway test wallet (WalletConnect)</title>')
    expect(html).toContain('<label for="uri">WalletConnect URI</label>')
    expect(html).toContain('<textarea id="uri"')
    expect(html).toContain('role="status"')
    expect(html).toContain('Switch to chain 31337')
    expect(html).toContain('Switch to chain 31338')
  })

  test('behavior: GET /state before any action reports a wallet not yet started', async () => {
    expect(await state()).toMatchObject({ started: false, address: null, chains: [31337, 31338], sessions: [] })
  })

  test('behavior: without other namespaces the page has no row for their accounts', async () => {
    expect(await (await fetch(page.url)).text()).not.toContain('id="accounts"')
    expect((await state()).accounts).toEqual([])
  })

  test('behavior: with solana, bitcoin and polkadot on, the wallet it starts lists those accounts', async () => {
    // Nothing here sends, so the chains' URLs are never called.
    const other = await TestWalletPage.start({
      port: 0,
      relayUrl: devnet.relay.url,
      chains,
      solana: { rpcUrl: 'http://127.0.0.1:9', chainId: 'solana:4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ' },
      bitcoin: { esploraUrl: 'http://127.0.0.1:9', chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' },
      polkadot: { chainId: 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e' },
    })
    try {
      expect(await (await fetch(other.url)).text()).toContain('<dt>Other accounts</dt><dd><ul id="accounts"></ul></dd>')
      // Any action starts the wallet; disconnecting with no session changes nothing else.
      const res = await fetch(new URL('/disconnect', other.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      const { accounts } = (await res.json()) as TestWalletPage.State
      expect(accounts).toEqual([
        { namespace: 'solana', chainId: 'solana:4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ', address: SolanaKeys.address(0) },
        { namespace: 'bip122', chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', address: BitcoinKeys.payment(0).address },
        { namespace: 'polkadot', chainId: 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e', address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' },
      ])
    } finally {
      await other.stop()
    }
  })

  test('error: a host other than loopback is refused', async () => {
    await expect(TestWalletPage.start({ port: 0, relayUrl: devnet.relay.url, chains, host: '0.0.0.0' })).rejects.toThrow(/loopback/)
  })
})

// These share one wallet and run in order: pair, switch, disconnect, reject.
describe('API', () => {
  let provider: Provider
  let pairedUri: string

  test('behavior: POST /pair with the dapp URI approves, and the dapp gets the session /state lists', async () => {
    provider = await dapp('page-dapp')
    const { uri, outcome } = connect(provider)
    pairedUri = await uri
    const paired = await post('/pair', { uri: pairedUri, policy: 'approve' })
    expect(paired).toEqual({ status: 200, body: { outcome: 'approved' } })
    const { session } = (await outcome) as { session: { topic: string } }
    const now = await state()
    expect(now.started).toBe(true)
    expect(now.sessions).toEqual([{ topic: session.topic, peer: 'Doorway page dapp' }])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([now.address])
    // What the wallet answers shows in /state, newest first.
    const signature = await provider.request({ method: 'personal_sign', params: [toHex('hello'), now.address] })
    expect((await state()).requests[0]).toEqual({ method: 'personal_sign', chainId: 'eip155:31337', result: signature })
  })

  test('error: a link used once is refused with 409', async () => {
    expect(await post('/pair', { uri: pairedUri, policy: 'approve' })).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/used already/) },
    })
  })

  test('behavior: POST /chain reaches the dapp as chainChanged', async () => {
    const changed = event<string | number>(provider, 'chainChanged')
    const res = await post('/chain', { id: 31338 })
    expect(res.status).toBe(200)
    expect(res.body.chainId).toBe(31338)
    expect(Number(await changed)).toBe(31338)
  })

  test('behavior: POST /account reaches the dapp as accountsChanged', async () => {
    const changed = event<string[]>(provider, 'accountsChanged')
    const res = await post('/account', { index: 1 })
    expect(res.body).toMatchObject({ account: 1 })
    expect(await changed).toEqual([res.body.address])
  })

  test('behavior: POST /disconnect ends the dapp session', async () => {
    const disconnected = event<{ code: number }>(provider, 'disconnect')
    const res = await post('/disconnect', {})
    expect(res.status).toBe(200)
    expect(await disconnected).toMatchObject({ code: 6000 })
    expect((await state()).sessions).toEqual([])
  })

  test('behavior: the reject policy rejects the dapp connect', async () => {
    const rejecting = await dapp('page-dapp-rejected')
    const { uri, outcome } = connect(rejecting)
    expect(await post('/pair', { uri: await uri, policy: 'reject' })).toEqual({ status: 200, body: { outcome: 'rejected' } })
    const { error } = (await outcome) as { error?: Error }
    expect(error?.message).toMatch(/rejected/i)
  })
})

describe('API input', () => {
  const uri = `wc:${'a'.repeat(64)}@2?relay-protocol=irn&symKey=${'b'.repeat(64)}`
  test.each([
    ['no uri', '/pair', { policy: 'approve' }, /uri must be the WalletConnect link/],
    ['a uri that is not wc:', '/pair', { uri: 'https://example.com', policy: 'approve' }, /starts with wc:/],
    ['a uri of 2 KB', '/pair', { uri: `wc:${'x'.repeat(2048)}`, policy: 'approve' }, /shorter than 2 KB/],
    ['a malformed wc: uri', '/pair', { uri: 'wc:not-a-pairing', policy: 'approve' }, /not a WalletConnect v2 pairing link/],
    ['an expired uri', '/pair', { uri: `${uri}&expiryTimestamp=1`, policy: 'approve' }, /expired/],
    ['an unknown policy', '/pair', { uri, policy: 'maybe' }, /policy must be "approve" or "reject"/],
    ['a JSON array', '/pair', [], /JSON object/],
    ['broken JSON', '/pair', '{"uri":', /not valid JSON/],
    ['a chain the wallet lacks', '/chain', { id: 1 }, /one of the wallet's chains: 31337, 31338/],
    ['a chain id as a string', '/chain', { id: '31337' }, /one of the wallet's chains/],
    ['a negative account', '/account', { index: -1 }, /index must be an integer/],
    ['a fractional account', '/account', { index: 1.5 }, /index must be an integer/],
  ])('error: %s is a 400 with its reason', async (_, path, body, message) => {
    const res = await post(path, body)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(message)
  })

  test('error: a body over 4 KB is a 413', async () => {
    const res = await post('/pair', { uri: 'wc:', padding: 'x'.repeat(5000) })
    expect(res).toMatchObject({ status: 413, body: { error: expect.stringMatching(/under 4096 bytes/) } })
  })

  test('error: a body that is not application/json is a 415', async () => {
    const res = await post('/disconnect', '{}', { headers: { 'content-type': 'text/plain' } })
    expect(res.status).toBe(415)
  })

  test('error: unknown paths are a 404 and a wrong method a 405, both JSON', async () => {
    const missing = await fetch(new URL('/nope', page.url))
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'No such endpoint: /nope' }])
    const wrong = await fetch(new URL('/pair', page.url))
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST'])
  })

  test('error: a request naming another host (DNS rebinding) is a 403', async () => {
    const { port } = new URL(page.url)
    const status = await new Promise<number | undefined>((resolve, reject) =>
      request({ host: '127.0.0.1', port, path: '/state', headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
        .on('error', reject)
        .end(),
    )
    expect(status).toBe(403)
  })
})
