/**
 * A Solana account's SOL (getBalance) and the configured SPL tokens it holds (getTokenAccountsByOwner
 * under both token programs, jsonParsed), summed over its token accounts per mint.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as S from '@doorway/shared/contracts/Described'
import * as Assets from '../assets.js'
import type { SolanaNetwork, Token } from '../config.js'
import type { Deps } from '../deps.js'
import * as Solana from './Solana.js'

export type Amounts = {
  /** Lamports. */
  native: bigint
  /** The configured tokens held (amount above 0), in base units with the mint's own decimals. */
  tokens: { token: Token; amount: bigint; decimals: number }[]
}

export async function amounts(deps: Pick<Deps, 'rpc'>, chainId: ChainId, network: SolanaNetwork, address: string, signal?: AbortSignal): Promise<Amounts> {
  const balance = Solana.call(
    deps,
    chainId,
    { method: 'getBalance', params: [address, { commitment: Solana.commitment }], what: `the SOL balance of ${address}` },
    Solana.withContext(Solana.lamports),
    signal,
  )
  const lists = Solana.tokenPrograms.map((programId) =>
    Solana.call(
      deps,
      chainId,
      {
        method: 'getTokenAccountsByOwner',
        params: [address, { programId }, { encoding: 'jsonParsed', commitment: Solana.commitment }],
        what: `the token accounts of ${address}`,
      },
      Solana.withContext(S.array(S.unknown, 100_000)),
      signal,
    ),
  )
  const [{ value: lamports }, ...answers] = await Promise.all([balance, ...lists])
  const held = byMint(answers.flatMap((answer) => answer.value.filter(Solana.tokenAccount)))
  const tokens = Assets.listedTokens(network).flatMap((token) => {
    const found = held.get(token.address)
    return found && found.amount > 0n ? [{ token, ...found }] : []
  })
  return { native: BigInt(lamports), tokens }
}

/** Each mint's total over the owner's token accounts (an owner may hold several of one mint). */
function byMint(accounts: readonly Solana.TokenAccount[]): Map<string, { amount: bigint; decimals: number }> {
  const totals = new Map<string, { amount: bigint; decimals: number }>()
  for (const { account } of accounts) {
    const { mint, tokenAmount } = account.data.parsed.info
    const total = totals.get(mint) ?? { amount: 0n, decimals: tokenAmount.decimals }
    total.amount += BigInt(tokenAmount.amount)
    totals.set(mint, total)
  }
  return totals
}
