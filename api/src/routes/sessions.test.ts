import { createServer, type Socket } from 'node:net'
import * as Anvil from '@doorway/devnet/anvil'
import * as SmartAccounts from '@doorway/devnet/smartAccounts/stack'
import type { ChainId } from '@doorway/shared/Caip'
import * as SessionsContract from '@doorway/shared/contracts/api/sessions'
import * as Permissions from '@doorway/shared/Permissions'
import {
  type Delegation as KitDelegation,
  Implementation,
  ScopeType,
  type ToMetaMaskSmartAccountReturnType,
  contracts,
  createDelegation,
  signDelegation,
  toMetaMaskSmartAccount,
} from '@metamask/smart-accounts-kit'
import { type Address, type Hex, http, parseEther, serializeErc6492Signature, toHex } from 'viem'
import { createBundlerClient, createPaymasterClient } from 'viem/account-abstraction'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from '../app.js'
import type { Config, EvmNetwork } from '../config.js'
import * as Rpc from '../rpc.js'
import type { SessionRecord, Storage } from '../storage/Storage.js'
import { projectId, testConfig, testDeps, testStorage } from '../testing.js'
import { revokeMessage, statusTimeoutMs } from './sessions.js'

// The kit reports its calls to MetaMask unless told not to; tests stay on loopback.
process.env.DO_NOT_TRACK = '1'

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })

/** A session recorded before the api kept delegations: its pci is no delegation hash. */
const legacy = (pci: string): SessionRecord => ({
  address: alice.address,
  pci,
  chainId: 'eip155:31337',
  permissions: [{ type: 'native-token-recurring-allowance' }],
  expiry: 1_900_000_000,
  revoked: false,
  createdAt: 1_750_000_000_000,
  delegation: null,
})

