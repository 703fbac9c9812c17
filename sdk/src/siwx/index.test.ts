import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { SiwxData, SiwxSession } from '../types.js'
import {
  createDefaultSiwx,
  formatMessage,
  localSessions,
  parseMessage,
  serverSessions,
  SiwxError,
  solanaVerifier,
  type Verifier,
  type WebStorage,
} from './index.js'

const now = Date.parse('2026-01-01T00:00:00.000Z')
const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const input = { accountAddress: address.toLowerCase(), chainId: 'eip155:31337' as const }

beforeEach(() => {
  vi.stubGlobal('location', { host: 'localhost:5173', href: 'http://localhost:5173/wagmi/' })
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A Web Storage in memory. */
function memoryStorage(): WebStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) }
}

function session(fields: Partial<SiwxData> = {}, signature = '0x5157'): SiwxSession {
  const data: SiwxData = {
    domain: 'localhost:5173',
    accountAddress: address,
    uri: 'http://localhost:5173/wagmi/',
    version: '1',
    chainId: 'eip155:31337',
    nonce: 'a1b2c3d4e5f6a7b8',
    issuedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  }
  return { data, message: formatMessage(data), signature }
}

/** A verifier that accepts the signature '0x600d' only, and counts its calls. */
function fakeVerifier(): Verifier & { calls: number } {
  const verifier = {
    namespace: 'eip155' as const,
    calls: 0,
    async verify(s: SiwxSession) {
      verifier.calls++
      if (s.signature !== '0x600d') throw new SiwxError('InvalidSignature', 'The signature is not the account’s')
    },
  }
  return verifier
}

const siwx = (options: Partial<createDefaultSiwx.Options> = {}) =>
  createDefaultSiwx({ getNonce: async () => 'a1b2c3d4e5f6a7b8', storage: localSessions('siwx', memoryStorage()), now: () => now, ...options })

describe('createDefaultSiwx', () => {
  test('behavior: the message has the server’s nonce, this page’s host and address, the checksummed account and the time', async () => {
    const getNonce = vi.fn(async () => 'feedc0de12345678')
    const message = await siwx({ getNonce }).createMessage(input)
    expect(getNonce).toHaveBeenCalledWith(input)
    expect({ ...message }).toMatchInlineSnapshot(`
      {
        "accountAddress": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "chainId": "eip155:31337",
        "domain": "localhost:5173",
        "issuedAt": "2026-01-01T00:00:00.000Z",
        "nonce": "feedc0de12345678",
        "toString": [Function],
        "uri": "http://localhost:5173/wagmi/",
        "version": "1",
      }
    `)
    expect(String(message)).toBe(formatMessage(message))
  })

  test('param: domain, uri, statement, resources and expiresIn', async () => {
    const message = await siwx({
      domain: 'app.example',
      uri: 'https://app.example/login',
      statement: 'Sign in to Example',
      resources: ['https://app.example/terms'],
      expiresIn: 600_000,
    }).createMessage(input)
    expect(String(message)).toMatchInlineSnapshot(`
      "app.example wants you to sign in with your Ethereum account:
      0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266

      Sign in to Example

      URI: https://app.example/login
      Version: 1
      Chain ID: 31337
      Nonce: a1b2c3d4e5f6a7b8
      Issued At: 2026-01-01T00:00:00.000Z
      Expiration Time: 2026-01-01T00:10:00.000Z
      Resources:
      - https://app.example/terms"
    `)
  })

  test('param: the modal’s notBefore and expirationTime win over expiresIn', async () => {
    const message = await siwx({ expiresIn: 600_000 }).createMessage({ ...input, notBefore: '2026-01-01T00:01:00.000Z', expirationTime: '2026-01-02T00:00:00.000Z' })
    expect(message).toMatchObject({ notBefore: '2026-01-01T00:01:00.000Z', expirationTime: '2026-01-02T00:00:00.000Z' })
  })

  test.each([
    ['a nonce EIP-4361 does not allow', { getNonce: async () => 'not-a-nonce' }, input],
    ['an address that is not eip155', {}, { ...input, accountAddress: '0x1234' }],
  ])('error: %s is refused before anything is signed', async (_, options, given) => {
    await expect(siwx(options).createMessage(given)).rejects.toMatchObject({ name: 'SiwxError', code: 'InvalidMessage' })
  })

  test('behavior: addSession verifies, keeps the session, and getSessions gives it back', async () => {
    const verifier = fakeVerifier()
    const signIn = siwx({ verifiers: [verifier] })
    const good = session({}, '0x600d')
    await signIn.addSession(good)
    expect(verifier.calls).toBe(1)
    expect(await signIn.getSessions('eip155:31337', address.toLowerCase())).toEqual([good])
    expect(await signIn.getSessions('eip155:31338', address)).toEqual([])
  })

  test('error: a signature that does not verify throws and nothing is kept', async () => {
    const signIn = siwx({ verifiers: [fakeVerifier()] })
    await expect(signIn.addSession(session({}, '0xbad0'))).rejects.toThrow(new SiwxError('InvalidSignature', 'The signature is not the account’s'))
    expect(await signIn.getSessions('eip155:31337', address)).toEqual([])
  })

  test('error: without a verifier for the namespace a local session is refused, not trusted', async () => {
    await expect(siwx().addSession(session())).rejects.toMatchObject({ code: 'NoVerifier', message: 'No verifier for eip155 sessions' })
  })

  test('behavior: a storage that verifies (the server) needs no verifier on the page; one given still runs first', async () => {
    const added: SiwxSession[] = []
    const server = { verifies: true, add: async (s: SiwxSession) => void added.push(s), set: async () => {}, get: async () => [], delete: async () => {} }
    await siwx({ storage: server }).addSession(session())
    expect(added).toHaveLength(1)
    const verifier = fakeVerifier()
    await expect(siwx({ storage: server, verifiers: [verifier] }).addSession(session())).rejects.toMatchObject({ code: 'InvalidSignature' })
    expect(added).toHaveLength(1)
  })

  test('behavior: getSessions leaves out sessions past their Expiration Time or before their Not Before', async () => {
    const storage = localSessions('siwx', memoryStorage())
    const kept = [
      session({ expirationTime: '2025-12-31T23:59:59.000Z' }),
      session({ chainId: 'eip155:31338', notBefore: '2026-01-01T00:00:01.000Z' }),
      session({ chainId: 'eip155:1', expirationTime: '2026-01-01T00:00:01.000Z' }),
    ]
    await storage.set(kept)
    const signIn = siwx({ storage })
    expect(await signIn.getSessions('eip155:31337', address)).toEqual([])
    expect(await signIn.getSessions('eip155:31338', address)).toEqual([])
    expect(await signIn.getSessions('eip155:1', address)).toEqual([kept[2]])
  })

  test('behavior: revokeSession and setSessions go to the storage', async () => {
    const storage = localSessions('siwx', memoryStorage())
    const signIn = siwx({ storage })
    await signIn.setSessions([session(), session({ chainId: 'eip155:31338' })])
    await signIn.revokeSession('eip155:31337', address)
    expect(await storage.get('eip155:31337', address)).toEqual([])
    expect(await storage.get('eip155:31338', address)).toHaveLength(1)
  })

  test('param: required and signOutOnDisconnect are true unless set', () => {
    expect(siwx()).toMatchObject({ signOutOnDisconnect: true })
    expect(siwx().getRequired?.()).toBe(true)
    const optional = siwx({ required: false, signOutOnDisconnect: false })
    expect(optional.getRequired?.()).toBe(false)
    expect(optional.signOutOnDisconnect).toBe(false)
  })
})

