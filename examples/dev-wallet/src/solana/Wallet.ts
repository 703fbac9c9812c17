/**
 * The dev wallet's Solana side: a Wallet Standard wallet (what Phantom or Solflare register on a page)
 * over dev key 0, for the demo and the e2e tests, the twin of the EIP-6963 wallet. Free of the DOM:
 * the approval step and the storage are injected, as in ../Wallet.ts.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { VersionedTransaction, type Keypair } from '@solana/web3.js'
import { ReadonlyWalletAccount, type registerWallet } from '@wallet-standard/wallet'
import * as Errors from '../Errors.js'
import type { Storage } from '../Wallet.js'
import * as Keys from './Keys.js'
import * as Siws from './Siws.js'

export type Wallet = Parameters<typeof registerWallet>[0]
type Account = ReadonlyWalletAccount

/** What the approval prompt shows: who asks, on which network, for what. */
export type Approval = { method: string; origin: string; chain: string; description: string }

// Wallet Standard names the local cluster `solana:localnet` (the frame maps it to the chain's CAIP-2).
export const chain = 'solana:localnet'
const signing = ['solana:signTransaction', 'solana:signAndSendTransaction', 'solana:signMessage', 'solana:signIn'] as const
const permittedKey = 'doorway-dev-wallet:solana-permitted'
const rpcTimeoutMs = 30_000

type Input = { account: Account; chain?: string }
type SendOptions = { preflightCommitment?: string; skipPreflight?: boolean; maxRetries?: number; minContextSlot?: number }
type Listener = (properties: { accounts: readonly Account[] }) => void

/** The wallet's state and what its features share, as ../Context.ts is for the EVM side. */
type Context = {
  readonly keypair: Keypair
  readonly account: Account
  readonly origin: string
  readonly rpcUrl: string
  readonly storage: Storage
  readonly approve: (approval: Approval) => Promise<boolean>
  /** `standard:events` change listeners. */
  readonly listeners: Set<Listener>
  /** The request flow under way; the next one starts once it settles (see `approved`). */
  queue: Promise<unknown>
}

export function create(options: create.Options) {
  const { approve, storage, origin, rpcUrl, name = 'Doorway Dev Wallet', icon } = options
  const keypair = Keys.devKey(options.mnemonic)
  const address = keypair.publicKey.toBase58()
  const account = new ReadonlyWalletAccount({ address, publicKey: keypair.publicKey.toBytes(), chains: [chain], features: signing })
  const context: Context = { keypair, account, origin, rpcUrl, storage, approve, listeners: new Set(), queue: Promise.resolve() }
  const wallet = {
    version: '1.0.0',
    name,
    icon,
    chains: [chain],
    get accounts() {
      return accounts(context)
    },
    features: { ...standardFeatures(context), ...signingFeatures(context), ...signInFeature(context) },
  } satisfies Wallet
  return { wallet, address, account }
}
export declare namespace create {
  type Options = {
    approve: (approval: Approval) => Promise<boolean>
    storage: Storage
    /** The page's origin, remembered as permitted on approval and the sign-in message's domain by default. */
    origin: string
    /** The Solana JSON-RPC node signAndSendTransaction sends to. */
    rpcUrl: string
    icon: Wallet['icon']
    name?: string
    mnemonic?: string
  }
}

function standardFeatures(context: Context) {
  return {
    'standard:connect': {
      version: '1.0.0',
      connect: async ({ silent = false }: { silent?: boolean } = {}) => {
        // A silent connect (the dapp reconnecting) never prompts: the accounts already allowed, or none.
        if (!permitted(context) && !silent) await approved(context, 'standard:connect', `Connect to ${context.origin}`, () => setPermitted(context, true))
        return { accounts: accounts(context) }
      },
    },
    'standard:disconnect': { version: '1.0.0', disconnect: async () => setPermitted(context, false) },
    'standard:events': {
      version: '1.0.0',
      on: (_: 'change', listener: Listener) => (context.listeners.add(listener), () => void context.listeners.delete(listener)),
    },
  } as const
}

function signingFeatures(context: Context) {
  const { keypair, rpcUrl } = context
  return {
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signTransaction: async (...inputs: (Input & { transaction: Uint8Array })[]) =>
        approved(context, 'solana:signTransaction', describeTransactions(check(context, inputs)), () =>
          inputs.map(({ transaction }) => ({ signedTransaction: sign(transaction, keypair).serialize() })),
        ),
    },
    'solana:signAndSendTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signAndSendTransaction: async (...inputs: (Input & { transaction: Uint8Array; options?: SendOptions })[]) =>
        approved(context, 'solana:signAndSendTransaction', `Send: ${describeTransactions(check(context, inputs))}`, async () => {
          const outputs = []
          // One after another: a later transaction may spend what an earlier one made.
          for (const { transaction, options } of inputs) outputs.push({ signature: await send(rpcUrl, sign(transaction, keypair), options) })
          return outputs
        }),
    },
    'solana:signMessage': {
      version: '1.0.0',
      signMessage: async (...inputs: (Input & { message: Uint8Array })[]) =>
        approved(context, 'solana:signMessage', `Sign message: ${check(context, inputs).map(({ message }) => readable(message)).join('\n')}`, () =>
          inputs.map(({ message }) => ({ signedMessage: message, signature: signBytes(message, keypair), signatureType: 'ed25519' as const })),
        ),
    },
  } as const
}

