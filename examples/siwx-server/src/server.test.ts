import { createPrivateKey, sign } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Keyring } from '@polkadot/keyring'
import type { KeyringPair } from '@polkadot/keyring/types'
import { stringToU8a, u8aToHex, u8aWrapBytes } from '@polkadot/util'
import { cryptoWaitReady } from '@polkadot/util-crypto'
import { Keypair } from '@solana/web3.js'
import { type Hex, serializeErc6492Signature } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as TestAccounts from '@doorway/devnet/testAccounts'
import * as Tokens from '@doorway/devnet/tokens'
import { createDefaultSiwx, formatMessage, serverSessions } from '@doorway/sdk/siwx'
import type { SiwxData, SiwxSession } from '@doorway/sdk'
import { createSiwxServer } from './server.js'

// A port apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chain = { id: 31337, port: 18962, rpcUrl: 'http://127.0.0.1:18962' }
const domain = 'localhost:5173'
const owner = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 3 })
const stranger = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 5 })
const start = Date.parse('2026-01-01T00:00:00.000Z')

let anvil: Anvil.start.ReturnType
beforeAll(async () => {
  anvil = await Anvil.start({ chains: [chain] })
}, 60_000)
afterAll(() => anvil?.stop())

type Answer = { status: number; body: any; cookie: string | null }

/** A sign-in server on a free port with its own clock, and a client that keeps its cookie as a browser would. */
async function setup(options: { secureCookies?: boolean } = {}) {
  const clock = { now: start }
  const handle = createSiwxServer({ domain, rpcUrls: { 'eip155:31337': chain.rpcUrl }, now: () => clock.now, ...options })
  const server: Server = createServer((req, res) => {
    if (!handle(req, res)) res.writeHead(404, { 'content-type': 'text/plain' }).end('not the sign-in server’s')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let jar = ''
  const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar) headers.set('cookie', jar)
    const response = await globalThis.fetch(new URL(String(url), base), { ...init, headers })
    const set = response.headers.get('set-cookie')
    if (set) jar = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!
    return response
  }
  const call = async (method: string, path: string, body?: unknown, type = 'application/json'): Promise<Answer> => {
    const init: RequestInit = { method, ...(body === undefined ? {} : { headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) }) }
    const response = await fetch(path, init)
    const text = await response.text()
    return { status: response.status, body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text, cookie: response.headers.get('set-cookie') }
  }
  const nonce = async () => (await call('GET', '/siwx/api/nonce')).body.nonce as string
  return { clock, base, fetch, call, nonce, cookie: () => jar, close: () => new Promise((resolve) => server.close(resolve)) }
}

type Setup = Awaited<ReturnType<typeof setup>>
let s: Setup
beforeAll(async () => {
  s = await setup()
})
afterAll(() => s?.close())

const dataFor = (nonce: string, fields: Partial<SiwxData> = {}): SiwxData => ({
  domain,
  accountAddress: owner.address,
  statement: 'Sign in to the Doorway wagmi example',
  uri: 'http://localhost:5173/wagmi/',
  version: '1',
  chainId: 'eip155:31337',
  nonce,
  issuedAt: new Date(start).toISOString(),
  ...fields,
})

async function signed(data: SiwxData, signer = owner): Promise<SiwxSession> {
  const message = formatMessage(data)
  return { data, message, signature: await signer.signMessage({ message }) }
}

const signIn = async (session: SiwxSession, on: Setup = s) => on.call('POST', '/siwx/api/verify', session)

