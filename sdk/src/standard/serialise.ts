/**
 * What crosses to the frame of a Wallet Standard wallet, built field by field: a wallet's account
 * objects keep their data in private fields behind getters, which structured clone drops (it would
 * send `{}`). Bytes stay Uint8Array: structured clone carries them as they are.
 */
import * as Protocol from '@doorway/shared/Protocol'

/** The Wallet Standard shapes this chunk reads (@wallet-standard/base's Wallet, WalletAccount). */
export type Account = {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly string[]
  readonly features: readonly string[]
  readonly label?: string | undefined
  readonly icon?: string | undefined
}
export type Wallet = {
  readonly name: string
  readonly icon: string
  readonly version: string
  readonly chains: readonly string[]
  readonly features: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly accounts: readonly Account[]
}

export function account(a: Account): Protocol.StandardAccount {
  // A fresh array: a wallet may keep using (or reuse) the one it handed out.
  return { address: a.address, publicKey: new Uint8Array(a.publicKey), chains: [...a.chains], features: [...a.features], label: a.label, icon: a.icon }
}

/** The wallet as the frame sees it: its features cut to the ones the frame may call. */
export function wallet(id: string, w: Wallet): Protocol.StandardWallet {
  const { name, icon, version, chains, features, accounts } = w
  return { id, name, icon, version, chains: [...chains], features: Protocol.standardFeatures.filter((f) => f in features), accounts: accounts.map(account) }
}

/**
 * A feature's output: accounts re-serialised, bytes and plain values as they are. Anything else (an
 * object or function a wallet added) is left out: it could not cross, or the frame would refuse it.
 */
export function output(out: unknown): Record<string, unknown> | null {
  if (typeof out !== 'object' || !out) return null
  const entries = Object.entries(out).map(([key, value]): [string, unknown] => [key, field(key, value)])
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined))
}

function field(key: string, value: unknown): unknown {
  if (key === 'accounts') return (value as Account[]).map(account)
  if (key === 'account') return account(value as Account)
  return value instanceof Uint8Array || (typeof value !== 'object' && typeof value !== 'function') ? value : undefined
}