/** Sign In With Solana: the wallet writes the message (filling domain and address), and signing in connects. */
function signInFeature(context: Context) {
  const { account, keypair, origin } = context
  return {
    'solana:signIn': {
      version: '1.0.0',
      signIn: async (...inputs: Siws.Input[]) => {
        const texts = inputs.map((input) => signInMessage(input, origin, account.address))
        // One prompt for both, showing what is signed.
        return approved(context, 'solana:signIn', texts.join('\n\n'), () => {
          setPermitted(context, true)
          return texts.map((text) => {
            const signedMessage = new TextEncoder().encode(text)
            return { account, signedMessage, signature: signBytes(signedMessage, keypair), signatureType: 'ed25519' as const }
          })
        })
      },
    },
  } as const
}

function accounts(context: Context): Account[] {
  return permitted(context) ? [context.account] : []
}

/** Runs `then` once the person approves; one prompt and its action at a time, like an extension's popup. */
function approved<T>(context: Context, method: string, description: string, then: () => T | Promise<T>): Promise<T> {
  const { approve, origin } = context
  const flow = context.queue
    .then(() => approve({ method, origin, chain, description }))
    .then((yes) => {
      if (!yes) throw Errors.userRejected()
      return then()
    })
  context.queue = flow.catch(() => undefined)
  return flow
}

/** Signing needs the person's connection, and inputs naming this wallet's account on its network. */
function check<T extends Input>(context: Context, inputs: T[]): T[] {
  if (!permitted(context) || inputs.some((input) => input.account?.address !== context.account.address)) throw Errors.unauthorized()
  const other = inputs.find((input) => input.chain !== undefined && input.chain !== chain)
  if (other) throw Errors.invalidParams(`Unsupported chain: ${other.chain}`)
  return inputs
}

function setPermitted(context: Context, value: boolean) {
  if (value === permitted(context)) return
  const { storage, origin, listeners } = context
  const others = origins(storage).filter((o) => o !== origin)
  storage.setItem(permittedKey, JSON.stringify(value ? [...others, origin] : others))
  for (const listener of [...listeners]) listener({ accounts: accounts(context) })
}

function permitted({ storage, origin }: { storage: Storage; origin: string }): boolean {
  return origins(storage).includes(origin)
}

// Entries are whatever storage holds: only this wallet writes them, and `includes` needs no narrowing.
function origins(storage: Storage): unknown[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(permittedKey) ?? '[]')
    return Array.isArray(value) ? value : []
  } catch {
    return []
  }
}

/** ed25519 over `bytes` with the key's 32-byte seed. */
function signBytes(bytes: Uint8Array, keypair: Keypair): Uint8Array {
  return ed25519.sign(bytes, keypair.secretKey.slice(0, 32))
}

/** Signs a legacy or v0 transaction in its wire form; throws when this key is not one of its signers. */
function sign(bytes: Uint8Array, keypair: Keypair): VersionedTransaction {
  const transaction = VersionedTransaction.deserialize(bytes)
  transaction.sign([keypair])
  return transaction
}

/** sendTransaction on the node; answers the transaction's signature (its id). */
async function send(rpcUrl: string, transaction: VersionedTransaction, options: SendOptions = {}): Promise<Uint8Array> {
  const { preflightCommitment, skipPreflight, maxRetries, minContextSlot } = options
  const config = { encoding: 'base64', preflightCommitment, skipPreflight, maxRetries, minContextSlot }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [base64(transaction.serialize()), config] })
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(rpcTimeoutMs) })
  const answer = (await res.json().catch(() => undefined)) as { result?: string; error?: { code: number; message: string; data?: unknown } } | undefined
  if (answer?.error) throw new Errors.ProviderError(answer.error.code, answer.error.message, answer.error.data)
  if (!res.ok || typeof answer?.result !== 'string') throw new Errors.ProviderError(-32603, `RPC ${rpcUrl} answered ${res.status} to sendTransaction`)
  return transaction.signatures[0]!
}

function signInMessage(input: Siws.Input, origin: string, address: string): string {
  if (input.address !== undefined && input.address !== address) throw Errors.unauthorized()
  return Siws.message({ ...input, domain: input.domain ?? new URL(origin).host, address })
}

function describeTransactions(inputs: readonly { transaction: Uint8Array }[]): string {
  const count = inputs.length === 1 ? 'a transaction' : `${inputs.length} transactions`
  return `Sign ${count} on ${chain} (${inputs.reduce((n, { transaction }) => n + transaction.length, 0)} bytes)`
}

/** A message shown as text when it is UTF-8 text, as hex otherwise. */
function readable(message: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(message)
    // eslint-disable-next-line no-control-regex -- control characters mark bytes that are not text
    if (!/[\u0000-\u0008\u000e-\u001f]/.test(text)) return text
  } catch {
    // not UTF-8: shown as hex below
  }
  return `0x${[...message].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

// No Buffer on a web page: a wire transaction is at most 1232 bytes, so one fromCharCode call takes it.
function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
}
