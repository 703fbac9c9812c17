import * as BitcoinKeys from '@doorway/devnet/bitcoin/keys'
import * as SolanaKeys from '@doorway/devnet/solana/keys'
import type { ChainId } from '@doorway/shared/Caip'
import { describe, expect, test } from 'vitest'
import * as Addresses from './Addresses.js'

const mainnet = 'bip122:000000000019d6689c085ae165831e93'
const regtest = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const testnet = 'bip122:000000000933ea01ad0ee984209779ba'
const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

describe('fits', () => {
  // BIP173 and BIP350 test vectors, legacy addresses of each network, and the devnet's own keys.
  test.each([
    [mainnet, 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
    [mainnet, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    [mainnet, 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    [mainnet, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    [mainnet, '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    [testnet, 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
    [testnet, 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
    [regtest, BitcoinKeys.payment(0).address],
    [solana, '11111111111111111111111111111111'],
    [solana, 'So11111111111111111111111111111111111111112'],
    [solana, SolanaKeys.address(0)],
    ['eip155:1', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
  ])('behavior: %s takes %s', (chainId, address) => {
    expect(Addresses.fits(chainId as ChainId, address) && Addresses.isAny(address)).toBe(true)
  })

  test.each([
    ['a bech32m checksum on a v0 program', mainnet, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
    ['a bech32 checksum on a v1 program', mainnet, 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'],
    ['a mixed-case bech32', mainnet, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8F3t4'],
    ['a changed character', mainnet, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
    ['a mainnet address on regtest', regtest, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['a regtest address on mainnet', mainnet, BitcoinKeys.payment(0).address],
    ['a testnet legacy address on mainnet', mainnet, 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
    ['a legacy address with a wrong checksum', mainnet, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'],
    ['a Solana address on Bitcoin', mainnet, SolanaKeys.address(0)],
    ['base58 of 30 bytes', solana, 'a'.repeat(40)],
    ['an EVM address on Solana', solana, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
    ['an EVM address without 0x', 'eip155:1', 'A0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
    ['a Solana address on an EVM network', 'eip155:1', SolanaKeys.address(0)],
  ])('error: %s is refused', (_, chainId, address) => {
    expect(Addresses.fits(chainId as ChainId, address)).toBe(false)
  })

  test('param: nothing of any namespace is no address at all', () => {
    expect(['a'.repeat(40), 'vitalik.eth', '0x123', ''].map(Addresses.isAny)).toEqual([false, false, false, false])
  })
})

describe('check', () => {
  test('behavior: a bech32 address is taken in lower case, as Esplora writes it; base58 as it is', () => {
    expect(Addresses.check(mainnet, 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')
    expect(Addresses.check(mainnet, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')
    expect(Addresses.check(solana, SolanaKeys.address(1))).toBe(SolanaKeys.address(1))
  })

  test.each([
    [solana, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'Invalid account: expected a Solana address (base58 of 32 bytes) on solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
    [regtest, SolanaKeys.address(0), `Invalid account: expected a Bitcoin address (bech32 or base58) of ${regtest}`],
    ['eip155:1', 'a'.repeat(40), 'Invalid account: expected a 0x-prefixed 40-hex-digit address'],
  ])('error: on %s, %s is a 400 saying what the network takes', (chainId, address, message) => {
    expect(() => Addresses.check(chainId as ChainId, address, 'account')).toThrow(expect.objectContaining({ status: 400, message }))
  })
})