describe('createDefaultSiwx for solana', () => {
  const seed = new Uint8Array(32).fill(7)
  const solanaAddress = base58.encode(ed25519.getPublicKey(seed))
  const chainId = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' as const
  const sign = (text: string, key = seed) => base58.encode(ed25519.sign(new TextEncoder().encode(text), key))

  test('behavior: the message is Sign In With Solana, the address as given', async () => {
    const message = await siwx({ statement: 'Sign in to Example' }).createMessage({ accountAddress: solanaAddress, chainId })
    expect(String(message)).toMatchInlineSnapshot(`
      "localhost:5173 wants you to sign in with your Solana account:
      GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB

      Sign in to Example

      URI: http://localhost:5173/wagmi/
      Version: 1
      Chain ID: solana:devnet
      Nonce: a1b2c3d4e5f6a7b8
      Issued At: 2026-01-01T00:00:00.000Z"
    `)
    const { toString: _, ...data } = message
    expect(parseMessage(String(message))).toEqual(data)
  })

  test('behavior: addSession verifies a solana session with solanaVerifier, an eip155 one with its own, and keeps both', async () => {
    const eip155 = fakeVerifier()
    const signIn = siwx({ verifiers: [eip155, solanaVerifier({ now: () => now })] })
    const message = await signIn.createMessage({ accountAddress: solanaAddress, chainId })
    const signed = { data: { ...message }, message: String(message), signature: sign(String(message)) }
    await signIn.addSession(JSON.parse(JSON.stringify(signed)) as SiwxSession)
    await signIn.addSession(session({}, '0x600d'))
    expect(eip155.calls).toBe(1)
    expect(await signIn.getSessions(chainId, solanaAddress)).toMatchObject([{ data: { accountAddress: solanaAddress }, signature: signed.signature }])
    // Solana addresses are case-sensitive: another case is another account
    expect(await signIn.getSessions(chainId, solanaAddress.toLowerCase())).toEqual([])
    expect(await signIn.getSessions('eip155:31337', address)).toHaveLength(1)
  })

  test('error: another key’s signature is refused and nothing is kept', async () => {
    const signIn = siwx({ verifiers: [solanaVerifier({ now: () => now })] })
    const message = await signIn.createMessage({ accountAddress: solanaAddress, chainId })
    const forged = { data: { ...message }, message: String(message), signature: sign(String(message), new Uint8Array(32).fill(9)) }
    await expect(signIn.addSession(forged)).rejects.toMatchObject({ code: 'InvalidSignature', message: `The signature is not ${solanaAddress}'s` })
    expect(await signIn.getSessions(chainId, solanaAddress)).toEqual([])
  })

  test('error: an EVM address for a solana chain is refused before anything is signed', async () => {
    await expect(siwx().createMessage({ accountAddress: address, chainId })).rejects.toMatchObject({
      code: 'InvalidMessage',
      message: `Not a Sign In With Solana message: the address ${address} is not a Solana address (base58, 32 bytes)`,
    })
  })
})

