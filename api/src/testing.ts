/**
 * Test helpers for the api's route tests: an in-memory Storage (and an in-memory PGlite one for the
 * history index), a small Config, Deps with an RPC that counts its calls, and (for the history tests)
 * compiled test contracts: a token, a swap, an ERC-721, an ERC-1155 and a WETH9.
 */
import { createRequire } from 'node:module'
import { PGlite } from '@electric-sql/pglite'
import * as Anvil from '@doorway/devnet/anvil'
import type { ChainId } from '@doorway/shared/Caip'
import {
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  http,
  parseEther,
} from 'viem'
import { type PrivateKeyAccount, generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Config, Exchange, Token } from './config.js'
import type { Deps } from './deps.js'
import * as Indexer from './indexer.js'
import * as Rpc from './rpc.js'
import * as Sql from './storage/sql.js'
import { AddressHasName, NameTaken, NonceUsed, type NameRecord, type SessionRecord, type Storage } from './storage/Storage.js'

export const projectId = 'test-project'

/** The real SQL store on an in-memory PGlite: the history index has no double. */
export async function testStorage(): Promise<Storage> {
  const db = await PGlite.create()
  return Sql.create(db, () => db.close())
}

/**
 * A Storage double with the same rules as the real ones: names taken by another address fail, one name
 * per address, a registration nonce once per address, addresses match in any case. It holds no history
 * index (use testStorage).
 */