const post = (app: ReturnType<typeof App.create>, path: string, body: unknown) =>
  app.request(`${path}?projectId=${projectId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('sessions without a chain', () => {
  async function setup() {
    const { deps } = testDeps(testConfig())
    await deps.storage.sessions.put(legacy('pci-1'))
    await deps.storage.sessions.put(legacy('pci-2'))
    const app = App.create(deps)
    return { app, deps, revoke: (address: string, body: unknown) => post(app, `/v1/sessions/${address}/revoke`, body) }
  }

  describe('GET /v1/sessions/:address', () => {
    test('behavior: lists the address’s sessions, in any address case; a network no longer served gives the store’s state', async () => {
      const { app } = await setup()
      const res = await app.request(`/v1/sessions/${alice.address.toLowerCase()}?projectId=${projectId}`)
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body).toEqual({ pcis: ['pci-1', 'pci-2'].map((pci) => ({ ...legacy(pci), status: 'active', statusFrom: 'server' })) })
      expect(SessionsContract.sessions(body)).toBe(true)
      expect(await (await app.request(`/v1/sessions/${bob.address}?projectId=${projectId}`)).json()).toEqual({ pcis: [] })
    })

    test('behavior: by the server’s clock a past expiry is expired, and a revoked session revoked', async () => {
      const { app, deps } = await setup()
      await deps.storage.sessions.put({ ...legacy('pci-1'), expiry: 1_000 })
      await deps.storage.sessions.revoke(alice.address, 'pci-2')
      const { pcis } = await (await app.request(`/v1/sessions/${alice.address}?projectId=${projectId}`)).json()
      expect(pcis.map((s: SessionsContract.Session) => [s.pci, s.status, s.statusFrom])).toEqual([
        ['pci-1', 'expired', 'server'],
        ['pci-2', 'revoked', 'server'],
      ])
    })

    test('param: a bad address is 400, a missing projectId 400', async () => {
      const { app } = await setup()
      expect((await app.request(`/v1/sessions/alice?projectId=${projectId}`)).status).toBe(400)
      expect((await app.request(`/v1/sessions/${alice.address}`)).status).toBe(400)
    })
  })

  describe('POST /v1/sessions/:address/revoke', () => {
    test('behavior: the address’s signature revokes the session', async () => {
      const { app, revoke } = await setup()
      const signature = await alice.signMessage({ message: revokeMessage('pci-1') })
      const res = await revoke(alice.address, { pci: 'pci-1', signature })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ success: true })
      const { pcis } = await (await app.request(`/v1/sessions/${alice.address}?projectId=${projectId}`)).json()
      expect(pcis.map((s: SessionsContract.Session) => [s.pci, s.revoked, s.status])).toEqual([
        ['pci-1', true, 'revoked'],
        ['pci-2', false, 'active'],
      ])
      // already revoked: nothing active to revoke
      expect((await revoke(alice.address, { pci: 'pci-1', signature })).status).toBe(404)
    })

    test('error: another signer, or a signature over another pci, is 401 and revokes nothing', async () => {
      const { deps, revoke } = await setup()
      for (const signature of [await bob.signMessage({ message: revokeMessage('pci-1') }), await alice.signMessage({ message: revokeMessage('pci-2') })]) {
        const res = await revoke(alice.address, { pci: 'pci-1', signature })
        expect(res.status).toBe(401)
        expect((await res.json()).message).toMatch(/signature/)
      }
      expect((await deps.storage.sessions.list(alice.address)).every((s) => !s.revoked)).toBe(true)
    })

    test('error: an unknown session is 404', async () => {
      const { revoke } = await setup()
      const res = await revoke(alice.address, { pci: 'nope', signature: await alice.signMessage({ message: revokeMessage('nope') }) })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: `No active session nope for ${alice.address}` })
    })

    test.each([
      ['no pci', { signature: '0x12' }],
      ['no signature', { pci: 'pci-1' }],
      ['a non-hex signature', { pci: 'pci-1', signature: 'abc' }],
    ])('param: %s is 400', async (_, body) => {
      const { revoke } = await setup()
      expect((await revoke(alice.address, body)).status).toBe(400)
    })
  })
})

// A chain with the smart-account stack, on ports apart from the running stack's and other tests'; a
// network whose node refuses connections, and one whose node takes them and never answers.
const chain = { id: 31337, port: 19051, rpcUrl: 'http://127.0.0.1:19051' }
const ports = [{ bundler: 19052, paymaster: 19053 }]
const live: ChainId = 'eip155:31337'
const down: ChainId = 'eip155:31338'
const silent: ChainId = 'eip155:31339'
const silentPort = 19055
const dead: Address = '0x000000000000000000000000000000000000dEaD'

describe('sessions on a chain with smart accounts', () => {
  let anvil: Anvil.start.ReturnType
  let stack: SmartAccounts.start.ReturnType
  let storage: Storage
  let app: ReturnType<typeof App.create>
  let stopSilent: () => Promise<void>
  const { client } = Anvil.clients(chain, dead)
  const environment = () => stack.networks[0]!.environment

  beforeAll(async () => {
    anvil = await Anvil.start({ chains: [chain] })
    stack = await SmartAccounts.start({ chains: [chain], ports })
    stopSilent = await silentNode(silentPort)
    const { bundlerUrl, paymasterUrl } = stack.networks[0]!
    const smartAccounts = { bundlerUrl, paymasterUrl, environment: environment() }
    const base = testConfig({ [live]: chain.rpcUrl, [down]: 'http://127.0.0.1:19054', [silent]: `http://127.0.0.1:${silentPort}` })
    const networks = Object.fromEntries(Object.entries(base.networks).map(([id, network]) => [id, { ...(network as EvmNetwork), smartAccounts }]))
    const config: Config = { ...base, networks }
    storage = await testStorage()
    app = App.create(testDeps(config, { storage }).deps)
  }, 120_000)
  afterAll(async () => {
    await storage?.close()
    await stopSilent?.()
    await stack?.stop()
    await anvil?.stop()
  })

  const bundler = () => {
    const { bundlerUrl, paymasterUrl } = stack.networks[0]!
    return createBundlerClient({ client, transport: http(bundlerUrl), paymaster: createPaymasterClient({ transport: http(paymasterUrl) }), pollingInterval: 100 })
  }
  /** A person's HybridDeleGator (owned by a fresh key), deployed by a sponsored operation unless asked not to. */
  async function smartAccount({ deployed = true } = {}) {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toMetaMaskSmartAccount({ client, implementation: Implementation.Hybrid, deployParams: [owner.address, [], [], []], deploySalt: '0x', signer: { account: owner }, environment: environment() })
    if (deployed) await send(account, [{ to: dead, value: 0n }])
    return account
  }
  type Account = ToMetaMaskSmartAccountReturnType<Implementation.Hybrid>
  async function send(account: Account, calls: { to: Address; value?: bigint; data?: Hex }[]) {
    const receipt = await bundler().waitForUserOperationReceipt({ hash: await bundler().sendUserOperation({ account, calls }) })
    expect(receipt.success).toBe(true)
  }
  const chainTime = async () => Number((await client.getBlock()).timestamp)
  /** A session the kit builds: 0.01 ETH a day to a fresh session key, until `expiry`. */
  async function unsigned(from: Address, expiry: number): Promise<KitDelegation> {
    const to = privateKeyToAccount(generatePrivateKey()).address
    const scope = { type: ScopeType.NativeTokenPeriodTransfer, periodAmount: parseEther('0.01'), periodDuration: 86_400, startDate: await chainTime() } as const
    const salt = toHex(BigInt(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}`))
    return createDelegation({ from, to, environment: environment(), scope, caveats: [{ type: 'timestamp', afterThreshold: 0, beforeThreshold: expiry }], salt })
  }
  async function signed(account: Account, { expiry, chainId = chain.id }: { expiry?: number; chainId?: number } = {}): Promise<KitDelegation> {
    const delegation = await unsigned(account.address, expiry ?? (await chainTime()) + 86_400)
    return { ...delegation, signature: await account.signDelegation({ delegation, chainId }) }
  }
  const json = (delegation: KitDelegation) => Permissions.toJson({ ...delegation, salt: BigInt(delegation.salt) } as Permissions.Delegation)
  const pciOf = (delegation: KitDelegation) => Permissions.delegationHash(Permissions.fromJson(json(delegation)))

  const create = async (address: string, delegation: unknown, chainId: string = live) => {
    const res = await post(app, `/v1/sessions/${address}`, { chainId, delegation })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
  const list = async (address: string) => {
    const res = await app.request(`/v1/sessions/${address}?projectId=${projectId}`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(SessionsContract.sessions(body)).toBe(true)
    return (body as { pcis: SessionsContract.Session[] }).pcis
  }
  const revoke = async (address: string, pci: string, signature: Hex) => (await post(app, `/v1/sessions/${address}/revoke`, { pci, signature })).status

  describe('POST /v1/sessions/:address', () => {
    test('behavior: a deployed account’s signed delegation (ERC-1271) is recorded with its limits and listed active from the chain', async () => {
      const account = await smartAccount()
      const delegation = await signed(account)
      const pci = pciOf(delegation)
      const answer = await create(account.address, json(delegation))
      expect(answer).toEqual({ status: 200, body: { success: true, pci } })
      expect(SessionsContract.created(answer.body)).toBe(true)
      const [session, ...others] = await list(account.address)
      expect(others).toEqual([])
      const { expiry } = Permissions.fromCaveats(Permissions.fromJson(json(delegation)).caveats, environment().caveatEnforcers)
      expect(session).toEqual({
        address: account.address,
        pci,
        chainId: live,
        permissions: { permission: { type: 'native-token-periodic', period: { amount: parseEther('0.01').toString(), seconds: 86_400, start: expect.any(Number) } }, expiry },
        expiry,
        revoked: false,
        createdAt: expect.any(Number),
        delegation: json(delegation),
        status: 'active',
        statusFrom: 'chain',
      })
    })

    test('behavior: the same delegation again answers the same and changes nothing, even once revoked', async () => {
      const account = await smartAccount()
      const delegation = await signed(account)
      const pci = pciOf(delegation)
      expect((await create(account.address, json(delegation))).status).toBe(200)
      const [first] = await list(account.address)
      expect(await create(account.address, json(delegation))).toEqual({ status: 200, body: { success: true, pci } })
      expect(await list(account.address)).toEqual([first])
      expect(await revoke(account.address, pci, await account.signMessage({ message: revokeMessage(pci) }))).toBe(200)
      expect(await create(account.address, json(delegation))).toEqual({ status: 200, body: { success: true, pci } })
      expect((await list(account.address)).map((s) => [s.pci, s.revoked, s.status])).toEqual([[pci, true, 'revoked']])
      // Its hash does not cover the network: recorded on one, it is refused on another.
      expect(await create(account.address, json(delegation), down)).toEqual({ status: 409, body: { message: `Session ${pci} is recorded on ${live}` } })
    })

    test('behavior: an undeployed account signs by ERC-6492; a plain EOA by ECDSA', async () => {
      const account = await smartAccount({ deployed: false })
      const delegation = await signed(account)
      const { factory, factoryData } = await account.getFactoryArgs()
      // Unwrapped, nothing on chain can check it yet.
      expect((await create(account.address, json(delegation))).status).toBe(401)
      const wrapped = { ...delegation, signature: serializeErc6492Signature({ address: factory!, data: factoryData!, signature: delegation.signature }) }
      expect(await create(account.address, json(wrapped))).toEqual({ status: 200, body: { success: true, pci: pciOf(delegation) } })
      expect(await client.getCode({ address: account.address })).toBeUndefined()

      const eoa = generatePrivateKey()
      const eoaAddress = privateKeyToAccount(eoa).address
      const plain = await unsigned(eoaAddress, (await chainTime()) + 3600)
      const signature = await signDelegation({ privateKey: eoa, delegation: plain, delegationManager: environment().DelegationManager, chainId: chain.id })
      expect((await create(eoaAddress, json({ ...plain, signature }))).status).toBe(200)
      expect((await list(eoaAddress)).map((s) => [s.status, s.statusFrom])).toEqual([['active', 'chain']])
    })

    test('error: a signature by another key, or for another network, is 401 and records nothing', async () => {
      const account = await smartAccount()
      const other = await smartAccount({ deployed: false })
      const delegation = await unsigned(account.address, (await chainTime()) + 3600)
      const byOther = { ...delegation, signature: await other.signDelegation({ delegation, chainId: chain.id }) }
      const answer = await create(account.address, json(byOther))
      expect(answer).toEqual({ status: 401, body: { message: `The delegation’s signature is not ${account.address}’s on ${live}` } })
      const elsewhere = { ...delegation, signature: await account.signDelegation({ delegation, chainId: 1 }) }
      expect((await create(account.address, json(elsewhere))).status).toBe(401)
      expect(await list(account.address)).toEqual([])
    })

    test('error: a delegation from another address is 400', async () => {
      const account = await smartAccount({ deployed: false })
      const delegation = await signed(account)
      const answer = await create(bob.address, json(delegation))
      expect(answer).toEqual({ status: 400, body: { message: `Invalid delegation: its delegator ${account.address} is not ${bob.address}` } })
    })

    test('error: a caveat whose enforcer the network does not configure is 400', async () => {
      const account = await smartAccount({ deployed: false })
      const delegation = await signed(account)
      const stranger = privateKeyToAccount(generatePrivateKey()).address
      const swapped = { ...delegation, caveats: delegation.caveats.map((c, i) => (i === 0 ? { ...c, enforcer: stranger } : c)) }
      const answer = await create(account.address, json(swapped))
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/^Invalid delegation: /)
      expect(await list(account.address)).toEqual([])
    })

    test.each([
      ['no delegation', { chainId: live }, 'Invalid delegation: expected a signed delegation object'],
      ['a delegation that is not an object', { chainId: live, delegation: 'x' }, 'Invalid delegation: expected a signed delegation object'],
      ['a delegation without its fields', { chainId: live, delegation: { delegate: dead } }, /^Invalid delegation: ./],
      ['no chainId', { delegation: {} }, 'Invalid chainId: expected an EIP-155 network id like eip155:1'],
      ['a chainId of another namespace', { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', delegation: {} }, 'Invalid chainId: expected an EIP-155 network id like eip155:1'],
    ])('param: %s is 400', async (_, body, message) => {
      const res = await post(app, `/v1/sessions/${alice.address}`, body)
      expect(res.status).toBe(400)
      expect((await res.json()).message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message))
    })

    test('param: a malformed delegation (a bad salt, a short signature) is 400', async () => {
      const account = await smartAccount({ deployed: false })
      const good = json(await signed(account)) as Record<string, unknown>
      for (const bad of [{ ...good, salt: 'salty' }, { ...good, signature: 'abc' }, { ...good, caveats: [{ enforcer: dead }] }]) {
        const answer = await create(account.address, bad)
        expect(answer.status).toBe(400)
        expect(answer.body.message).toMatch(/^Invalid delegation: /)
      }
    })

    test('error: a network without smart accounts is 404', async () => {
      const account = await smartAccount({ deployed: false })
      expect(await create(account.address, json(await signed(account)), 'eip155:1')).toEqual({ status: 404, body: { message: 'No smart accounts on eip155:1' } })
    })

    test('error: a network whose node does not answer is 502, and nothing is recorded', async () => {
      const account = await smartAccount({ deployed: false })
      const delegation = await signed(account, { chainId: 31338 })
      const answer = await create(account.address, json(delegation), down)
      expect(answer.status).toBe(502)
      expect(answer.body.message).toMatch(/^Could not check the signature on eip155:31338: /)
      expect(await list(account.address)).toEqual([])
    })
  })

  describe('GET /v1/sessions/:address', () => {
    test('behavior: a delegation disabled on chain (DelegationManager.disableDelegation) is revoked, from the chain, though the api was never told', async () => {
      const account = await smartAccount()
      const delegation = await signed(account)
      const pci = pciOf(delegation)
      expect((await create(account.address, json(delegation))).status).toBe(200)
      await send(account, [{ to: environment().DelegationManager, data: contracts.DelegationManager.encode.disableDelegation({ delegation }) }])
      expect((await list(account.address)).map((s) => [s.pci, s.revoked, s.status, s.statusFrom])).toEqual([[pci, false, 'revoked', 'chain']])
    })

    test('behavior: where the node refuses or never answers, the list still answers in time, from the store and the server’s clock', async () => {
      const account = await smartAccount({ deployed: false })
      const now = Math.floor(Date.now() / 1000)
      const record = (chainId: ChainId, pci: Hex, expiry: number): SessionRecord => ({ ...legacy(pci), address: account.address, chainId, expiry, createdAt: expiry })
      await storage.sessions.put(record(down, pciOf(await signed(account)), now + 3600))
      await storage.sessions.put(record(silent, pciOf(await signed(account)), now - 10))
      const started = Date.now()
      const sessions = await list(account.address)
      expect(Date.now() - started).toBeLessThan(Rpc.timeoutMs)
      expect(statusTimeoutMs).toBeLessThan(Rpc.timeoutMs)
      expect(sessions.map((s) => [s.chainId, s.status, s.statusFrom])).toEqual([
        [down, 'active', 'server'],
        [silent, 'expired', 'server'],
      ])
    })
  })

  describe('POST /v1/sessions/:address/revoke', () => {
    test('behavior: a deployed smart account’s signature (ERC-1271) revokes its session; another key’s or another pci’s is 401', async () => {
      const account = await smartAccount()
      const other = await smartAccount({ deployed: false })
      const delegation = await signed(account)
      const pci = pciOf(delegation)
      expect((await create(account.address, json(delegation))).status).toBe(200)
      expect(await revoke(account.address, pci, await other.signMessage({ message: revokeMessage(pci) }))).toBe(401)
      expect(await revoke(account.address, pci, await account.signMessage({ message: revokeMessage(`${pci}0`) }))).toBe(401)
      expect((await list(account.address)).map((s) => s.status)).toEqual(['active'])
      expect(await revoke(account.address, pci, await account.signMessage({ message: revokeMessage(pci) }))).toBe(200)
      expect((await list(account.address)).map((s) => [s.revoked, s.status, s.statusFrom])).toEqual([[true, 'revoked', 'chain']])
    })

    test('behavior: a session disabled on chain but active at the api is revoked there too', async () => {
      const account = await smartAccount()
      const delegation = await signed(account)
      const pci = pciOf(delegation)
      expect((await create(account.address, json(delegation))).status).toBe(200)
      await send(account, [{ to: environment().DelegationManager, data: contracts.DelegationManager.encode.disableDelegation({ delegation }) }])
      expect(await revoke(account.address, pci, await account.signMessage({ message: revokeMessage(pci) }))).toBe(200)
      expect((await list(account.address)).map((s) => [s.revoked, s.status])).toEqual([[true, 'revoked']])
    })

    test('error: a session on a network whose node does not answer cannot be checked: 502, not revoked', async () => {
      const account = await smartAccount({ deployed: false })
      const pci = pciOf(await signed(account))
      await storage.sessions.put({ ...legacy(pci), address: account.address, chainId: down })
      expect(await revoke(account.address, pci, await account.signMessage({ message: revokeMessage(pci) }))).toBe(502)
      expect((await storage.sessions.get(account.address, pci))?.revoked).toBe(false)
    })
  })

  // Last: it moves the chain's clock ahead of the server's, which the bundler's and paymaster's time windows would notice.
  describe('expiry', () => {
    test('behavior: a session expires by the chain’s time, not the server’s', async () => {
      const account = await smartAccount()
      const expiry = (await chainTime()) + 600
      const delegation = await signed(account, { expiry })
      expect((await create(account.address, json(delegation))).status).toBe(200)
      expect((await list(account.address)).map((s) => [s.expiry, s.status])).toEqual([[expiry, 'active']])
      await client.request({ method: 'evm_increaseTime' as never, params: [3600] as never })
      await client.request({ method: 'evm_mine' as never, params: [] as never })
      expect(Date.now() / 1000).toBeLessThan(expiry)
      expect((await list(account.address)).map((s) => [s.status, s.statusFrom])).toEqual([['expired', 'chain']])
    })
  })
})

/** A node that takes connections and never answers, until stopped. */
async function silentNode(port: number): Promise<() => Promise<void>> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
}
