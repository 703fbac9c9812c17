/**
 * Farcaster's ID and key registries on a devnet anvil chain (docs/embedded-wallet.md §5), so that
 * auth-client's `viemConnector({ rpcUrl })` runs its real checks offline: `IdRegistry.idOf(custody)` names
 * the fid a custody address holds, and `KeyRegistry.keyDataOf(fid, key)` says whether a key is an auth
 * address of that fid. Both are installed at Farcaster's Optimism addresses, where the connector calls
 * them whatever chain its RPC serves. Dev only, never shipped.
 * `import * as Registry from './registry.js'` → `await Registry.installRegistry(rpcUrl, Client.users)`.
 */
import { type Address, type Hex, createTestClient, http, numberToHex, pad } from 'viem'

/** Farcaster's contracts on Optimism, as auth-client 0.7.1 calls them. */
export const addresses = {
  idRegistry: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b',
  keyRegistry: '0x00000000fc1237824fb747abde0ff18990e59b7e',
} as const satisfies Record<string, Address>

/**
 * Hand-written runtime code, no Solidity:
 * - ID registry: `mstore(0, sload(calldataload(4))) return(0, 32)`. Every call answers the storage slot
 *   named by its first argument, so `idOf(address)` reads the slot at the (left-padded) address.
 * - Key registry: `return(0, 64)`, 64 zero bytes, which `keyDataOf` decodes as state 0 and key type 0:
 *   no auth addresses, so a sign-in is checked against the fid's custody address.
 */
export const bytecode = {
  idRegistry: '0x6004355460005260206000f3',
  keyRegistry: '0x60406000f3',
} as const satisfies Record<string, Hex>

/** Installs both registries on the anvil chain at `rpcUrl` and records each user's fid under its custody address. */
export async function installRegistry(rpcUrl: string, users: readonly installRegistry.User[]): Promise<void> {
  const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl, { timeout: 10_000, retryCount: 0 }) })
  await anvil.setCode({ address: addresses.idRegistry, bytecode: bytecode.idRegistry })
  await anvil.setCode({ address: addresses.keyRegistry, bytecode: bytecode.keyRegistry })
  for (const user of users)
    await anvil.setStorageAt({ address: addresses.idRegistry, index: pad(user.custody.toLowerCase() as Hex), value: numberToHex(user.fid, { size: 32 }) })
}
export declare namespace installRegistry {
  type User = { fid: number; custody: Address }
}
