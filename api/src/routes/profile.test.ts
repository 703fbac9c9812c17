import { createRequire } from 'node:module'
import type { ChainId } from '@doorway/shared/Caip'
import * as Ids from '@doorway/shared/Ids'
import * as Name from '@doorway/shared/Name'
import { type Abi, type Address, type Hex, encodeDeployData, encodeFunctionData, getContractAddress, serializeErc6492Signature } from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as App from '../app.js'
import type { Config } from '../config.js'
import { projectId, testConfig, testDeps } from '../testing.js'

// A port apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chain = { id: 31337, port: 18661, rpcUrl: 'http://127.0.0.1:18661' }
const local: ChainId = 'eip155:31337'
const coinType = Name.ensip11CoinType(chain.id)

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
const now = 1_750_000_000_000
const seconds = Math.floor(now / 1000)

let anvil: Anvil.start.ReturnType
beforeAll(async () => {
  anvil = await Anvil.start({ chains: [chain] })
}, 60_000)
afterAll(() => anvil?.stop())

const served = () => testConfig({ [local]: chain.rpcUrl })

function setup(config: Config = served()) {
  const { deps, calls } = testDeps(config, { now: () => now })
  const app = App.create(deps)
  const get = (path: string) => app.request(`${path}${path.includes('?') ? '&' : '?'}projectId=${projectId}`)
  const register = async (body: Record<string, unknown>) => {
    const res = await app.request(`/v1/profile/account?projectId=${projectId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as { success?: true; message?: string } }
  }
  return { app, deps, calls, get, register }
}

/** A registration as the frame-app sends it: Name.registrationMessage with a fresh nonce, signed by `account`. */
async function signed(account: HDAccount = alice, fields: Partial<Record<keyof Name.Registration, unknown>> = {}) {
  const registration = { name: 'alice.doorway.id', attributes: { bio: 'hi' }, timestamp: seconds, nonce: Ids.random(), ...fields } as Name.Registration
  const message = Name.registrationMessage(registration)
  return { coin_type: coinType, address: account.address, message, signature: await account.signMessage({ message }) }
}

const profileOf = (address: Address, attributes: Record<string, string>, name = 'alice.doorway.id', coin = coinType) => ({
  name,
  addresses: { [coin]: { address } },
  attributes,
})

describe('POST /v1/profile/account', () => {
  test('behavior: registers a signed name, then resolves it both ways; an EOA needs no node call', async () => {
    const { calls, get, register } = setup()
    expect(await register(await signed())).toEqual({ status: 200, body: { success: true } })
    expect(calls).toEqual([])
    const profile = profileOf(alice.address, { bio: 'hi' })
    expect(await (await get('/v1/profile/account/alice.doorway.id?apiVersion=2')).json()).toEqual(profile)
    expect(await (await get('/v1/profile/account/ALICE')).json()).toEqual(profile)
    expect(await (await get(`/v1/profile/reverse/${alice.address.toLowerCase()}?sender=${alice.address}&apiVersion=2`)).json()).toEqual([profile])
    expect(await (await get(`/v1/profile/reverse/${bob.address}`)).json()).toEqual([])
  })

  test('behavior: coin type 60 is Ethereum, served when the api serves eip155:1', async () => {
    const { get, register } = setup(testConfig({ 'eip155:1': chain.rpcUrl }))
    expect((await register({ ...(await signed()), coin_type: '60' })).status).toBe(200)
    expect(await (await get('/v1/profile/account/alice')).json()).toEqual(profileOf(alice.address, { bio: 'hi' }, 'alice.doorway.id', 60))
  })

  test('behavior: the holder may register its name again with new attributes; reverse still lists one', async () => {
    const { get, register } = setup()
    await register(await signed())
    expect((await register(await signed(alice, { name: 'ALICE', attributes: { bio: 'new' }, timestamp: seconds + 1 }))).status).toBe(200)
    expect(await (await get(`/v1/profile/reverse/${alice.address}`)).json()).toEqual([profileOf(alice.address, { bio: 'new' })])
  })

  test('error: an address that has a name cannot register a second one (409)', async () => {
    const { get, register } = setup()
    await register(await signed())
    expect(await register(await signed(alice, { name: 'alice2' }))).toEqual({
      status: 409,
      body: { message: `Address ${alice.address} already has the name alice.doorway.id` },
    })
    expect((await get('/v1/profile/account/alice2')).status).toBe(404)
  })

  test('error: a name registered to another address is 409', async () => {
    const { get, register } = setup()
    await register(await signed())
    expect(await register(await signed(bob))).toEqual({ status: 409, body: { message: 'Name alice.doorway.id is registered to another address' } })
    expect(await (await get('/v1/profile/account/alice')).json()).toEqual(profileOf(alice.address, { bio: 'hi' }))
  })

  test('error: a registration sent again is 409 and changes nothing, even after a newer one', async () => {
    const { get, register } = setup()
    const first = await signed()
    await register(first)
    expect(await register(first)).toEqual({ status: 409, body: { message: 'This registration was sent already: sign a new one (its nonce is spent)' } })
    await register(await signed(alice, { attributes: { bio: 'newer' } }))
    expect((await register(first)).status).toBe(409)
    expect((await (await get('/v1/profile/account/alice')).json()).attributes).toEqual({ bio: 'newer' })
  })

  test('behavior: a nonce is spent per address: another address may sign the same one', async () => {
    const { register } = setup()
    const nonce = Ids.random()
    expect((await register(await signed(alice, { nonce }))).status).toBe(200)
    expect((await register(await signed(bob, { name: 'bobby', nonce }))).status).toBe(200)
  })

  test('behavior: a refused registration leaves its nonce unspent', async () => {
    const { register } = setup()
    await register(await signed(bob))
    const nonce = Ids.random()
    expect((await register(await signed(alice, { nonce }))).status).toBe(409)
    expect((await register(await signed(alice, { name: 'alice2', nonce }))).status).toBe(200)
  })

  test.each([
    ['the name', { name: 'mallory' }],
    ['the attributes', { attributes: { bio: 'pwned' } }],
    ['the timestamp', { timestamp: seconds - 1 }],
    ['the nonce', { nonce: Ids.random() }],
  ])('error: a message with %s changed after signing is 401', async (_, change) => {
    const { register } = setup()
    const body = await signed()
    const tampered = Name.registrationMessage({ ...(JSON.parse(body.message) as Name.Registration), ...change })
    expect(await register({ ...body, message: tampered })).toEqual({ status: 401, body: { message: 'The signature is not the address’s signature of the message' } })
  })

  test('error: a signature by someone else, or not a signature at all, is 401', async () => {
    const { register } = setup()
    const body = await signed()
    for (const signature of [(await signed(bob)).signature, await bob.signMessage({ message: body.message }), '0x1234']) {
      const res = await register({ ...body, signature })
      expect(res.status).toBe(401)
      expect(res.body.message).toMatch(/signature/)
    }
  })

  test.each([
    ['an old timestamp', { timestamp: seconds - 601 }, 'more than 10 minutes old'],
    ['a future timestamp', { timestamp: seconds + 31 }, 'in the future'],
    ['a millisecond timestamp', { timestamp: now + 0.5 }, 'Unix seconds'],
    ['a short name', { name: 'abc' }, 'Invalid name'],
    ['a name with dots', { name: 'al.ice' }, 'Invalid name'],
    ['another zone', { name: 'alice.other.id' }, 'Invalid name'],
    ['non-string attributes', { attributes: { n: 1 } }, 'attributes'],
    ['no nonce', { nonce: undefined }, 'nonce must be 32 lowercase hex digits'],
    ['a short nonce', { nonce: 'ab'.repeat(15) }, 'nonce must be 32 lowercase hex digits'],
    ['an uppercase nonce', { nonce: 'AB'.repeat(16) }, 'nonce must be 32 lowercase hex digits'],
    ['a non-hex nonce', { nonce: 'zz'.repeat(16) }, 'nonce must be 32 lowercase hex digits'],
    ['a 0x nonce', { nonce: `0x${'ab'.repeat(15)}` }, 'nonce must be 32 lowercase hex digits'],
    ['a numeric nonce', { nonce: 12345 }, 'nonce must be 32 lowercase hex digits'],
  ])('error: %s is 400', async (_, fields, message) => {
    const { register } = setup()
    const res = await register(await signed(alice, fields))
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
  })

  test.each([
    ['60 without eip155:1', 60, 'Unsupported coin_type 60: this api does not serve eip155:1'],
    ['a chain not served', Name.ensip11CoinType(10), 'Unsupported coin_type 2147483658: this api does not serve eip155:10'],
    ['Bitcoin', 0, 'Unsupported coin_type 0: expected 60 (Ethereum) or an EVM chain’s 0x80000000 | chainId'],
    ['chain 0', 0x80000000, 'Unsupported coin_type 2147483648: expected'],
  ])('error: coin_type of %s is 400', async (_, coin_type, message) => {
    const { calls, register } = setup()
    const res = await register({ ...(await signed()), coin_type })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
    expect(calls).toEqual([])
  })

  test('behavior: a timestamp 9 minutes old, or 30 seconds ahead, is accepted', async () => {
    const { register } = setup()
    expect((await register(await signed(alice, { timestamp: seconds - 540 }))).status).toBe(200)
    expect((await register(await signed(alice, { timestamp: seconds + 30 }))).status).toBe(200)
  })

  test.each([
    ['coin_type', { coin_type: -1 }],
    ['address', { address: 'nope' }],
    ['message', { message: 'not json' }],
    ['signature', { signature: 'zz' }],
  ])('param: a bad %s is 400', async (_, fields) => {
    const { register } = setup()
    const res = await register({ ...(await signed()), ...fields })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts/)
  })

  test('error: projectId is required', async () => {
    const { app } = setup()
    expect((await app.request('/v1/profile/account', { method: 'POST', body: JSON.stringify(await signed()) })).status).toBe(400)
  })

  test('error: when the node does not answer, a signature that needs it is 502; an EOA still registers', async () => {
    const { calls, register } = setup(testConfig({ [local]: 'http://127.0.0.1:1' }))
    const body = await signed()
    const res = await register({ ...body, signature: (await signed(bob)).signature })
    expect(res).toEqual({ status: 502, body: { message: 'Could not check the signature on eip155:31337: The node for eip155:31337 did not answer' } })
    expect(calls.map((c) => c.method)).toEqual(['eth_call'])
    expect((await register(body)).status).toBe(200)
  })
})

describe('POST /v1/profile/account from a contract account', () => {
  // ERC-1271: a wallet whose owner's signature of the hash is its own; made through a CREATE2 factory.
  const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract TestWallet {
  address public owner;
  constructor(address owner_) { owner = owner_; }
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    if (signature.length != 65) return 0xffffffff;
    (bytes32 r, bytes32 s) = abi.decode(signature[:64], (bytes32, bytes32));
    return ecrecover(hash, uint8(signature[64]), r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}
contract TestWalletFactory {
  function deploy(address owner, bytes32 salt) external returns (address) { return address(new TestWallet{salt: salt}(owner)); }
}
`
  type Compiled = Record<'TestWallet' | 'TestWalletFactory', { abi: Abi; bytecode: Hex }>
  let compiled: Compiled
  let factory: Address
  let salt = 0n
  const anvilHolder = mnemonicToAccount(mnemonic, { addressIndex: 9 }).address

  beforeAll(async () => {
    const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }
    const input = { language: 'Solidity', sources: { 'Wallet.sol': { content: source } }, settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } }
    type Output = { contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as Output
    const get = (name: keyof Compiled) => ({ abi: output.contracts['Wallet.sol']![name]!.abi, bytecode: `0x${output.contracts['Wallet.sol']![name]!.evm.bytecode.object}` as Hex })
    compiled = { TestWallet: get('TestWallet'), TestWalletFactory: get('TestWalletFactory') }
    const { client, wallet } = Anvil.clients(chain, anvilHolder)
    const hash = await wallet.deployContract({ ...compiled.TestWalletFactory })
    factory = (await client.waitForTransactionReceipt({ hash })).contractAddress!
  }, 60_000)

  /** A wallet owned by `owner`: its address, and the factory call that makes it. */
  function counterfactual(owner: Address) {
    const salt32 = `0x${(++salt).toString(16).padStart(64, '0')}` as Hex
    const data = encodeFunctionData({ abi: compiled.TestWalletFactory.abi, functionName: 'deploy', args: [owner, salt32] })
    const bytecode = encodeDeployData({ abi: compiled.TestWallet.abi, bytecode: compiled.TestWallet.bytecode, args: [owner] })
    return { address: getContractAddress({ opcode: 'CREATE2', from: factory, salt: salt32, bytecode }), data }
  }

  async function deployed(owner: Address): Promise<Address> {
    const { address, data } = counterfactual(owner)
    const { client, wallet } = Anvil.clients(chain, anvilHolder)
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: factory, data }) })
    return address
  }

  test('behavior: a deployed ERC-1271 wallet registers with its owner’s signature, checked on its chain', async () => {
    const { calls, get, register } = setup()
    const walletAddress = await deployed(alice.address)
    const body = { ...(await signed(alice, { name: 'wallet' })), address: walletAddress }
    expect(await register(body)).toEqual({ status: 200, body: { success: true } })
    expect(calls.map((c) => `${c.chainId} ${c.method}`)).toEqual(['eip155:31337 eth_call'])
    expect(await (await get(`/v1/profile/reverse/${walletAddress}`)).json()).toEqual([profileOf(walletAddress, { bio: 'hi' }, 'wallet.doorway.id')])
  })

  test('error: a deployed wallet with a signature by someone other than its owner is 401', async () => {
    const { register } = setup()
    const walletAddress = await deployed(alice.address)
    expect((await register({ ...(await signed(bob, { name: 'wallet' })), address: walletAddress })).status).toBe(401)
  })

  test('behavior: a wallet not deployed yet registers with an ERC-6492 signature', async () => {
    const { register } = setup()
    const { address: walletAddress, data } = counterfactual(alice.address)
    const body = await signed(alice, { name: 'unborn' })
    const signature = serializeErc6492Signature({ address: factory, data, signature: body.signature })
    expect(await register({ ...body, address: walletAddress, signature })).toEqual({ status: 200, body: { success: true } })
    const byBob = await signed(bob, { name: 'unborn2' })
    const wrongOwner = serializeErc6492Signature({ address: factory, data, signature: byBob.signature })
    expect((await register({ ...byBob, address: walletAddress, signature: wrongOwner })).status).toBe(401)
  })
})