describe('localSessions', () => {
  test('behavior: one session per account and chain, as JSON under the key; the last one leaving removes the key', async () => {
    const web = memoryStorage()
    const storage = localSessions('my-key', web)
    await storage.add(session({ nonce: 'first0000' }))
    await storage.add(session({ nonce: 'second000' }))
    await storage.add(session({ chainId: 'eip155:31338' }))
    expect(JSON.parse(web.items.get('my-key')!)).toHaveLength(2)
    // eip155 addresses are the same account in any letter case
    expect((await storage.get('eip155:31337', address.toLowerCase())).map((s) => s.data.nonce)).toEqual(['second000'])
    await storage.delete('eip155:31337', address.toLowerCase())
    await storage.delete('eip155:31338', address)
    expect(web.items.has('my-key')).toBe(false)
  })

  test('behavior: localStorage by default, read when used', async () => {
    const web = memoryStorage()
    const storage = localSessions()
    vi.stubGlobal('localStorage', web)
    await storage.add(session())
    expect([...web.items.keys()]).toEqual(['doorway.siwx.sessions'])
  })

  test('behavior: an unreadable value reads as no sessions', async () => {
    const web = memoryStorage()
    web.setItem('siwx', '{not json')
    expect(await localSessions('siwx', web).get('eip155:31337', address)).toEqual([])
  })
})

describe('serverSessions', () => {
  /** A fetch answering from `routes` ('METHOD /path' → status and body) and recording each request. */
  function fakeFetch(routes: Record<string, [number, unknown]>) {
    const requests: { method: string; url: string; type?: string; body?: unknown }[] = []
    const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
      const method = init.method ?? 'GET'
      const headers = new Headers(init.headers)
      requests.push({ method, url: String(url), type: headers.get('content-type') ?? undefined, body: init.body ? JSON.parse(String(init.body)) : undefined })
      const [status, body] = routes[`${method} ${new URL(String(url), 'http://localhost:5173').pathname}`] ?? [404, { error: 'Not found' }]
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    }
    return { fetch: fetch as typeof globalThis.fetch, requests }
  }

  test('behavior: add posts the session as JSON to {baseUrl}/verify', async () => {
    const { fetch, requests } = fakeFetch({ 'POST /siwx/api/verify': [200, session()] })
    await serverSessions('/siwx/api/', { fetch }).add(session())
    expect(requests).toEqual([{ method: 'POST', url: '/siwx/api/verify', type: 'application/json', body: session() }])
  })

  test('error: the server’s refusal, in its words', async () => {
    const { fetch } = fakeFetch({ 'POST /siwx/api/verify': [401, { error: 'The nonce was not issued here, has expired or was already used' }] })
    await expect(serverSessions('/siwx/api', { fetch }).add(session())).rejects.toThrow(
      new SiwxError('Refused', 'The server refused the sign-in: The nonce was not issued here, has expired or was already used'),
    )
  })

  test('behavior: get reads the cookie’s session back; none (401) or another account’s is no session', async () => {
    const signedIn = fakeFetch({ 'GET /siwx/api/session': [200, session()] })
    expect(await serverSessions('/siwx/api', signedIn).get('eip155:31337', address)).toEqual([session()])
    expect(await serverSessions('/siwx/api', signedIn).get('eip155:31338', address)).toEqual([])
    const signedOut = fakeFetch({ 'GET /siwx/api/session': [401, { error: 'Not signed in' }] })
    expect(await serverSessions('/siwx/api', signedOut).get('eip155:31337', address)).toEqual([])
  })

  test('behavior: delete signs out; set signs out, then verifies each session it is given', async () => {
    const { fetch, requests } = fakeFetch({ 'POST /siwx/api/signout': [200, { signedOut: true }], 'POST /siwx/api/verify': [200, session()] })
    const storage = serverSessions('http://localhost:5173/siwx/api', { fetch })
    await storage.delete('eip155:31337', address)
    await storage.set([session()])
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST http://localhost:5173/siwx/api/signout',
      'POST http://localhost:5173/siwx/api/signout',
      'POST http://localhost:5173/siwx/api/verify',
    ])
  })
})