// Signed apart from the SDK's own libraries: Node's ed25519 over the message's UTF-8 bytes, with the seed
// of a web3.js Keypair, and base58 by an encoder of our own, as a wallet's signature crosses.
const pkcs8Ed25519 = Buffer.from('302e020100300506032b657004220420', 'hex')
function signSolana(message: string, signer: Keypair): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([pkcs8Ed25519, signer.secretKey.subarray(0, 32)]), format: 'der', type: 'pkcs8' })
  return sign(null, Buffer.from(message, 'utf8'), key)
}
function signedSolana(data: SiwxData, signer: Keypair): SiwxSession {
  const message = formatMessage(data)
  return { data, message, signature: toBase58(signSolana(message, signer)) }
}
const base58Digits = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
function toBase58(bytes: Uint8Array): string {
  let text = ''
  for (let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`); n > 0n; n /= 58n) text = base58Digits[Number(n % 58n)]! + text
  for (const byte of bytes) {
    if (byte) break
    text = `1${text}`
  }
  return text
}

describe('createSiwxServer', () => {
  test('behavior: a nonce is 128 random bits, new each time', async () => {
    const [a, b] = [await s.nonce(), await s.nonce()]
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(b).not.toBe(a)
  })

  test('behavior: a good signature signs in: the session, an HttpOnly SameSite=Strict cookie of 128 bits, read back, then signed out', async () => {
    const local = await setup()
    const session = await signed(dataFor(await local.nonce()))
    const answer = await signIn(session, local)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(session)
    expect(answer.cookie).toMatch(/^siwx=[0-9a-f]{32}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=86400$/)
    expect(await local.call('GET', '/siwx/api/session')).toMatchObject({ status: 200, body: answer.body })
    const out = await local.call('POST', '/siwx/api/signout', {})
    expect(out).toMatchObject({ status: 200, body: { signedOut: true }, cookie: 'siwx=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0' })
    expect(await local.call('GET', '/siwx/api/session')).toMatchObject({ status: 401, body: { error: 'Not signed in' } })
    await local.close()
  })

  test('behavior: the session lasts as long as the message allows, at most a day', async () => {
    const local = await setup()
    const expirationTime = new Date(start + 600_000).toISOString()
    const answer = await signIn(await signed(dataFor(await local.nonce(), { expirationTime })), local)
    expect(answer.cookie).toContain('Max-Age=600')
    local.clock.now += 600_000
    expect((await local.call('GET', '/siwx/api/session')).status).toBe(401)
    await local.close()
  })

  test('behavior: a smart account not deployed yet signs in with its ERC-6492 signature', async () => {
    const factory = await TestAccounts.deployFactory(chain)
    const account = await TestAccounts.counterfactual(chain, { factory, owner: owner.address, salt: `0x${'51'.repeat(32)}` })
    const session = await signed(dataFor(await s.nonce(), { accountAddress: account.address }))
    const signature = serializeErc6492Signature({ address: account.factory, data: account.factoryData, signature: session.signature as Hex })
    expect(await signIn({ ...session, signature })).toMatchObject({ status: 200, body: { data: { accountAddress: account.address } } })
  })

  test('param: secureCookies makes the cookie Secure under the __Host- prefix', async () => {
    const local = await setup({ secureCookies: true })
    const answer = await signIn(await signed(dataFor(await local.nonce())), local)
    expect(answer.cookie).toMatch(/^__Host-siwx=[0-9a-f]{32}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=86400; Secure$/)
    await local.close()
  })

  test('error: a nonce this server never issued', async () => {
    expect(await signIn(await signed(dataFor('0123456789abcdef0123456789abcdef')))).toEqual({
      status: 401,
      body: { error: 'The nonce was not issued here, has expired or was already used' },
      cookie: null,
    })
  })

  test('error: a nonce used once already (a replayed sign-in)', async () => {
    const session = await signed(dataFor(await s.nonce()))
    expect((await signIn(session)).status).toBe(200)
    expect(await signIn(session)).toMatchObject({ status: 401, body: { error: expect.stringContaining('already used') } })
  })

  test('error: a nonce past its 10 minutes', async () => {
    const local = await setup()
    const session = await signed(dataFor(await local.nonce()))
    local.clock.now += 10 * 60_000
    expect((await signIn(session, local)).status).toBe(401)
    await local.close()
  })

  test('error: a failed attempt spends the nonce too', async () => {
    const nonce = await s.nonce()
    expect((await signIn(await signed(dataFor(nonce), stranger))).status).toBe(401)
    expect(await signIn(await signed(dataFor(nonce)))).toMatchObject({ status: 401, body: { error: expect.stringContaining('already used') } })
  })

  test('error: a message for another domain', async () => {
    expect(await signIn(await signed(dataFor(await s.nonce(), { domain: 'evil.example' })))).toMatchObject({
      status: 403,
      body: { error: 'The message signs in to evil.example, not localhost:5173' },
    })
  })

  test('error: another key’s signature', async () => {
    expect(await signIn(await signed(dataFor(await s.nonce()), stranger))).toMatchObject({
      status: 401,
      body: { error: `The signature is not ${owner.address}'s` },
    })
  })

  test('error: a message changed after signing (with its data, and without)', async () => {
    const session = await signed(dataFor(await s.nonce()))
    const data = { ...session.data, statement: 'Sign in and give away everything' }
    expect(await signIn({ ...session, data, message: formatMessage(data) })).toMatchObject({ status: 401, body: { error: expect.stringContaining('The signature is not') } })
    const other = await signed(dataFor(await s.nonce()))
    expect(await signIn({ ...other, message: formatMessage({ ...other.data, statement: 'Changed' }) })).toMatchObject({
      status: 400,
      body: { error: 'The message is not the text of its data' },
    })
  })

  test('error: an expired message, and one not valid yet', async () => {
    const expired = await signed(dataFor(await s.nonce(), { expirationTime: new Date(start - 1).toISOString() }))
    expect(await signIn(expired)).toMatchObject({ status: 401, body: { error: expect.stringMatching(/^The sign-in expired at /) } })
    const early = await signed(dataFor(await s.nonce(), { notBefore: new Date(start + 60_000).toISOString() }))
    expect(await signIn(early)).toMatchObject({ status: 401, body: { error: expect.stringMatching(/^The sign-in is not valid before /) } })
  })

  test('error: a chain the server does not sign in on', async () => {
    expect(await signIn(await signed(dataFor(await s.nonce(), { chainId: 'eip155:1' })))).toMatchObject({
      status: 400,
      body: { error: 'This server does not sign in on eip155:1' },
    })
  })

  test('error: a namespace the server does not sign in', async () => {
    const data = { ...dataFor(await s.nonce()), accountAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', chainId: 'bip122:000000000019d6689c085ae165831e93' as const }
    expect(await signIn({ data, message: 'x', signature: '0x00' })).toMatchObject({
      status: 400,
      body: { error: 'This server signs in eip155, solana and polkadot accounts only, not bip122 ones' },
    })
  })

  describe('Sign In With Solana', () => {
    const devnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' as const
    const keypair = Keypair.generate()
    const solanaData = (nonce: string, fields: Partial<SiwxData> = {}): SiwxData => ({ ...dataFor(nonce), accountAddress: keypair.publicKey.toBase58(), chainId: devnet, ...fields })

    test('behavior: a signature by the account’s key signs in: the session, its cookie, read back', async () => {
      const local = await setup()
      const session = signedSolana(solanaData(await local.nonce()), keypair)
      const answer = await signIn(session, local)
      expect(answer).toMatchObject({ status: 200, body: session, cookie: expect.stringMatching(/^siwx=[0-9a-f]{32}; /) })
      expect(await local.call('GET', '/siwx/api/session')).toMatchObject({ status: 200, body: session })
      await local.close()
    })

    test('behavior: a local cluster (Chain ID: localnet) keeps the chain the session claims', async () => {
      const local = 'solana:7nVa4rHmbU4grY2ZbR3Z5ZJ8wKk7uqLS' as const
      const session = signedSolana(solanaData(await s.nonce(), { chainId: local }), keypair)
      expect(session.message).toContain('\nChain ID: localnet\n')
      expect(await signIn(session)).toMatchObject({ status: 200, body: { data: { chainId: local } } })
    })

    test('error: another key’s signature', async () => {
      const session = signedSolana(solanaData(await s.nonce()), Keypair.generate())
      expect(await signIn(session)).toMatchObject({ status: 401, body: { error: `The signature is not ${keypair.publicKey.toBase58()}'s` } })
    })

    test.each([
      ['hex', (bytes: Buffer) => `0x${bytes.toString('hex')}`],
      ['base64', (bytes: Buffer) => bytes.toString('base64')],
    ])('error: a signature in %s, not base58', async (_, encode) => {
      const session = signedSolana(solanaData(await s.nonce()), keypair)
      expect(await signIn({ ...session, signature: encode(signSolana(session.message, keypair)) })).toMatchObject({
        status: 401,
        body: { error: 'The signature is not a base58 ed25519 signature (64 bytes)' },
      })
    })

    test('error: a message for another cluster than the session claims', async () => {
      const session = signedSolana(solanaData(await s.nonce(), { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }), keypair)
      expect(await signIn({ ...session, data: { ...session.data, chainId: devnet } })).toMatchObject({
        status: 400,
        body: { error: `Not a Sign In With Solana message: the Chain ID solana:mainnet is not ${devnet}'s` },
      })
    })

    test('error: an EVM address in a Solana message', async () => {
      const data = solanaData(await s.nonce())
      const message = formatMessage(data).replace(data.accountAddress, owner.address)
      expect(await signIn({ data: { ...data, accountAddress: owner.address }, message, signature: '1' })).toMatchObject({
        status: 400,
        body: { error: `Not a Sign In With Solana message: the address ${owner.address} is not a Solana address (base58, 32 bytes)` },
      })
    })

    test('behavior: @doorway/sdk/siwx with serverSessions signs a Solana account in', async () => {
      const local = await setup()
      const siwx = createDefaultSiwx({
        domain,
        uri: 'http://localhost:5173/wagmi/',
        getNonce: async () => ((await (await local.fetch('/siwx/api/nonce')).json()) as { nonce: string }).nonce,
        storage: serverSessions('/siwx/api', { fetch: local.fetch }),
        now: () => local.clock.now,
      })
      const address = keypair.publicKey.toBase58()
      const message = await siwx.createMessage({ accountAddress: address, chainId: devnet })
      const { signature } = signedSolana(JSON.parse(JSON.stringify(message)) as SiwxData, keypair)
      await siwx.addSession({ data: JSON.parse(JSON.stringify(message)) as SiwxData, message: String(message), signature })
      expect(await siwx.getSessions(devnet, address)).toMatchObject([{ data: { accountAddress: address, nonce: message.nonce }, signature }])
      await local.close()
    })
  })

  describe('Polkadot sign-in', () => {
    const polkadot = 'polkadot:91b171bb158e2d3848fa23a9f1c25182' as const
    let alice: KeyringPair
    let aliceEd25519: KeyringPair
    let bob: KeyringPair
    beforeAll(async () => {
      await cryptoWaitReady()
      alice = new Keyring({ type: 'sr25519' }).addFromUri('//Alice')
      aliceEd25519 = new Keyring({ type: 'ed25519' }).addFromUri('//Alice')
      bob = new Keyring({ type: 'sr25519' }).addFromUri('//Bob')
    })
    const polkadotData = (nonce: string, fields: Partial<SiwxData> = {}): SiwxData => ({ ...dataFor(nonce), accountAddress: alice.address, chainId: polkadot, ...fields })
    // What polkadot.js signRaw and WalletConnect's polkadot_signMessage do: sign <Bytes>message</Bytes>, answer hex.
    const signPolkadot = (message: string, signer: KeyringPair, wrap = true) => {
      const text = stringToU8a(message)
      return u8aToHex(signer.sign(wrap ? u8aWrapBytes(text) : text))
    }
    const signedPolkadot = (data: SiwxData, signer: KeyringPair = alice, wrap = true): SiwxSession => {
      const message = formatMessage(data)
      return { data, message, signature: signPolkadot(message, signer, wrap) }
    }

    test('behavior: //Alice’s sr25519 signature of the <Bytes>-wrapped message signs in: the session, its cookie, read back', async () => {
      const local = await setup()
      const session = signedPolkadot(polkadotData(await local.nonce()))
      expect(session.message.split('\n').slice(0, 2)).toEqual([`${domain} wants you to sign in with your Polkadot account:`, alice.address])
      expect(session.message).toContain('\nChain ID: 91b171bb158e2d3848fa23a9f1c25182\n')
      const answer = await signIn(session, local)
      expect(answer).toMatchObject({ status: 200, body: session, cookie: expect.stringMatching(/^siwx=[0-9a-f]{32}; /) })
      expect(await local.call('GET', '/siwx/api/session')).toMatchObject({ status: 200, body: session })
      await local.close()
    })

    test.each([
      ['sr25519 over the bare text (a bare key’s pair.sign)', () => alice, false],
      ['ed25519 over the wrapped text', () => aliceEd25519, true],
    ])('behavior: %s signs in too', async (_, signer, wrap) => {
      const session = signedPolkadot(polkadotData(await s.nonce(), { accountAddress: signer().address }), signer(), wrap)
      expect(await signIn(session)).toMatchObject({ status: 200, body: { data: { accountAddress: signer().address } } })
    })

    test('error: another key’s signature is a 401', async () => {
      const session = signedPolkadot(polkadotData(await s.nonce()), bob)
      expect(await signIn(session)).toEqual({ status: 401, body: { error: `The signature is not ${alice.address}'s` }, cookie: null })
    })

    test('error: a signature of another text (the same fields, another nonce) is a 401', async () => {
      const session = signedPolkadot(polkadotData(await s.nonce()))
      const other = polkadotData(await s.nonce())
      expect(await signIn({ data: other, message: formatMessage(other), signature: session.signature })).toMatchObject({ status: 401, body: { error: `The signature is not ${alice.address}'s` } })
    })

    test.each([
      ['base58', () => toBase58(Buffer.from(signPolkadot('x', alice).slice(2), 'hex'))],
      ['hex of 63 bytes', () => signPolkadot('x', alice).slice(0, -2)],
      ['hex without 0x', () => signPolkadot('x', alice).slice(2)],
    ])('error: a signature in %s is a 401', async (_, signature) => {
      const session = signedPolkadot(polkadotData(await s.nonce()))
      expect(await signIn({ ...session, signature: signature() })).toMatchObject({
        status: 401,
        body: { error: 'The signature is not a hex sr25519, ed25519 or ecdsa signature (64 to 66 bytes)' },
      })
    })

    test('error: an address whose SS58 checksum fails is a 400, and leaves the nonce for the real sign-in', async () => {
      const nonce = await s.nonce()
      const bad = `${alice.address.slice(0, -1)}${alice.address.endsWith('Z') ? 'Y' : 'Z'}`
      const session = signedPolkadot(polkadotData(nonce, { accountAddress: bad }))
      expect(await signIn(session)).toEqual({ status: 400, body: { error: `The address ${bad} is not a Polkadot address (its SS58 checksum fails)` }, cookie: null })
      expect((await signIn(signedPolkadot(polkadotData(nonce)))).status).toBe(200)
    })

    test('error: an EVM address in a Polkadot message is a 400', async () => {
      const data = polkadotData(await s.nonce())
      const message = formatMessage(data).replace(data.accountAddress, owner.address)
      expect(await signIn({ data: { ...data, accountAddress: owner.address }, message, signature: '0x00' })).toMatchObject({
        status: 400,
        body: { error: `Not a Polkadot sign-in message: the address ${owner.address} is not a Polkadot address (SS58)` },
      })
    })

    test('error: a message of another chain than the session claims is a 400', async () => {
      const session = signedPolkadot(polkadotData(await s.nonce(), { chainId: 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e' }))
      expect(await signIn({ ...session, data: { ...session.data, chainId: polkadot } })).toMatchObject({
        status: 400,
        body: { error: `Not a Polkadot sign-in message: the Chain ID e143f23803ac50e8f6f8e62695d1ce9e is not ${polkadot}'s` },
      })
    })

    test('behavior: @doorway/sdk/siwx with serverSessions signs a Polkadot account in (no verifier on the page)', async () => {
      const local = await setup()
      const siwx = createDefaultSiwx({
        domain,
        uri: 'http://localhost:5173/wagmi/',
        getNonce: async () => ((await (await local.fetch('/siwx/api/nonce')).json()) as { nonce: string }).nonce,
        storage: serverSessions('/siwx/api', { fetch: local.fetch }),
        now: () => local.clock.now,
      })
      const message = await siwx.createMessage({ accountAddress: alice.address, chainId: polkadot })
      const signature = signPolkadot(String(message), alice)
      await siwx.addSession({ data: JSON.parse(JSON.stringify(message)) as SiwxData, message: String(message), signature })
      expect(await siwx.getSessions(polkadot, alice.address)).toMatchObject([{ data: { accountAddress: alice.address, nonce: message.nonce }, signature }])
      await local.close()
    })
  })

  test.each([
    ['not JSON', 'POST', '/siwx/api/verify', '{', 'application/json', 400, 'The body is not valid JSON'],
    ['no JSON content type (a form post from another site)', 'POST', '/siwx/api/verify', '{}', 'text/plain', 415, 'Send a JSON body with content-type: application/json'],
    ['too large', 'POST', '/siwx/api/verify', JSON.stringify({ data: {}, message: 'x'.repeat(20_000), signature: '0x' }), 'application/json', 413, 'The body must be under 16384 bytes'],
    ['not a session', 'POST', '/siwx/api/verify', { data: 'x', message: 1 }, 'application/json', 400, 'Send { data, message, signature }: a signed sign-in session'],
    ['not EIP-4361 text', 'POST', '/siwx/api/verify', { data: { chainId: 'eip155:31337' }, message: 'hello', signature: '0x00' }, 'application/json', 400, 'Not an EIP-4361 message: the first line is not "… wants you to sign in with your Ethereum account:"'],
    ['a wrong method', 'POST', '/siwx/api/nonce', {}, 'application/json', 405, 'Use GET for /siwx/api/nonce'],
    ['a GET to verify', 'GET', '/siwx/api/verify', undefined, undefined, 405, 'Use POST for /siwx/api/verify'],
    ['an unknown route', 'GET', '/siwx/api/nothing', undefined, undefined, 404, 'No /siwx/api/nothing here'],
  ])('error: %s is a 4xx with { error }', async (_, method, path, body, type, status, error) => {
    expect(await s.call(method, path, body, type)).toMatchObject({ status, body: { error } })
  })

  test('error: data of the wrong shape beside a good message is a 400, not a crash', async () => {
    const session = await signed(dataFor(await s.nonce()))
    const data = { ...session.data, resources: 'https://a.example' }
    expect(await signIn({ ...session, data } as unknown as SiwxSession)).toMatchObject({ status: 400, body: { error: 'The resources are a list of URIs' } })
  })

  test('behavior: paths outside /siwx/api/ are left to the next handler', async () => {
    expect(await s.call('GET', '/siwx/other')).toMatchObject({ status: 404, body: 'not the sign-in server’s' })
  })

  test('behavior: @doorway/sdk/siwx with serverSessions signs in, reads the session back and signs out through it', async () => {
    const local = await setup()
    const siwx = createDefaultSiwx({
      domain,
      uri: 'http://localhost:5173/wagmi/',
      getNonce: async () => ((await (await local.fetch('/siwx/api/nonce')).json()) as { nonce: string }).nonce,
      storage: serverSessions('/siwx/api', { fetch: local.fetch }),
      now: () => local.clock.now,
    })
    const message = await siwx.createMessage({ accountAddress: owner.address.toLowerCase(), chainId: 'eip155:31337' })
    const session = { data: { ...message }, message: message.toString(), signature: await owner.signMessage({ message: message.toString() }) }
    await siwx.addSession(JSON.parse(JSON.stringify(session)))
    expect(local.cookie()).toMatch(/^siwx=/)
    expect(await siwx.getSessions('eip155:31337', owner.address)).toMatchObject([{ data: { accountAddress: owner.address, nonce: message.nonce } }])
    await expect(siwx.addSession(JSON.parse(JSON.stringify(session)))).rejects.toThrow('The server refused the sign-in: The nonce was not issued here, has expired or was already used')
    await siwx.revokeSession('eip155:31337', owner.address)
    expect(await siwx.getSessions('eip155:31337', owner.address)).toEqual([])
    await local.close()
  })
})
