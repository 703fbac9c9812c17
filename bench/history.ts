/**
 * The history indexer's figures (issue 10), on a throwaway anvil and api of their own: indexing
 * throughput from a cold index (blocks of ERC-20 mints and an NFT airdrop each), and the history route's
 * latency under 50 concurrent requests for accounts with a few hundred entries. `npm run bench` calls
 * `measure`; `npx tsx bench/history.ts` prints these figures alone.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChainId } from '@doorway/shared/Caip'
import { type Hex, encodeDeployData, encodeFunctionData } from 'viem'
import * as Anvil from '@doorway/devnet/anvil'
import { freePort, latency } from './load.js'
import * as Indexer from '@doorway/api/indexer'
import * as Rpc from '@doorway/api/rpc'
import * as Server from '@doorway/api/server'
import * as Embedded from '@doorway/api/storage/embedded'
import { contracts, projectId, testConfig } from '@doorway/api/testing'

const blocks = 500
const recipients = 10
const tokenMintsPerBlock = 2
const nftsPerBlock = 4
const concurrency = 50
const requests = 1_000
const chainId: ChainId = 'eip155:31337'
// anvil's first default account: unlocked, so eth_sendTransaction needs no signing here.
const sender = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

export type Figures = {
  blocks: number
  transfers: number
  indexSeconds: number
  blocksPerSecond: number
  transfersPerSecond: number
  entriesPerAccount: number
  requests: number
  concurrency: number
  p50Ms: number
  p95Ms: number
}

export async function measure(): Promise<Figures> {
  const [anvilPort, apiPort] = [await freePort(), await freePort()]
  const chain = { id: 31337, port: anvilPort, rpcUrl: `http://127.0.0.1:${anvilPort}` }
  const anvil = await Anvil.start({ chains: [chain] })
  const dir = await mkdtemp(join(tmpdir(), 'doorway-bench-history-'))
  try {
    const config = { ...testConfig({ [chainId]: chain.rpcUrl }), port: apiPort, publicUrl: `http://127.0.0.1:${apiPort}`, storage: { kind: 'embedded' as const, dir } }
    const rpc = Rpc.create(config)
    const accounts = Array.from({ length: recipients }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`)
    const transfers = await makeBlocks(rpc, accounts)
    const index = await indexCold(rpc, dir)
    const latency = await historyLatency(config, accounts)
    return {
      blocks: index.blocks,
      transfers,
      indexSeconds: round(index.seconds),
      blocksPerSecond: round(index.blocks / index.seconds),
      transfersPerSecond: round(transfers / index.seconds),
      entriesPerAccount: (blocks * (tokenMintsPerBlock + nftsPerBlock)) / recipients,
      requests,
      concurrency,
      ...latency,
    }
  } finally {
    await anvil.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

/** The bench's chain: per block, ERC-20 mints and one NFT airdrop, to accounts taken in turn. Returns the transfers made. */
async function makeBlocks(rpc: Rpc.Rpc, accounts: string[]): Promise<number> {
  const { TestToken, TestNft } = contracts()
  const metadata = `data:application/json,${encodeURIComponent(JSON.stringify({ name: 'Bench', image: 'data:image/svg+xml,%3Csvg%2F%3E' }))}`
  const token = await deploy(rpc, encodeDeployData({ abi: TestToken.abi, bytecode: TestToken.bytecode }))
  const nft = await deploy(rpc, encodeDeployData({ abi: TestNft.abi, bytecode: TestNft.bytecode, args: ['Bench NFTs', metadata] }))
  await rpc(chainId, 'evm_setAutomine', [false])
  let turn = 0
  const next = () => accounts[turn++ % accounts.length]!
  for (let b = 0; b < blocks; b++) {
    const calls = [
      ...Array.from({ length: tokenMintsPerBlock }, () => ({ to: token, data: encodeFunctionData({ abi: TestToken.abi, functionName: 'mint', args: [next(), 10n ** 18n] }) })),
      { to: nft, data: encodeFunctionData({ abi: TestNft.abi, functionName: 'airdrop', args: [Array.from({ length: nftsPerBlock }, next), BigInt(b * nftsPerBlock)] }) },
    ]
    // One after another: anvil gives each the next pending nonce.
    for (const call of calls) await rpc(chainId, 'eth_sendTransaction', [{ from: sender, gas: '0x100000', ...call }])
    await rpc(chainId, 'evm_mine', [])
  }
  await rpc(chainId, 'evm_setAutomine', [true])
  return blocks * (tokenMintsPerBlock + nftsPerBlock)
}

async function deploy(rpc: Rpc.Rpc, data: Hex): Promise<Hex> {
  const hash = await rpc(chainId, 'eth_sendTransaction', [{ from: sender, data }])
  const receipt = (await rpc(chainId, 'eth_getTransactionReceipt', [hash])) as { contractAddress: Hex }
  return receipt.contractAddress
}

/** Indexes the whole chain into a fresh on-disk store, as a new api would. */
async function indexCold(rpc: Rpc.Rpc, dir: string): Promise<{ blocks: number; seconds: number }> {
  const storage = await Embedded.open(dir)
  try {
    const indexer = Indexer.create({ rpc, storage })
    const latest = Number(await rpc(chainId, 'eth_blockNumber'))
    const started = performance.now()
    while ((await storage.index.head(chainId)).next <= latest) await indexer.sync(chainId)
    return { blocks: latest + 1, seconds: (performance.now() - started) / 1000 }
  } finally {
    await storage.close()
  }
}

/** First pages of the accounts' history from the api over the index just built, `concurrency` at a time. */
async function historyLatency(config: Parameters<typeof Server.start>[0], accounts: string[]): Promise<{ p50Ms: number; p95Ms: number }> {
  const api = await Server.start(config)
  try {
    return await latency(
      async (i) => {
        const account = accounts[i % accounts.length]!
        const res = await fetch(`${api.url}/v1/account/${account}/history?chainId=${chainId}&projectId=${projectId}&st=appkit&sv=bench`)
        const body = (await res.json()) as { data?: unknown[] }
        if (res.status !== 200 || body.data?.length !== 20) throw new Error(`History answered ${res.status} with ${body.data?.length} entries`)
      },
      { requests, concurrency },
    )
  } finally {
    await api.stop()
  }
}

const round = (n: number) => Math.round(n * 10) / 10

export function format(f: Figures): string[] {
  return [
    `History indexer (issue 10), a throwaway anvil and api; ${f.blocks} blocks, ${f.transfers} transfers (ERC-20 and ERC-721) from a cold index`,
    `  indexing        ${String(f.blocksPerSecond).padStart(8)} blocks/s   ${String(f.transfersPerSecond).padStart(8)} transfers/s   (${f.indexSeconds} s)`,
    `  history route   p50 ${f.p50Ms.toFixed(1).padStart(6)} ms   p95 ${f.p95Ms.toFixed(1).padStart(6)} ms   (${f.requests} first pages, ${f.concurrency} concurrent, ${f.entriesPerAccount} entries per account)`,
  ]
}




if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(format(await measure()).join('\n'))
