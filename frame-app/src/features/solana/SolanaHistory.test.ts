import * as SolanaTokens from '@doorway/devnet/solana/tokens'
import type { Keypair } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as SolanaConfirm from './SolanaConfirm.js'
import { HistoryUnavailableError } from './SolanaErrors.js'
import * as SolanaHistory from './SolanaHistory.js'
import * as SolanaRpc from './SolanaRpc.js'
import * as SolanaTransfer from './SolanaTransfer.js'
import { closedUrl, freshAddress, funded, lamportsPerSol, sign, startChain } from './solana.testing.js'

let setup: Awaited<ReturnType<typeof startChain>>
let dusd: { mint: string; decimals: number }
let sender: Keypair
let from: string
const to = freshAddress()
const sent: { sol?: string; spl?: string; rent?: bigint } = {}

async function land(built: SolanaTransfer.Built) {
  const signature = await SolanaConfirm.broadcast(setup.rpc, sign(built.bytes, sender))
  await SolanaConfirm.confirm(setup.rpc, signature, built.lastValidBlockHeight, { intervalMs: 10 })
  return signature
}

beforeAll(async () => {
  setup = await startChain()
  ;({ dusd } = await SolanaTokens.deploy(setup.chain))
  sender = await funded(setup.chain, 3)
  from = sender.publicKey.toBase58()
  sent.sol = await land(await SolanaTransfer.sol({ rpc: setup.rpc, from, to, lamports: (3n * lamportsPerSol) / 2n }))
  const spl = await SolanaTransfer.spl({ rpc: setup.rpc, from, to, mint: dusd.mint, amount: 25n * 10n ** BigInt(dusd.decimals), decimals: dusd.decimals })
  sent.rent = spl.rentLamports
  sent.spl = await land(spl)
})
afterAll(() => setup.chain.stop())

const options = () => ({ chainId: setup.chain.chainId, limit: 10, tokens: [{ mint: dusd.mint, symbol: 'DUSD', name: 'Doorway Dollar' }] })

describe('read', () => {
  test('behavior: the sender sees both sends, newest first, as the Activity tab lists entries', async () => {
    const [spl, sol] = await SolanaHistory.read(setup.rpc, from, options())
    expect(spl).toMatchObject({
      id: sent.spl,
      metadata: { operationType: 'send', hash: sent.spl, sentFrom: from, sentTo: to, status: 'confirmed', chain: setup.chain.chainId },
      transfers: [
        { fungible_info: { name: 'Doorway Dollar', symbol: 'DUSD' }, direction: 'out', quantity: { numeric: '25' }, sender: from, recipient: to },
        // the rent of the receiver's new token account (165 bytes)
        { fungible_info: { name: 'Solana', symbol: 'SOL' }, direction: 'out', quantity: { numeric: '0.00203928' } },
      ],
      solana: { fee: 5_000n, lamports: -sent.rent!, tokens: [{ mint: dusd.mint, amount: -25n * 10n ** BigInt(dusd.decimals), decimals: dusd.decimals }] },
    })
    expect(sol).toMatchObject({
      id: sent.sol,
      metadata: { operationType: 'send', sentFrom: from, sentTo: to, status: 'confirmed' },
      transfers: [{ fungible_info: { symbol: 'SOL' }, direction: 'out', quantity: { numeric: '1.5' }, sender: from, recipient: to }],
      solana: { fee: 5_000n, lamports: -1_500_000_000n, tokens: [] },
    })
    expect(Date.parse(sol!.metadata.minedAt)).not.toBeNaN()
  })

  test('behavior: the receiver sees both as receives', async () => {
    const entries = await SolanaHistory.read(setup.rpc, to, options())
    expect(entries.map((e) => [e.id, e.metadata.operationType, e.transfers.map((t) => `${t.direction} ${t.quantity.numeric} ${t.fungible_info?.symbol}`)])).toEqual([
      [sent.spl, 'receive', ['in 25 DUSD']],
      [sent.sol, 'receive', ['in 1.5 SOL']],
    ])
  })

  test('behavior: pages with `before`', async () => {
    const [first] = await SolanaHistory.read(setup.rpc, to, { ...options(), limit: 1 })
    const [second] = await SolanaHistory.read(setup.rpc, to, { ...options(), limit: 1, before: first!.id })
    expect([first!.id, second!.id]).toEqual([sent.spl, sent.sol])
  })

  test('behavior: a mint the dapp does not name shows by its address', async () => {
    const [spl] = await SolanaHistory.read(setup.rpc, to, { chainId: setup.chain.chainId, limit: 1 })
    expect(spl!.transfers[0]!.fungible_info).toEqual({ name: dusd.mint, symbol: `${dusd.mint.slice(0, 4)}…${dusd.mint.slice(-4)}` })
  })

  test('error: RPC down is spec §8 Failed to fetch transactions', async () => {
    const rpc = SolanaRpc.create(await closedUrl())
    const error = await SolanaHistory.read(rpc, to, options()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HistoryUnavailableError)
    expect((error as Error).message).toBe('Failed to fetch transactions')
  })

  test.each([[0], [101], [1.5]])('param: refuses limit %s', async (limit) => {
    await expect(SolanaHistory.read(setup.rpc, to, { ...options(), limit })).rejects.toThrowError(RangeError)
  })

  test('param: needs a Solana address (spec §5)', async () => {
    await expect(SolanaHistory.read(setup.rpc, '', options())).rejects.toThrowError(TypeError)
  })
})
