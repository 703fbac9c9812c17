import * as SolanaTokens from '@doorway/devnet/solana/tokens'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as SolanaBalances from './SolanaBalances.js'
import { BalanceUnavailableError } from './SolanaErrors.js'
import * as SolanaRpc from './SolanaRpc.js'
import { closedUrl, freshAddress, lamportsPerSol, startChain } from './solana.testing.js'

let setup: Awaited<ReturnType<typeof startChain>>
let dusd: { mint: string; decimals: number }
beforeAll(async () => {
  setup = await startChain()
  ;({ dusd } = await SolanaTokens.deploy(setup.chain))
})
afterAll(() => setup.chain.stop())

describe('read', () => {
  test('behavior: SOL and the SPL tokens held, with the dapp’s names for its mints', async () => {
    const owner = freshAddress()
    await SolanaTokens.fund(setup.chain, owner, { sol: '3', dusd: '1234.5' })
    const tokens = [{ mint: dusd.mint, symbol: 'DUSD', name: 'Doorway Dollar', image: 'https://example.test/dusd.png' }]
    expect(await SolanaBalances.read(setup.rpc, owner, { tokens })).toEqual({
      lamports: 3n * lamportsPerSol,
      tokens: [{ ...tokens[0], amount: 1_234_500_000n, decimals: dusd.decimals }],
    })
  })

  test('behavior: a mint the dapp does not name is listed by its address', async () => {
    const owner = freshAddress()
    await SolanaTokens.fund(setup.chain, owner, { sol: '1', dusd: '0.000007' })
    expect((await SolanaBalances.read(setup.rpc, owner)).tokens).toEqual([{ mint: dusd.mint, amount: 7n, decimals: dusd.decimals }])
  })

  test('behavior: an account that does not exist holds nothing', async () => {
    expect(await SolanaBalances.read(setup.rpc, freshAddress())).toEqual({ lamports: 0n, tokens: [] })
  })

  test('error: RPC down is spec §8 Token Balance Unavailable', async () => {
    const rpc = SolanaRpc.create(await closedUrl())
    const error = await SolanaBalances.read(rpc, freshAddress()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BalanceUnavailableError)
    expect((error as Error).message).toBe('Token Balance Unavailable')
  })

  test('error: an owner that is not a Solana address', async () => {
    await expect(SolanaBalances.read(setup.rpc, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).rejects.toBeInstanceOf(BalanceUnavailableError)
  })

  test('behavior: a cancelled read rejects with the signal reason', async () => {
    await expect(SolanaBalances.read(setup.rpc, freshAddress(), { signal: AbortSignal.abort(new Error('closed')) })).rejects.toThrowError('closed')
  })
})