describe('GET /v1/profile/account/:name', () => {
  test('error: unknown names are 404 with a message; invalid names 400', async () => {
    const { get } = setup()
    const res = await get('/v1/profile/account/nobody.doorway.id')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Name nobody.doorway.id is not registered' })
    expect((await get('/v1/profile/account/a_b')).status).toBe(400)
  })
})

describe('GET /v1/profile/reverse/:address', () => {
  test('param: the address must be an EVM address', async () => {
    const { get } = setup()
    expect((await get('/v1/profile/reverse/0x123')).status).toBe(400)
  })
})

describe('GET /v1/profile/suggestions/:name', () => {
  test('behavior: the name when free, then free numbered variants', async () => {
    const { get, register } = setup()
    expect(await (await get('/v1/profile/suggestions/alice')).json()).toMatchInlineSnapshot(`
      {
        "suggestions": [
          {
            "name": "alice.doorway.id",
            "registered": false,
          },
          {
            "name": "alice1.doorway.id",
            "registered": false,
          },
          {
            "name": "alice2.doorway.id",
            "registered": false,
          },
          {
            "name": "alice3.doorway.id",
            "registered": false,
          },
        ],
      }
    `)
    await register(await signed())
    await register(await signed(bob, { name: 'alice2' }))
    const names = (await (await get('/v1/profile/suggestions/Alice?zone=doorway.id')).json()).suggestions.map((s: { name: string }) => s.name)
    expect(names).toEqual(['alice1.doorway.id', 'alice3.doorway.id', 'alice4.doorway.id', 'alice5.doorway.id'])
  })

  test.each([['abc'], ['with space'], ['under_score']])('param: %s is not a valid name (400)', async (name) => {
    const { get } = setup()
    const res = await get(`/v1/profile/suggestions/${encodeURIComponent(name)}`)
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Invalid name: at least 4 characters, only letters, digits and hyphens')
  })

  test('param: only the doorway.id zone is served', async () => {
    const { get } = setup()
    expect((await get('/v1/profile/suggestions/alice?zone=eth')).status).toBe(400)
  })
})