export function memoryStorage(): Storage {
  const names = new Map<string, NameRecord>()
  const nonces = new Map<string, number>()
  const sessions: SessionRecord[] = []
  const key = (address: string) => address.toLowerCase()
  const analytics: Parameters<Storage['analytics']['add']>[0][] = []
  const putName = (record: NameRecord) => {
    const held = [...names.values()].find((r) => key(r.address) === key(record.address) && r.name !== record.name)
    if (held) throw new AddressHasName(record.address, held.name)
    const existing = names.get(record.name)
    if (existing && key(existing.address) !== key(record.address)) throw new NameTaken(`Name ${record.name} is registered to another address`)
    names.set(record.name, record)
  }
  return {
    analytics: {
      async add(event) {
        analytics.push(event)
      },
      async list(id, limit = 100) {
        return analytics.filter((e) => e.projectId === id).slice(-limit).reverse()
      },
    },
    names: {
      async get(name) {
        return names.get(name)
      },
      // As the SQL stores: newest registration first, ties by name.
      async byAddress(address) {
        return [...names.values()]
          .filter((r) => key(r.address) === key(address))
          .sort((a, b) => b.registeredAt - a.registeredAt || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      },
      async put(record) {
        putName(record)
      },
      async register(record, nonce) {
        for (const [spent, keepUntil] of nonces) if (keepUntil < record.registeredAt) nonces.delete(spent)
        const spent = `${key(record.address)} ${nonce.value}`
        if (nonces.has(spent)) throw new NonceUsed(`Nonce ${nonce.value} of ${record.address} was used already`)
        putName(record)
        nonces.set(spent, nonce.keepUntil)
      },
    },
    sessions: {
      // As the SQL stores: newest first, ties by pci.
      async list(address) {
        return sessions
          .filter((s) => key(s.address) === key(address))
          .sort((a, b) => b.createdAt - a.createdAt || (a.pci < b.pci ? -1 : a.pci > b.pci ? 1 : 0))
          .map((s) => ({ ...s }))
      },
      async get(address, pci) {
        const session = sessions.find((s) => key(s.address) === key(address) && s.pci === pci)
        return session && { ...session }
      },
      async put(record) {
        const i = sessions.findIndex((s) => key(s.address) === key(record.address) && s.pci === record.pci)
        if (i >= 0) sessions[i] = { ...record }
        else sessions.push({ ...record })
      },
      async add(record) {
        if (sessions.some((s) => key(s.address) === key(record.address) && s.pci === record.pci)) return false
        sessions.push({ ...record })
        return true
      },
      async revoke(address, pci) {
        const session = sessions.find((s) => key(s.address) === key(address) && s.pci === pci && !s.revoked)
        if (session) session.revoked = true
        return session !== undefined
      },
    },
    index: { head: noIndex, append: noIndex, rewind: noIndex, history: noIndex, holdings: noIndex },
    nfts: { get: noIndex, put: noIndex },
    async close() {},
  }
}

const noIndex = () => Promise.reject(new Error('memoryStorage holds no history index: use testStorage()'))

/**
 * A config over the given nodes (CAIP-2 id → RPC URL), each an anvil-like network with ETH, the given
 * tokens and, where given, an exchange (devnet/src/exchange.ts deploys one).
 */
export function testConfig(
  rpcUrls: Partial<Record<ChainId, string>> = {},
  tokens: Partial<Record<ChainId, Token[]>> = {},
  exchanges: Partial<Record<ChainId, Exchange>> = {},
): Config {
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const entries = Object.entries(rpcUrls) as [ChainId, string][]
  return {
    host: '127.0.0.1',
    port: 8787,
    publicUrl: 'http://api.test',
    networks: Object.fromEntries(
      entries.map(([id, rpcUrl]) => {
        const exchange = exchanges[id]
        return [id, { rpcUrl, name: `Anvil ${id.split(':')[1]}`, nativeCurrency: ether, testnet: true, tokens: tokens[id] ?? [], ...(exchange && { exchange }) }]
      }),
    ),
    projects: { [projectId]: { origins: ['http://localhost:5173'] } },
    prices: { ETH: 3000, DUSD: 1, DWT: 0.25, DUSDT: 1 },
    storage: { kind: 'embedded', dir: '/nonexistent' },
  }
}

/** Deps over a config, with the real JSON-RPC client wrapped to record every call. */
export function testDeps(config: Config, overrides: Partial<Deps> = {}): { deps: Deps; calls: { chainId: ChainId; method: string }[] } {
  const calls: { chainId: ChainId; method: string }[] = []
  const rpc = overrides.rpc ?? Rpc.create(config)
  const counting: Rpc.Rpc = (chainId, method, params, signal) => {
    calls.push({ chainId, method })
    return rpc(chainId, method, params, signal)
  }
  const storage = overrides.storage ?? memoryStorage()
  const indexer = overrides.indexer ?? Indexer.create({ rpc: counting, storage })
  return { deps: { config, now: Date.now, ...overrides, storage, indexer, rpc: counting }, calls }
}

/**
 * A bare ERC-20 (mint for anyone; emits Transfer and Approval) and a swap contract that takes one token
 * and pays out another, so tests can make sends, approvals, trades, plain calls and failed calls.
 */
const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract TestToken {
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  function mint(address to, uint256 value) external { balanceOf[to] += value; emit Transfer(address(0), to, value); }
  function transfer(address to, uint256 value) external returns (bool) { move(msg.sender, to, value); return true; }
  function approve(address spender, uint256 value) external returns (bool) {
    allowance[msg.sender][spender] = value; emit Approval(msg.sender, spender, value); return true;
  }
  function transferFrom(address from, address to, uint256 value) external returns (bool) {
    allowance[from][msg.sender] -= value; move(from, to, value); return true;
  }
  function move(address from, address to, uint256 value) private { balanceOf[from] -= value; balanceOf[to] += value; emit Transfer(from, to, value); }
}
contract TestSwap {
  function swap(TestToken give, TestToken take, uint256 amountIn, uint256 amountOut) external {
    give.transferFrom(msg.sender, address(this), amountIn);
    take.transfer(msg.sender, amountOut);
  }
  function claim(TestToken token, uint256 amount) external { token.transfer(msg.sender, amount); }
  function ping() external {}
  function fail() external pure { revert("no"); }
}
contract TestNft {
  string public name;
  string private metadata;
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
  event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
  constructor(string memory name_, string memory metadata_) { name = name_; metadata = metadata_; }
  function mint(address to, uint256 id) external { emit Transfer(address(0), to, id); }
  function airdrop(address[] calldata to, uint256 firstId) external {
    for (uint256 i = 0; i < to.length; i++) emit Transfer(address(0), to[i], firstId + i);
  }
  function transferFrom(address from, address to, uint256 id) external { emit Transfer(from, to, id); }
  function approve(address to, uint256 id) external { emit Approval(msg.sender, to, id); }
  function setApprovalForAll(address operator, bool approved) external { emit ApprovalForAll(msg.sender, operator, approved); }
  function tokenURI(uint256) external view returns (string memory) { return metadata; }
}
contract TestItems {
  string public name;
  string private template;
  event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
  event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
  constructor(string memory name_, string memory template_) { name = name_; template = template_; }
  function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values) external { emit TransferBatch(msg.sender, address(0), to, ids, values); }
  function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external { emit TransferSingle(msg.sender, from, to, id, value); }
  function uri(uint256) external view returns (string memory) { return template; }
}
contract TestWeth {
  event Deposit(address indexed dst, uint256 wad);
  event Withdrawal(address indexed src, uint256 wad);
  function deposit() external payable { emit Deposit(msg.sender, msg.value); }
  function withdraw(uint256 wad) external { emit Withdrawal(msg.sender, wad); payable(msg.sender).transfer(wad); }
}
`

export type ContractName = 'TestToken' | 'TestSwap' | 'TestNft' | 'TestItems' | 'TestWeth'

export type Compiled = Record<ContractName, { abi: Abi; bytecode: Hex }>

let compiled: Compiled | undefined

/** The test contracts, compiled once per test file with the solc the devnet pins. */
export function contracts(): Compiled {
  if (compiled) return compiled
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: { 'Test.sol': { content: source } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  type Output = { errors?: { severity: string; formattedMessage: string }[]; contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as Output
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const get = (name: ContractName) => {
    const c = output.contracts['Test.sol']![name]!
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as Hex }
  }
  compiled = { TestToken: get('TestToken'), TestSwap: get('TestSwap'), TestNft: get('TestNft'), TestItems: get('TestItems'), TestWeth: get('TestWeth') }
  return compiled
}

/** Transactions on a local anvil chain from fresh funded accounts, so each test owns its history. */
export function testChain(chain: { id: number; rpcUrl: string }) {
  const viemChain = Anvil.viemChain(chain)
  const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl), pollingInterval: 50 })
  const test = createTestClient({ chain: viemChain, mode: 'anvil', transport: http(chain.rpcUrl) })
  const all = contracts()

  async function send(from: PrivateKeyAccount, tx: { to?: Address; value?: bigint; data?: Hex; gas?: bigint }): Promise<TransactionReceipt> {
    const wallet = createWalletClient({ chain: viemChain, transport: http(chain.rpcUrl), account: from })
    const hash = tx.to ? await wallet.sendTransaction({ ...tx, to: tx.to }) : await wallet.deployContract({ abi: [], bytecode: tx.data! })
    return client.waitForTransactionReceipt({ hash })
  }

  return {
    client,
    test,
    /** A new account holding 100 ETH (set directly, so no transaction shows in its history). */
    async account(): Promise<PrivateKeyAccount> {
      const account = privateKeyToAccount(generatePrivateKey())
      await test.setBalance({ address: account.address, value: parseEther('100') })
      return account
    },
    send,
    /** Deploys a test contract; TestNft and TestItems take (name, metadata URI or URI template). */
    async deploy(from: PrivateKeyAccount, name: ContractName, args: unknown[] = []): Promise<Address> {
      const receipt = await send(from, { data: encodeDeployData({ abi: all[name].abi, bytecode: all[name].bytecode, args }) })
      return getAddress(receipt.contractAddress!)
    },
    /** Calls a test contract function; `gas` set skips estimation, so a reverting call is mined as failed. */
    call(from: PrivateKeyAccount, to: Address, functionName: string, args: unknown[] = [], gas?: bigint, value?: bigint) {
      const abi = Object.values(all).flatMap((c) => c.abi)
      return send(from, { to, data: encodeFunctionData({ abi, functionName, args }), ...(gas ? { gas } : {}), ...(value ? { value } : {}) })
    },
  }
}
