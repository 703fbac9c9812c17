import { getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token'
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Keys from './keys.js'
import * as SolanaRpc from './rpc.js'
import * as SolanaTokens from './tokens.js'

let chain: SolanaRpc.Chain
let connection: Connection
let deployed: SolanaTokens.Deployed

beforeAll(async () => {
  chain = await SolanaRpc.start({ port: 0 })
  connection = new Connection(chain.url, 'confirmed')
  deployed = await SolanaTokens.deploy(chain)
})
afterAll(() => chain.stop())

/** Whole DUSD units per owner, read as a wallet reads them (getParsedTokenAccountsByOwner). */
async function dusdOf(owner: string) {
  const { value } = await connection.getParsedTokenAccountsByOwner(new PublicKey(owner), { mint: new PublicKey(deployed.dusd.mint) })
  return value.map((entry) => (entry.account.data.parsed as { info: { tokenAmount: { uiAmountString: string } } }).info.tokenAmount.uiAmountString)
}

describe('deploy', () => {
  test('behavior: DUSD is a 6-decimal SPL Token mint at the address of key 999', async () => {
    expect(deployed).toEqual({ dusd: { mint: Keys.address(999), decimals: 6, symbol: 'DUSD', name: 'Doorway USD' } })
    const mint = await connection.getParsedAccountInfo(new PublicKey(deployed.dusd.mint))
    expect(mint.value?.owner.toBase58()).toBe(TOKEN_PROGRAM_ID.toBase58())
    expect(mint.value?.data).toMatchObject({ parsed: { type: 'mint', info: { decimals: 6, supply: '100000000000', mintAuthority: Keys.address(998), freezeAuthority: null } } })
  })

  test('behavior: dev keys 0–9 hold 100 SOL and 10,000 DUSD in their associated token accounts', async () => {
    for (let index = 0; index < 10; index++) {
      const owner = Keys.address(index)
      expect(await connection.getBalance(new PublicKey(owner))).toBe(100 * LAMPORTS_PER_SOL)
      expect(await dusdOf(owner)).toEqual(['10000'])
      const account = getAssociatedTokenAddressSync(new PublicKey(deployed.dusd.mint), new PublicKey(owner))
      expect((await connection.getTokenAccountBalance(account)).value.uiAmountString).toBe('10000')
    }
    expect(await dusdOf(Keys.address(10))).toEqual([])
  })

  test('behavior: a second deploy changes nothing', async () => {
    const supply = (await connection.getTokenSupply(new PublicKey(deployed.dusd.mint))).value.amount
    expect(await SolanaTokens.deploy(chain)).toEqual(deployed)
    expect((await connection.getTokenSupply(new PublicKey(deployed.dusd.mint))).value.amount).toBe(supply)
    expect(await connection.getBalance(new PublicKey(Keys.address(0)))).toBe(100 * LAMPORTS_PER_SOL)
  })

  test('behavior: the mint has the same address on a fresh chain', async () => {
    const other = await SolanaRpc.start({ port: 0 })
    try {
      expect((await SolanaTokens.deploy(other)).dusd.mint).toBe(deployed.dusd.mint)
    } finally {
      await other.stop()
    }
  })
})

describe('fund', () => {
  test('behavior: adds SOL and DUSD to a fresh address, creating its token account', async () => {
    const owner = Keypair.generate().publicKey.toBase58()
    await SolanaTokens.fund(chain, owner, { sol: '1.5', dusd: '25.75' })
    expect(await connection.getBalance(new PublicKey(owner))).toBe(1.5 * LAMPORTS_PER_SOL)
    expect(await dusdOf(owner)).toEqual(['25.75'])
    await SolanaTokens.fund(chain, owner, { dusd: '0.25' })
    expect(await dusdOf(owner)).toEqual(['26'])
  })

  test.each([
    ['a word', { dusd: 'lots' }, /dusd must be a positive amount/],
    ['a negative amount', { sol: '-1' }, /sol must be a positive amount/],
    ['too many decimals', { dusd: '0.0000001' }, /at most 6 decimals/],
    ['zero', { sol: '0' }, /more than 0/],
  ])('error: refuses %s', async (_, amounts, message) => {
    const owner = Keypair.generate().publicKey.toBase58()
    await expect(SolanaTokens.fund(chain, owner, amounts)).rejects.toThrow(message)
    expect(await connection.getBalance(new PublicKey(owner))).toBe(0)
  })
})
