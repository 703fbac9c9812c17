import { request as httpRequest } from 'node:http'
import { createAppClient, createWalletClient, viemConnector } from '@farcaster/auth-client'
import { type Hex, keccak256, stringToBytes } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import * as Anvil from '../anvil.js'
import * as Tokens from '../tokens.js'
import * as Client from './client.js'
import * as Relay from './relay.js'
import * as Registry from './registry.js'

// A port apart from the running stack's (8545/8546) and from the other anvil tests'.
const chains = [{ id: 31337, port: 18796, rpcUrl: 'http://127.0.0.1:18796' }]
const rpcUrl = chains[0]!.rpcUrl
const authKey = 'devnet-farcaster-relay-test-key'
const [alice, bob] = Client.users as [Client.User, Client.User]
const siwf = { siweUri: 'http://127.0.0.1:5175/login', domain: '127.0.0.1:5175' }

let anvil: Anvil.start.ReturnType
let relay: Relay.start.ReturnType
let app: ReturnType<typeof createAppClient>

beforeAll(async () => {
  anvil = await Anvil.start({ chains })
  await Registry.installRegistry(anvil.chains[0]!.rpcUrl, Client.users)
  relay = await Relay.start({ port: 0, authKey, rpcUrl })
  app = createAppClient({ relay: relay.origin, ethereum: viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl }) })
})
afterAll(async () => {
  await relay?.stop()
  await anvil?.stop()
})
afterEach(() => {
  vi.useRealTimers()
})

async function createChannel(request: Partial<Parameters<typeof app.createChannel>[0]> = {}) {
  const created = await app.createChannel({ ...siwf, ...request })
  if (created.isError) throw created.error
  return { status: created.response.status, ...created.data }
}

/** A form's hidden fields, as a browser would submit them. */
function hiddenFields(form: string) {
  const fields = new URLSearchParams()
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.append(name!, value!)
  return fields
}

/** The page's test users form, as a browser would submit it with the button named `button`. */
function submission(html: string, button: string) {
  const form = /<form method="post" action="([^"]+)" aria-label="Test users">([\s\S]*?)<\/form>/.exec(html)
  if (!form) throw new Error('No test users form on the page')
  const fields = hiddenFields(form[2]!)
  const pressed = new RegExp(`<button[^>]* name="([^"]+)" value="([^"]*)">${button}</button>`).exec(form[2]!)
  if (!pressed) throw new Error(`No button ${button}`)
  fields.append(pressed[1]!, pressed[2]!)
  return { action: form[1]!, fields }
}

function post(path: string, fields: URLSearchParams, origin = relay.origin, site?: string) {
  return fetch(new URL(path, relay.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...(site && { 'sec-fetch-site': site }) },
    body: fields,
    redirect: 'manual',
  })
}

/** Opens the connect URI and presses "Sign in as @name". */
async function approve(url: string, name: string) {
  const page = await fetch(url)
  expect(page.status).toBe(200)
  const { action, fields } = submission(await page.text(), `Sign in as @${name}`)
  return post(action, fields)
}

/** The page's new account form, as a browser would submit it with `username` typed. */
function newAccountSubmission(html: string, username: string) {
  const form = /<form method="post" action="([^"]+)" aria-label="New account">([\s\S]*?)<\/form>/.exec(html)
  if (!form) throw new Error('No new account form on the page')
  const fields = hiddenFields(form[2]!)
  fields.append('username', username)
  return { action: form[1]!, fields }
}

/** Opens the connect URI, types `username` and presses "Sign in as a new account". */
async function signUp(url: string, username: string) {
  const page = await fetch(url)
  expect(page.status).toBe(200)
  const { action, fields } = newAccountSubmission(await page.text(), username)
  return post(action, fields)
}

function channelPost(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${relay.origin}/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

function statusOf(channelToken: string) {
  return fetch(`${relay.origin}/v1/channel/status`, { headers: { authorization: `Bearer ${channelToken}` } })
}

/** A SIWF message for `fid`, signed by `privateKey` (the Farcaster app's steps, for forged sign-ins). */
async function signed(privateKey: Hex, fid: number, nonce: string) {
  const account = privateKeyToAccount(privateKey)
  const wallet = createWalletClient({ relay: relay.origin, ethereum: viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl }) })
  const built = wallet.buildSignInMessage({ address: account.address, fid, uri: siwf.siweUri, domain: siwf.domain, nonce })
  if (built.isError) throw built.error
  return { message: built.message, signature: await account.signMessage({ message: built.message }) }
}

