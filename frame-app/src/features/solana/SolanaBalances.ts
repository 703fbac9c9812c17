/**
 * The SOL and SPL token balances of a Solana account, read from its node: `getBalance`, and
 * `getTokenAccountsByOwner` for the classic Token program (jsonParsed). The dapp's `tokens` option names
 * the mints it knows (symbol, name, image); a mint it does not name is still listed, by its address.
 * Any failure is spec §8 'Token Balance Unavailable' (BalanceUnavailableError, the cause inside).
 */
import { isSolanaAddress } from '@doorway/shared/Address'
import * as S from '@doorway/shared/Schema'
import { TOKEN_PROGRAM_ID } from '@solana/spl-token'
import { BalanceUnavailableError } from './SolanaErrors.js'
import type { Rpc } from './SolanaRpc.js'
import { base58, digits, lamports, loose, withContext } from './internal/shape.js'

/** The classic SPL Token program; Token-2022 accounts are not read (notes/namespaces.md §1: none locally). */
export const tokenProgramId = TOKEN_PROGRAM_ID.toBase58()

export type TokenInfo = { mint: string; symbol?: string; name?: string; image?: string }
export type TokenBalance = TokenInfo & { amount: bigint; decimals: number }
export type Balances = { lamports: bigint; tokens: TokenBalance[] }

export declare namespace read {
  type Options = { tokens?: readonly TokenInfo[]; signal?: AbortSignal }
}

/**
 * The account's lamports and the tokens it holds: a positive amount, summed over its token accounts of a
 * mint. The dapp's tokens come first in its order, then the others by mint. A mint with 0 decimals is an
 * NFT and left out (spec §9 'Tokens with 0 decimals are filtered out'), unless the dapp names it.
 */
export async function read(rpc: Rpc, owner: string, options: read.Options = {}): Promise<Balances> {
  const { signal } = options
  try {
    if (!isSolanaAddress(owner)) throw new TypeError(`Not a Solana address: ${owner}`)
    const commitment = { commitment: 'confirmed' }
    const [balance, accounts] = await Promise.all([
      rpc.call('getBalance', [owner, commitment], withContext(lamports), signal),
      rpc.call('getTokenAccountsByOwner', [owner, { programId: tokenProgramId }, { ...commitment, encoding: 'jsonParsed' }], tokenAccounts, signal),
    ])
    return { lamports: BigInt(balance.value), tokens: tokensOf(accounts.value, owner, options.tokens ?? []) }
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    throw new BalanceUnavailableError(error)
  }
}

const tokenAccount = loose({
  pubkey: base58,
  account: loose({
    data: loose({
      parsed: loose({
        info: loose({
          mint: base58,
          owner: base58,
          tokenAmount: loose({ amount: digits, decimals: (x): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 255 }),
        }),
      }),
    }),
  }),
})
const tokenAccounts = withContext(S.array(tokenAccount, 10_000))
type TokenAccount = S.Infer<typeof tokenAccount>

function tokensOf(accounts: readonly TokenAccount[], owner: string, known: readonly TokenInfo[]): TokenBalance[] {
  const byMint = new Map<string, { amount: bigint; decimals: number }>()
  for (const { account } of accounts) {
    const { mint, tokenAmount } = account.data.parsed.info
    // Only what the node says this owner holds is theirs.
    if (account.data.parsed.info.owner !== owner) continue
    const before = byMint.get(mint)
    byMint.set(mint, { amount: (before?.amount ?? 0n) + BigInt(tokenAmount.amount), decimals: tokenAmount.decimals })
  }
  const rank = (mint: string) => {
    const index = known.findIndex((t) => t.mint === mint)
    return index < 0 ? known.length : index
  }
  return [...byMint]
    .map(([mint, held]): TokenBalance => ({ ...known.find((t) => t.mint === mint), mint, ...held }))
    .filter((t) => t.amount > 0n && (t.decimals > 0 || rank(t.mint) < known.length))
    .sort((a, b) => rank(a.mint) - rank(b.mint) || (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0))
}
