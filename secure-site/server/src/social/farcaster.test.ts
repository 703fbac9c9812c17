/**
 * Sign In With Farcaster (docs/embedded-wallet.md §5) against a relay played here on a loopback port (the
 * HTTP shapes of auth-client's index.d.ts) and a real anvil chain with Farcaster's ID registry installed
 * (devnet's registry), so the answer is checked as in production: auth-client's verifySignInMessage, a
 * real signature, the fid read from the registry over JSON-RPC.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as Anvil from '@doorway/devnet/anvil'
import * as Registry from '@doorway/devnet/farcaster/registry'
import * as Ids from '@doorway/shared/Ids'
import { type CreateChannelArgs, createWalletClient, viemConnector } from '@farcaster/auth-client'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Farcaster from './farcaster.js'

// A port apart from the running stack's chains and from the other tests' anvils; Optimism's chain id.
const chain = { id: 10, port: 18697, rpcUrl: 'http://127.0.0.1:18697' }
const secure = 'http://127.0.0.1:5175'
const person = privateKeyToAccount(generatePrivateKey())
const other = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())

let anvil: Anvil.start.ReturnType
let relay: Awaited<ReturnType<typeof startRelay>>
let config: Farcaster.FarcasterConfig

beforeAll(async () => {
  anvil = await Anvil.start({ chains: [chain] })
  await Registry.installRegistry(chain.rpcUrl, [
    { fid: 7, custody: person.address },
    { fid: 8, custody: other.address },
  ])
  relay = await startRelay()
  config = { ...Farcaster.fromEnv({ DOORWAY_FARCASTER_DEVNET: relay.origin, DOORWAY_FARCASTER_RPC: chain.rpcUrl }, secure)!, timeoutMs: 5_000 }
}, 60_000)

afterAll(async () => {
  await relay?.stop()
  await anvil?.stop()
})

type Completed = Record<string, unknown>

/** The relay, as auth-client 0.7.1 speaks to it (API v1), with what a test makes it do wrong. */
async function startRelay() {
  const channels = new Map<string, { request: CreateChannelArgs; completed?: Completed }>()
  const state = {
    mode: 'normal' as 'normal' | 'failing' | 'silent',
    link: (token: string) => `https://farcaster.xyz/~/siwf?channelToken=${token}`,
    nonce: (asked: string | undefined) => asked,
  }
  const send = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  const read = async (req: IncomingMessage) => {
    let text = ''
    for await (const chunk of req) text += chunk
    return text
  }
  const server = createServer(async (req, res) => {
    if (state.mode === 'silent') return // holds the request: a relay that never answers
    if (state.mode === 'failing') return send(res, 503, { error: 'Service Unavailable' })
    const text = await read(req)
    if (req.method === 'POST' && req.url === '/v1/channel') {
      const request = JSON.parse(text) as CreateChannelArgs
      const channelToken = Ids.random()
      channels.set(channelToken, { request })
      return send(res, 201, { channelToken, url: state.link(channelToken), nonce: state.nonce(request.nonce) })
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
    const channel = channels.get(token)
    if (req.method !== 'GET' || req.url !== '/v1/channel/status') return send(res, 404, { error: 'Not Found' })
    if (!channel) return send(res, 401, { error: 'Unauthorized' })
    const common = { nonce: channel.request.nonce, url: state.link(token), signatureParams: channel.request, metadata: { ip: '127.0.0.1', userAgent: 'test' } }
    if (!channel.completed) return send(res, 202, { state: 'pending', ...common })
    return send(res, 200, { state: 'completed', ...common, ...channel.completed })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const wallet = createWalletClient({ relay: origin, ethereum: viemConnector({ rpcUrl: chain.rpcUrl }) })
  return {
    origin,
    state,
    channel: (token: string) => channels.get(token)!,
    /** The person's Farcaster app: signs the channel's message (or one with `message` changed) with `signer` for `fid`. */
    async approve(token: string, options: { signer: PrivateKeyAccount; fid: number; message?: { nonce?: string; domain?: string }; answer?: Completed }) {
      const { request } = channels.get(token)!
      const built = wallet.buildSignInMessage({
        domain: request.domain,
        uri: request.siweUri,
        nonce: request.nonce!,
        expirationTime: new Date(request.expirationTime!),
        address: options.signer.address,
        fid: options.fid,
        ...options.message,
      })
      if (built.isError) throw built.error
      const signature = await options.signer.signMessage({ message: built.message })
      channels.get(token)!.completed = { message: built.message, signature, fid: options.fid, username: 'alice', pfpUrl: 'https://i.imgur.com/alice.png', custody: options.signer.address, authMethod: 'custody', ...options.answer }
    },
    reset() {
      state.mode = 'normal'
      state.link = (token) => `https://farcaster.xyz/~/siwf?channelToken=${token}`
      state.nonce = (asked) => asked
    },
    async stop() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

const flow = () => ({ nonce: 'aB-_' + Ids.random(), expiresAt: Date.now() + 10 * 60_000 })

/** A flow with its channel open on the relay. */
async function opened() {
  const started = flow()
  const { channelToken } = await Farcaster.open(config, started)
  return { nonce: started.nonce, channelToken }
}

describe('open', () => {
  test('behavior: opens a channel for the flow: its nonce, this server\'s domain and uri, its expiry, custody only', async () => {
    relay.reset()
    const started = flow()
    const { channelToken, url } = await Farcaster.open(config, started)
    expect(url).toBe(`https://farcaster.xyz/~/siwf?channelToken=${channelToken}`)
    expect(relay.channel(channelToken).request).toEqual({
      siweUri: 'http://127.0.0.1:5175/farcaster',
      domain: '127.0.0.1:5175',
      nonce: Farcaster.siweNonce(started.nonce),
      expirationTime: new Date(started.expiresAt).toISOString(),
      acceptAuthAddress: false,
    })
  })

  test('behavior: a link to the loopback relay (the devnet) is shown', async () => {
    relay.reset()
    relay.state.link = (token) => `${relay.origin}/connect?channelToken=${token}`
    await expect(Farcaster.open(config, flow())).resolves.toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/connect\?channelToken=/) })
  })

  test.each([
    ['plain http', 'http://farcaster.xyz/~/siwf?channelToken=t'],
    ['javascript:', 'javascript:alert(1)'],
    ['another scheme', 'farcaster://siwf?channelToken=t'],
    ['no URL', 'not a url'],
    ['longer than 2000 characters', `https://farcaster.xyz/${'a'.repeat(2_000)}`],
  ])('error: refuses a link the modal would show: %s', async (_, link) => {
      relay.reset()
      relay.state.link = () => link
    await expect(Farcaster.open(config, flow())).rejects.toThrow(Farcaster.Invalid)
  })

  test('error: refuses a channel the relay opened with another nonce', async () => {
    relay.reset()
    relay.state.nonce = () => 'someothernonce123'
    await expect(Farcaster.open(config, flow())).rejects.toThrow(/another nonce/)
  })

  test('error: a relay that fails (5xx) throws Unavailable', async () => {
    relay.reset()
    relay.state.mode = 'failing'
    await expect(Farcaster.open(config, flow())).rejects.toThrow(Farcaster.Unavailable)
  })

  test('error: an unreachable relay throws Unavailable', async () => {
    await expect(Farcaster.open({ ...config, relay: 'http://127.0.0.1:1' }, flow())).rejects.toThrow(Farcaster.Unavailable)
  })

  test('error: a relay that never answers is given up after the timeout', async () => {
    relay.reset()
    relay.state.mode = 'silent'
    const error = await Farcaster.open({ ...config, timeoutMs: 200 }, flow()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Farcaster.Unavailable)
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError' })
  })

  test("error: the caller's abort stops the request with its reason", async () => {
    relay.reset()
    relay.state.mode = 'silent'
    const controller = new AbortController()
    const opening = Farcaster.open(config, flow(), controller.signal)
    controller.abort(new Error('the device went away'))
    await expect(opening).rejects.toThrow('the device went away')
  })
})

describe('look', () => {
  test('behavior: pending until the person approves, then their profile', async () => {
    relay.reset()
    const channel = await opened()
    expect(await Farcaster.look(config, channel)).toBe('pending')
    await relay.approve(channel.channelToken, { signer: person, fid: 7 })
    expect(await Farcaster.look(config, channel)).toMatchInlineSnapshot(`
      {
        "profile": {
          "avatar": "https://i.imgur.com/alice.png",
          "email": null,
          "emailVerified": false,
          "subject": "7",
          "username": "alice",
        },
      }
    `)
  })

  test.each([
    ['another nonce (another flow\'s answer)', { signer: person, fid: 7, message: { nonce: 'anotherflownonce1234' } }, /Invalid nonce/],
    ['another domain', { signer: person, fid: 7, message: { domain: 'evil.example' } }, /Invalid domain/],
    ['a signer that holds no fid', { signer: stranger, fid: 7 }, /does not own fid 7/],
    ["the custody of another fid", { signer: other, fid: 7 }, /does not own fid 7/],
    ['a signature of another message', { signer: person, fid: 7, answer: { signature: '0x' + '11'.repeat(65) } }, /verifySignInMessage refused/],
    ['a relay naming another fid than the message', { signer: person, fid: 7, answer: { fid: 8 } }, /named fid 8 for a message signed for fid 7/],
    ['no signature', { signer: person, fid: 7, answer: { signature: undefined } }, /malformed/],
    ['no message', { signer: person, fid: 7, answer: { message: 42 } }, /malformed/],
  ] as const)('error: an answer with %s is invalid', async (_, approval, cause) => {
    relay.reset()
    const channel = await opened()
    await relay.approve(channel.channelToken, approval)
    const looked = await Farcaster.look(config, channel)
    expect(looked).toMatchObject({ reason: 'invalid', cause: expect.stringMatching(cause) })
  })

  test('error: a channel the relay does not know (expired, already read) is invalid', async () => {
    relay.reset()
    const { nonce } = await opened()
    expect(await Farcaster.look(config, { nonce, channelToken: Ids.random() })).toMatchObject({ reason: 'invalid', cause: expect.stringMatching(/401/) })
  })

  test.each([
    ['javascript:', 'javascript:alert(1)', null],
    ['ftp:', 'ftp://example.com/a.png', null],
    ['longer than 500 characters', `https://example.com/${'a'.repeat(500)}.png`, null],
    ['no string', 42, null],
    ['http:', 'http://example.com/a.png', 'http://example.com/a.png'],
  ])('param: a picture URL (%s) is kept only when http(s) and at most 500 characters', async (_, pfpUrl, avatar) => {
    relay.reset()
    const channel = await opened()
    await relay.approve(channel.channelToken, { signer: person, fid: 7, answer: { pfpUrl } })
    expect(await Farcaster.look(config, channel)).toMatchObject({ profile: { avatar } })
  })

  test.each([
    ['of 120 characters', `  ${'b'.repeat(120)} `, 'b'.repeat(100)],
    ['of spaces', '   ', null],
    ['missing', undefined, null],
  ])('param: a username %s is trimmed to at most 100 characters, or none', async (_, username, kept) => {
    relay.reset()
    const channel = await opened()
    await relay.approve(channel.channelToken, { signer: person, fid: 7, answer: { username } })
    expect(await Farcaster.look(config, channel)).toMatchObject({ profile: { username: kept } })
  })

  test('error: a relay that fails (5xx) throws Unavailable, not invalid', async () => {
    relay.reset()
    const channel = await opened()
    relay.state.mode = 'failing'
    await expect(Farcaster.look(config, channel)).rejects.toThrow(Farcaster.Unavailable)
  })

  test('error: an unreachable relay throws Unavailable, not invalid', async () => {
    relay.reset()
    const channel = await opened()
    await expect(Farcaster.look({ ...config, relay: 'http://127.0.0.1:1' }, channel)).rejects.toThrow(Farcaster.Unavailable)
  })

  test('error: a relay that never answers is given up after the timeout', async () => {
    relay.reset()
    const channel = await opened()
    relay.state.mode = 'silent'
    const error = await Farcaster.look({ ...config, timeoutMs: 200 }, channel).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Farcaster.Unavailable)
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError' })
  })

  test('error: an unreachable RPC throws Unavailable, not invalid (the answer is checked again on the next redeem)', async () => {
    relay.reset()
    const channel = await opened()
    await relay.approve(channel.channelToken, { signer: person, fid: 7 })
    await expect(Farcaster.look({ ...config, rpcUrl: 'http://127.0.0.1:1' }, channel)).rejects.toThrow(Farcaster.Unavailable)
    expect(await Farcaster.look(config, channel)).toMatchObject({ profile: { subject: '7' } })
  })

  test("error: the caller's abort stops the look with its reason", async () => {
    relay.reset()
    const channel = await opened()
    relay.state.mode = 'silent'
    const controller = new AbortController()
    const looking = Farcaster.look(config, channel, controller.signal)
    controller.abort(new Error('the device went away'))
    await expect(looking).rejects.toThrow('the device went away')
  })
})

describe('siweNonce', () => {
  test('behavior: an EIP-4361 nonce (letters and digits) from a base64url flow nonce, one per flow', () => {
    const a = Farcaster.siweNonce('aB-_' + Ids.random())
    expect(a).toMatch(/^[a-zA-Z0-9]{8,}$/)
    expect(Farcaster.siweNonce('aB-_' + Ids.random())).not.toBe(a)
  })
})

describe('fromEnv', () => {
  const rpc = 'https://mainnet.optimism.io'

  test.each([
    ['off without an RPC', {}, undefined],
    ['off with only the devnet relay', { DOORWAY_FARCASTER_DEVNET: 'http://127.0.0.1:8800' }, undefined],
    ["on with an RPC, on Farcaster's relay", { DOORWAY_FARCASTER_RPC: rpc }, { relay: 'https://relay.farcaster.xyz', rpcUrl: 'https://mainnet.optimism.io/' }],
    ['on the devnet relay', { DOORWAY_FARCASTER_DEVNET: 'http://127.0.0.1:8800', DOORWAY_FARCASTER_RPC: 'http://127.0.0.1:8545' }, { relay: 'http://127.0.0.1:8800', rpcUrl: 'http://127.0.0.1:8545/' }],
    ['on another relay, its path kept', { DOORWAY_FARCASTER_RELAY: 'https://relay.example/farcaster/', DOORWAY_FARCASTER_RPC: `${rpc}/key` }, { relay: 'https://relay.example/farcaster', rpcUrl: `${rpc}/key` }],
  ])('behavior: %s', (_, env, expected) => {
    const config = Farcaster.fromEnv(env, secure)
    if (expected === undefined) return expect(config).toBeUndefined()
    expect(config).toEqual({ ...expected, domain: '127.0.0.1:5175', siweUri: 'http://127.0.0.1:5175/farcaster' })
  })

  test('behavior: the domain and uri are the secure origin\'s', () => {
    expect(Farcaster.fromEnv({ DOORWAY_FARCASTER_RPC: rpc }, 'https://secure.doorway.example')).toMatchObject({ domain: 'secure.doorway.example', siweUri: 'https://secure.doorway.example/farcaster' })
  })

  test.each([
    ['DOORWAY_FARCASTER_RPC', { DOORWAY_FARCASTER_RPC: 'http://rpc.example' }],
    ['DOORWAY_FARCASTER_RPC', { DOORWAY_FARCASTER_RPC: 'wss://rpc.example' }],
    ['DOORWAY_FARCASTER_RELAY', { DOORWAY_FARCASTER_RPC: rpc, DOORWAY_FARCASTER_RELAY: 'http://relay.example' }],
    ['DOORWAY_FARCASTER_DEVNET', { DOORWAY_FARCASTER_RPC: rpc, DOORWAY_FARCASTER_DEVNET: 'not a url' }],
  ])('error: refuses %s that is not https (http only to loopback): %j', (variable, env) => {
    expect(() => Farcaster.fromEnv(env, secure)).toThrow(variable)
  })
})