describe('users', () => {
  test('behavior: fixed custody keys, none of them an anvil dev account', () => {
    expect(Client.users.map(({ name, fid, custody }) => ({ name, fid, custody }))).toMatchInlineSnapshot(`
      [
        {
          "custody": "0x5Dd9B6826f89fF885Fa29D76600F3e541f928EDC",
          "fid": 1,
          "name": "alice",
        },
        {
          "custody": "0x871B8C96d8464BBa4332ac6a4323971EC887bd35",
          "fid": 2,
          "name": "bob",
        },
      ]
    `)
    const anvilAccounts = Array.from({ length: 20 }, (_, i) => mnemonicToAccount(Tokens.mnemonic, { addressIndex: i }).address)
    for (const user of Client.users) {
      expect(privateKeyToAccount(user.privateKey).address).toBe(user.custody)
      expect(anvilAccounts).not.toContain(user.custody)
    }
  })
})

describe('installRegistry', () => {
  test('behavior: idOf answers each custody address its fid, and 0 for any other address', async () => {
    const { getFid } = viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl })
    expect(await getFid(alice.custody)).toBe(1n)
    expect(await getFid(bob.custody)).toBe(2n)
    expect(await getFid(privateKeyToAccount(keccak256(stringToBytes('stranger'))).address)).toBe(0n)
  })

  test('behavior: the key registry knows no auth address', async () => {
    const { isValidAuthAddress } = viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl })
    expect(await isValidAuthAddress(alice.custody, 1n)).toBe(false)
  })
})

