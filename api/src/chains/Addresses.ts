/**
 * Which accounts a network can have (spec §5 Address formats): an EVM network a 0x-prefixed 40-hex-digit
 * address, a Solana network a base58 string of 32 bytes, a Bitcoin network a segwit (bech32/bech32m) or
 * legacy (Base58Check) address of that network. The route table lets any of these through; the routes
 * then hold the address to the network asked for.
 */
import * as Address from '@doorway/shared/Address'
import type { ChainId } from '@doorway/shared/Caip'
import * as Http from '../http.js'
import * as Base58 from './Base58.js'
import * as Bech32 from './Bech32.js'

/** A Bitcoin network's address prefixes: its bech32 human-readable part and Base58Check versions. */
type BitcoinParams = { hrp: string; versions: readonly number[] }

// CAIP-2 bip122 references are the first 32 hex digits of the genesis block hash.
const bitcoinNetworks: Readonly<Record<string, BitcoinParams>> = {
  '000000000019d6689c085ae165831e93': { hrp: 'bc', versions: [0x00, 0x05] },
  '0f9188f13cb7b2c71f2a335e3a4fc328': { hrp: 'bcrt', versions: [0x6f, 0xc4] },
}
// testnet3, testnet4 and signet share their prefixes.
const testnet: BitcoinParams = { hrp: 'tb', versions: [0x6f, 0xc4] }

export function isEvm(address: string): boolean {
  return Address.isEvmAddress(address) && address.startsWith('0x')
}

/** Base58 of exactly 32 bytes: an ed25519 public key or a program-derived address. */
export function isSolana(address: string): boolean {
  return Address.isSolanaAddress(address) && Base58.decode(address)?.length === 32
}

/** A P2PKH, P2SH or segwit address of the Bitcoin network `chainId`. */
export function isBitcoin(address: string, chainId: ChainId): boolean {
  return ofBitcoinNetwork(address, bitcoinNetworks[chainId.slice('bip122:'.length)] ?? testnet)
}

function ofBitcoinNetwork(address: string, { hrp, versions }: BitcoinParams): boolean {
  if (Bech32.decodeSegwit(hrp, address)) return true
  const payload = Base58.decodeCheck(address)
  return payload?.length === 21 && versions.includes(payload[0]!)
}

/** Whether `address` can be an account of any namespace the api reads (on any Bitcoin network it knows). */
export function isAny(address: string): boolean {
  if (isEvm(address) || isSolana(address)) return true
  return [...Object.values(bitcoinNetworks), testnet].some((params) => ofBitcoinNetwork(address, params))
}

/** Whether `address` can be an account on `chainId`. */
export function fits(chainId: ChainId, address: string): boolean {
  if (chainId.startsWith('eip155:')) return isEvm(address)
  if (chainId.startsWith('solana:')) return isSolana(address)
  if (chainId.startsWith('bip122:')) return isBitcoin(address, chainId)
  return false
}

/**
 * `address` if it can be an account on `chainId` (a bech32 one in lower case, as Esplora writes it),
 * else a 400 saying what that network takes.
 */
export function check(chainId: ChainId, address: string, name = 'address'): string {
  if (fits(chainId, address)) return chainId.startsWith('bip122:') && Bech32.decode(address) ? address.toLowerCase() : address
  if (chainId.startsWith('solana:')) throw Http.badRequest(`Invalid ${name}: expected a Solana address (base58 of 32 bytes) on ${chainId}`)
  if (chainId.startsWith('bip122:')) throw Http.badRequest(`Invalid ${name}: expected a Bitcoin address (bech32 or base58) of ${chainId}`)
  return Http.address(address, name)
}

/** The key a checked address is cached under: EVM addresses in any case are one account, base58 ones are not. */
export function key(chainId: ChainId, address: string): string {
  return chainId.startsWith('eip155:') ? address.toLowerCase() : address
}