describe('POST /v1/channel', () => {
  test('behavior: answers the real relay’s fields, the connect URI also as connectUri', async () => {
    const res = await channelPost('channel', siwf)
    expect(res.status).toBe(201)
    const body = (await res.json()) as { url: string }
    expect(body).toEqual({ channelToken: expect.any(String), url: expect.any(String), connectUri: body.url, nonce: expect.any(String) })
  })

  test('behavior: answers a token, a connect URI to the test client, and a SIWE nonce', async () => {
    const { status, channelToken, url, nonce } = await createChannel()
    expect(status).toBe(201)
    expect(channelToken).toMatch(/^[0-9a-f]{32}$/)
    expect(url).toBe(`${relay.origin}/client?channelToken=${channelToken}`)
    expect(nonce).toMatch(/^[a-zA-Z0-9]{8,}$/)
    const parsed = createWalletClient({ relay: relay.origin, ethereum: viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl }) }).parseSignInURI({ uri: url })
    expect(parsed).toMatchObject({ isError: false, channelToken })
  })

  test('behavior: keeps the app’s own nonce and signature parameters', async () => {
    const expirationTime = new Date(Date.now() + 60_000).toISOString()
    const { channelToken, nonce } = await createChannel({ nonce: 'appnonce1234', expirationTime, requestId: 'req-1' })
    expect(nonce).toBe('appnonce1234')
    const status = await app.status({ channelToken })
    expect(status.response?.status).toBe(202)
    expect(status.data).toMatchObject({
      state: 'pending',
      nonce: 'appnonce1234',
      signatureParams: { ...siwf, nonce: 'appnonce1234', expirationTime, requestId: 'req-1' },
      acceptAuthAddress: false,
    })
  })

  test.each([
    ['no siweUri', { domain: siwf.domain }, /siweUri/],
    ['a siweUri that is not http(s)', { ...siwf, siweUri: 'ftp://app.example/login' }, /siweUri/],
    ['a siweUri that is not a URL', { ...siwf, siweUri: 'not a url' }, /siweUri/],
    ['a siweUri too long', { ...siwf, siweUri: `https://app.example/${'a'.repeat(3_000)}` }, /siweUri/],
    ['a domain with a path', { ...siwf, domain: 'app.example/login' }, /domain/],
    ['a domain that is a number', { ...siwf, domain: 5 }, /domain/],
    ['a nonce too short', { ...siwf, nonce: 'short' }, /nonce/],
    ['a nonce with symbols', { ...siwf, nonce: 'nonce-with-dash' }, /nonce/],
    ['a notBefore that is not a date-time', { ...siwf, notBefore: 'tomorrow' }, /notBefore/],
    ['an expirationTime without a zone', { ...siwf, expirationTime: '2030-01-01T00:00:00' }, /expirationTime/],
    ['an acceptAuthAddress that is not a boolean', { ...siwf, acceptAuthAddress: 'yes' }, /acceptAuthAddress/],
    ['a JSON array', [siwf], /object/],
    ['a body that is not JSON', '{"siweUri":', /JSON/],
  ])('error: %s is 400', async (_name, body, message) => {
    const res = await channelPost('channel', body)
    expect(res.status).toBe(400)
    expect((await res.json()) as { error: string }).toEqual({ error: expect.stringMatching(message) })
  })

  test('error: a body that is not JSON-typed is 415, one too large 413', async () => {
    const form = await fetch(`${relay.origin}/v1/channel`, { method: 'POST', body: new URLSearchParams(siwf) })
    expect(form.status).toBe(415)
    const large = await channelPost('channel', { ...siwf, requestId: 'x'.repeat(Relay.limits.bodyBytes) })
    expect(large.status).toBe(413)
  })

  test('error: beyond the live channel limit, creating one is 429', async () => {
    const small = await Relay.start({ port: 0, authKey, rpcUrl })
    try {
      const create = () => fetch(`${small.origin}/v1/channel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(siwf) })
      for (let made = 0; made < Relay.limits.channels; made += 100) {
        const batch = await Promise.all(Array.from({ length: 100 }, create))
        expect(batch.map((res) => res.status)).toEqual(Array(100).fill(201))
      }
      expect((await create()).status).toBe(429)
    } finally {
      await small.stop()
    }
  })
})

describe('GET /v1/channel/status', () => {
  test('behavior: 202 pending with the channel’s nonce, url and request metadata', async () => {
    const { channelToken, url, nonce } = await createChannel()
    const res = await statusOf(channelToken)
    expect(res.status).toBe(202)
    expect(await res.json()).toEqual({
      state: 'pending',
      nonce,
      url,
      signatureParams: { ...siwf, nonce },
      metadata: { ip: '127.0.0.1', userAgent: expect.any(String) },
      acceptAuthAddress: false,
    })
  })

  test.each([
    ['no Authorization', {}],
    ['an unknown token', { authorization: `Bearer ${'0'.repeat(32)}` }],
    ['a scheme other than Bearer', { authorization: 'Basic abc' }],
  ])('error: %s is 401', async (_name, headers) => {
    const res = await fetch(`${relay.origin}/v1/channel/status`, { headers })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: 'Unauthorized' })
  })

  test('behavior: a channel past its lifetime is 401, and its page says it expired', async () => {
    const { channelToken, url } = await createChannel()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + Relay.defaultChannelTtlMs)
    expect((await statusOf(channelToken)).status).toBe(401)
    const page = await fetch(url)
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('<h1>This sign-in request expired or is not known</h1>')
  })

  test('param: channelTtlMs sets the lifetime', async () => {
    const short = await Relay.start({ port: 0, authKey, rpcUrl, channelTtlMs: 1_000 })
    try {
      const client = createAppClient({ relay: short.origin, ethereum: viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl }) })
      // The clock stands still from the channel's creation: only the times set here pass.
      vi.useFakeTimers({ toFake: ['Date'] })
      const created = await client.createChannel(siwf)
      if (created.isError) throw created.error
      const { channelToken } = created.data
      vi.setSystemTime(Date.now() + 999)
      expect((await client.status({ channelToken })).response?.status).toBe(202)
      vi.setSystemTime(Date.now() + 1)
      expect((await client.status({ channelToken })).response?.status).toBe(401)
    } finally {
      await short.stop()
    }
  })
})

describe('the test Farcaster client', () => {
  test('behavior: signing in as @alice completes the channel the app watches, and the app verifies it on the chain', async () => {
    const { channelToken, url, nonce } = await createChannel()
    const watching = app.watchStatus({ channelToken, interval: 50, timeout: 10_000 })
    const approved = await approve(url, 'alice')
    expect(approved.status).toBe(200)
    expect(await approved.text()).toContain('<h1>Signed in — you can go back to the app</h1>')

    const status = await watching
    if (status.isError) throw status.error
    expect(status.response.status).toBe(200)
    expect(status.data).toMatchObject({
      state: 'completed',
      nonce,
      url,
      authMethod: 'custody',
      fid: 1,
      username: 'alice',
      displayName: 'Alice Farcaster',
      bio: alice.bio,
      pfpUrl: `${relay.origin}/pfp/1.svg`,
      verifications: [],
      custody: alice.custody,
      signatureParams: { ...siwf, nonce },
    })

    const verified = await app.verifySignInMessage({ nonce, domain: siwf.domain, message: status.data.message!, signature: status.data.signature! })
    if (verified.isError) throw verified.error
    expect(verified).toMatchObject({ success: true, fid: 1, authMethod: 'custody', data: { address: alice.custody, nonce, domain: siwf.domain, uri: siwf.siweUri } })
  })

  test('behavior: the completed status is answered once, then the channel is closed', async () => {
    const { channelToken, url } = await createChannel()
    await approve(url, 'bob')
    const first = await statusOf(channelToken)
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ state: 'completed', fid: 2, custody: bob.custody })
    expect((await statusOf(channelToken)).status).toBe(401)
    expect((await fetch(url)).status).toBe(404)
  })

  test('behavior: the page names the domain and URI asking, escaped, with a button per test user, the new account form and Cancel', async () => {
    const siweUri = "https://app.example/login?q='x'&next=/"
    const { url } = await createChannel({ siweUri, domain: 'app.example' })
    const res = await fetch(url)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await res.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/<title>[^<]+<\/title>/)
    expect(html).toContain('<h1>Sign in with Farcaster</h1>')
    expect(html).toContain('<dd>app.example</dd>')
    expect(html).toContain('<dd>https://app.example/login?q=&#39;x&#39;&amp;next=/</dd>')
    expect([...html.matchAll(/<button[^>]*>([^<]+)<\/button>/g)].map((m) => m[1])).toEqual([
      'Sign in as @alice',
      'Sign in as @bob',
      'Sign in as a new account',
      'Cancel',
    ])
  })

  test('behavior: Cancel only says so; the channel stays pending', async () => {
    const { channelToken, url } = await createChannel()
    const page = await (await fetch(url)).text()
    expect(page).toContain('<form method="get" action="/client/cancelled">')
    const cancelled = await fetch(`${relay.origin}/client/cancelled`)
    expect(cancelled.status).toBe(200)
    expect(await cancelled.text()).toContain('<h1>Cancelled</h1>')
    expect((await statusOf(channelToken)).status).toBe(202)
  })

  test('error: approving a channel already approved is 409', async () => {
    const { channelToken, url } = await createChannel()
    expect((await approve(url, 'alice')).status).toBe(200)
    const again = await post('/client/approve', new URLSearchParams({ channelToken, fid: '2' }))
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('already answered')
    expect(await (await statusOf(channelToken)).json()).toMatchObject({ fid: 1 })
  })

  test('error: a form posted from another origin is 403 and signs nothing', async () => {
    const { channelToken } = await createChannel()
    const res = await post('/client/approve', new URLSearchParams({ channelToken, fid: '1' }), 'https://evil.example')
    expect(res.status).toBe(403)
    expect((await statusOf(channelToken)).status).toBe(202)
  })

  test('behavior: a browser posts the page\'s form with Origin "null" (the page is no-referrer) and says same-origin: accepted; cross-site: 403', async () => {
    const { channelToken } = await createChannel()
    expect((await post('/client/approve', new URLSearchParams({ channelToken, fid: '1' }), 'null', 'cross-site')).status).toBe(403)
    expect((await statusOf(channelToken)).status).toBe(202)
    expect((await post('/client/approve', new URLSearchParams({ channelToken, fid: '1' }), 'null', 'same-origin')).status).toBe(200)
  })

  test.each([
    ['an unknown fid', (token: string) => ({ channelToken: token, fid: '99' }), 400, /No test user with fid 99/],
    ['an unknown channel', () => ({ channelToken: 'f'.repeat(32), fid: '1' }), 404, /expired or is not known/],
  ])('error: approving %s', async (_name, fields, status, text) => {
    const { channelToken } = await createChannel()
    const res = await post('/client/approve', new URLSearchParams(fields(channelToken)))
    expect(res.status).toBe(status)
    expect(await res.text()).toMatch(text)
  })

  test('error: a link without channelToken is 400, an unknown token 404', async () => {
    expect((await fetch(`${relay.origin}/client`)).status).toBe(400)
    const unknown = await fetch(`${relay.origin}/client?channelToken=${'a'.repeat(32)}`)
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('This sign-in request expired or is not known')
  })

  test('behavior: serves each test user’s picture, and 404 for others', async () => {
    const pfp = await fetch(`${relay.origin}/pfp/1.svg`)
    expect(pfp.status).toBe(200)
    expect(pfp.headers.get('content-type')).toBe('image/svg+xml')
    expect(await pfp.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect((await fetch(`${relay.origin}/pfp/9.svg`)).status).toBe(404)
  })
})

describe('the test Farcaster client: a new account', () => {
  /** Signs in as a new account named `username` and answers what the app reads. */
  async function signedUp(username: string) {
    const { channelToken, url } = await createChannel()
    expect((await signUp(url, username)).status).toBe(200)
    const status = await app.status({ channelToken })
    if (status.isError) throw status.error
    return status.data
  }

  test('behavior: the page has a field named exactly "Username" and a button to sign in as a new account', async () => {
    const { url } = await createChannel()
    const html = await (await fetch(url)).text()
    const form = /<form method="post" action="\/client\/new-account" aria-label="New account">([\s\S]*?)<\/form>/.exec(html)?.[1]
    expect(form).toContain('<label for="username">Username</label>')
    expect(form).toMatch(/<input id="username" name="username" type="text" required [^>]*aria-describedby="username-hint">/)
    expect(form).toContain('<button class="primary" type="submit">Sign in as a new account</button>')
  })

  test('behavior: completes the channel with a fresh fid whose custody the app verifies on the chain', async () => {
    const { channelToken, url, nonce } = await createChannel()
    const watching = app.watchStatus({ channelToken, interval: 50, timeout: 10_000 })
    const approved = await signUp(url, 'carol-1')
    expect(approved.status).toBe(200)
    const page = await approved.text()

    const status = await watching
    if (status.isError) throw status.error
    const fid = status.data.fid!
    expect(page).toContain(`<p>@carol-1 (fid ${fid}) signed in to 127.0.0.1:5175.</p>`)
    // Made once, it is offered again by its fid: a person signing in to the next app.
    const { url: next } = await createChannel()
    expect(await (await fetch(next)).text()).toContain(`<button class="primary" type="submit" name="fid" value="${fid}">Sign in as @carol-1 (fid ${fid})</button>`)
    expect(fid).toBeGreaterThanOrEqual(Client.newFids.min)
    expect(fid).toBeLessThan(Client.newFids.max)
    // The custody key follows from the fid alone.
    const custody = privateKeyToAccount(keccak256(stringToBytes(`doorway devnet farcaster custody fid ${fid}`))).address
    expect(status.data).toMatchObject({
      state: 'completed',
      authMethod: 'custody',
      username: 'carol-1',
      displayName: 'carol-1',
      pfpUrl: `${relay.origin}/pfp/${fid}.svg`,
      custody,
      verifications: [],
    })

    const verified = await app.verifySignInMessage({ nonce, domain: siwf.domain, message: status.data.message!, signature: status.data.signature! })
    if (verified.isError) throw verified.error
    expect(verified).toMatchObject({ success: true, fid, authMethod: 'custody', data: { address: custody } })

    const pfp = await fetch(status.data.pfpUrl!)
    expect(pfp.status).toBe(200)
    expect(pfp.headers.get('content-type')).toBe('image/svg+xml')
    expect(await pfp.text()).toContain('>C</text>')
  })

  test('behavior: two new accounts get different fids and custody keys, even under the same username', async () => {
    const first = await signedUp('dave')
    const second = await signedUp('dave')
    expect(second.fid).not.toBe(first.fid)
    expect(second.custody).not.toBe(first.custody)
    const { getFid } = viemConnector({ rpcUrl })
    expect([await getFid(first.custody!), await getFid(second.custody!)]).toEqual([BigInt(first.fid!), BigInt(second.fid!)])
  })

  test('behavior: a new account signs in again from the test users form by its fid', async () => {
    const { fid } = await signedUp('erin')
    const { channelToken } = await createChannel()
    const again = await post('/client/approve', new URLSearchParams({ channelToken, fid: String(fid) }))
    expect(again.status).toBe(200)
    expect(await (await statusOf(channelToken)).json()).toMatchObject({ fid, username: 'erin' })
  })

  test.each([
    ['an empty username', ''],
    ['capitals', 'Carol'],
    ['a leading hyphen', '-carol'],
    ['17 characters', 'a'.repeat(17)],
    ['an underscore', 'carol_1'],
    ['an ENS name', 'carol.eth'],
    ['markup', '<b>"x"</b>'],
  ])('error: %s is 400, the form shown again with the reason, and the channel stays pending', async (_name, username) => {
    const { channelToken, url } = await createChannel()
    const res = await signUp(url, username)
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('<p id="username-error" role="alert">A username is 1 to 16 lowercase letters, digits or hyphens')
    const field = /<input id="username"[^>]*>/.exec(html)?.[0]
    expect(field).toContain('aria-invalid="true"')
    expect(field).toContain(`value="${username.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}"`)
    expect((await statusOf(channelToken)).status).toBe(202)
  })

  test('error: a form posted from another origin is 403 and signs nothing', async () => {
    const { channelToken } = await createChannel()
    const res = await post('/client/new-account', new URLSearchParams({ channelToken, username: 'mallory' }), 'https://evil.example')
    expect(res.status).toBe(403)
    expect((await statusOf(channelToken)).status).toBe(202)
  })

  test('error: an unknown channel is 404, one already approved 409', async () => {
    const unknown = await post('/client/new-account', new URLSearchParams({ channelToken: 'f'.repeat(32), username: 'frank' }))
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('expired or is not known')
    const { channelToken, url } = await createChannel()
    expect((await approve(url, 'alice')).status).toBe(200)
    const again = await post('/client/new-account', new URLSearchParams({ channelToken, username: 'frank' }))
    expect(again.status).toBe(409)
    expect(await (await statusOf(channelToken)).json()).toMatchObject({ fid: 1 })
  })

  test('error: a chain that does not answer is 502 and the channel stays pending', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const offline = await Relay.start({ port: 0, authKey, rpcUrl: 'http://127.0.0.1:1' })
    try {
      const client = createAppClient({ relay: offline.origin, ethereum: viemConnector({ rpcUrl }) })
      const created = await client.createChannel(siwf)
      if (created.isError) throw created.error
      const { channelToken } = created.data
      const res = await fetch(`${offline.origin}/client/new-account`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: offline.origin },
        body: new URLSearchParams({ channelToken, username: 'grace' }),
      })
      expect(res.status).toBe(502)
      expect(await res.text()).toContain('The chain did not answer')
      expect((await client.status({ channelToken })).response?.status).toBe(202)
    } finally {
      await offline.stop()
    }
  })
})

describe('POST /v1/channel/authenticate', () => {
  const profile = { fid: 1, username: 'alice', displayName: 'Alice Farcaster', bio: '', pfpUrl: 'http://127.0.0.1/pfp/1.svg' }

  test.each([
    ['no key', {}],
    ['another key', { 'x-farcaster-auth-relay-key': 'not-the-relay-key' }],
  ])('error: %s is 401 and leaves the channel pending', async (_name, headers) => {
    const { channelToken, nonce } = await createChannel()
    const res = await channelPost('channel/authenticate', { ...(await signed(alice.privateKey, 1, nonce)), ...profile }, { authorization: `Bearer ${channelToken}`, ...headers })
    expect(res.status).toBe(401)
    expect((await statusOf(channelToken)).status).toBe(202)
  })

  test('error: completing a channel twice is 409 and keeps the first', async () => {
    const { channelToken, nonce } = await createChannel()
    const wallet = createWalletClient({ relay: relay.origin, ethereum: viemConnector({ rpcUrl: anvil.chains[0]!.rpcUrl }) })
    const first = await wallet.authenticate({ authKey, channelToken, ...(await signed(alice.privateKey, 1, nonce)), ...profile })
    expect(first.response?.status).toBe(201)
    expect(first.data).toMatchObject({ state: 'completed', fid: 1, custody: alice.custody })
    const second = await wallet.authenticate({ authKey, channelToken, ...(await signed(bob.privateKey, 2, nonce)), fid: 2, username: 'bob' })
    expect(second.response?.status).toBe(409)
    expect(await (await statusOf(channelToken)).json()).toMatchObject({ fid: 1, username: 'alice' })
  })

  test.each([
    ['a malformed signature', { signature: '0x1234' }, /signature/],
    ['a fid of 0', { fid: 0 }, /fid/],
    ['a fid that is a string', { fid: '1' }, /fid/],
    ['a fid no devnet user has', { fid: 99 }, /fid 99/],
    ['an unknown authMethod', { authMethod: 'password' }, /authMethod/],
    ['a username with capitals', { username: 'Alice' }, /username/],
    ['a pfpUrl that is not http(s)', { pfpUrl: 'javascript:alert(1)' }, /pfpUrl/],
    ['no message', { message: undefined }, /message/],
  ])('error: %s is 400', async (_name, change, message) => {
    const { channelToken, nonce } = await createChannel()
    const body = { ...(await signed(alice.privateKey, 1, nonce)), ...profile, ...change }
    const res = await channelPost('channel/authenticate', body, { authorization: `Bearer ${channelToken}`, 'x-farcaster-auth-relay-key': authKey })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: expect.stringMatching(message) })
    expect((await statusOf(channelToken)).status).toBe(202)
  })
})

describe('verifySignInMessage against the devnet registry', () => {
  async function approvedByAlice() {
    const { channelToken, url, nonce } = await createChannel()
    await approve(url, 'alice')
    const status = await app.status({ channelToken })
    if (status.isError) throw status.error
    return { nonce, message: status.data.message!, signature: status.data.signature! }
  }

  test.each([
    ['a wrong nonce', { nonce: 'othernonce123' }, /Invalid nonce/],
    ['a wrong domain', { domain: 'app.example' }, /Invalid domain/],
  ])('error: %s fails', async (_name, change, message) => {
    const signedIn = await approvedByAlice()
    const verified = await app.verifySignInMessage({ domain: siwf.domain, ...signedIn, ...change })
    expect(verified.isError).toBe(true)
    expect(verified.error).toMatchObject({ errCode: 'unauthorized', message: expect.stringMatching(message) })
  })

  test.each([
    ['a key with no fid', keccak256(stringToBytes('stranger'))],
    ["another fid's custody key", bob.privateKey],
  ])('error: a message for fid 1 signed by %s fails', async (_name, privateKey) => {
    const { nonce } = await createChannel()
    const forged = await signed(privateKey, 1, nonce)
    const verified = await app.verifySignInMessage({ nonce, domain: siwf.domain, ...forged })
    expect(verified.isError).toBe(true)
    expect(verified.error).toMatchObject({ errCode: 'unauthorized', message: expect.stringMatching(/is not an auth address or owner of fid 1/) })
  })
})

describe('start', () => {
  test('error: refuses a host name other than loopback (DNS rebinding)', async () => {
    const { hostname, port } = new URL(relay.origin)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest({ hostname, port, path: '/v1/channel/status', headers: { host: `evil.example:${port}` }, timeout: 5_000 }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
      req.on('error', reject).on('timeout', () => req.destroy(new Error('timeout'))).end()
    })
    expect(status).toBe(403)
  })

  test('error: refuses a short auth key, an rpcUrl that is not http(s) or a lifetime that is not positive', async () => {
    await expect(Relay.start({ port: 0, authKey: 'short', rpcUrl })).rejects.toThrow(/authKey/)
    await expect(Relay.start({ port: 0, authKey, rpcUrl, channelTtlMs: 0 })).rejects.toThrow(/channelTtlMs/)
    await expect(Relay.start({ port: 0, authKey, rpcUrl: 'ws://127.0.0.1:18796' })).rejects.toThrow(/rpcUrl/)
  })

  test('error: an unknown path is 404, a wrong method 405', async () => {
    expect((await fetch(`${relay.origin}/v1/nothing`)).status).toBe(404)
    const wrong = await fetch(`${relay.origin}/v1/channel`)
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('POST')
  })
})
