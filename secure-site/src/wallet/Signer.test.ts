import * as DelegationFramework from '@doorway/shared/DelegationFramework'
import * as Permissions from '@doorway/shared/Permissions'
import * as Protocol from '@doorway/shared/Protocol'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import { approveText } from '@doorway/shared/texts/approve'
import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import { Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js'
import { type Hex, parseEther, recoverMessageAddress, recoverTypedDataAddress, toHex } from 'viem'
import { formatUserOperationRequest } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type * as Approval from '../approval/Approval.js'
import * as Device from './Device.js'
import * as Signer from './Signer.js'
import * as Solana from './Solana.js'
import * as Wallet from './Wallet.js'

// The person's decision is played by the test: what was shown and what was decided (Approval.test.ts tests the screen).
const asked: Approval.ask.Options['description'][] = []
let decide: (wallet: Wallet.Wallet) => 'approved' | 'rejected' = () => 'approved'
let current: Wallet.Wallet
vi.mock('../approval/Approval.js', () => ({
  ask: async (_root: HTMLElement, options: Approval.ask.Options) => {
    asked.push(options.description)
    return decide(current)
  },
}))

const chainId = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const entropy = () => Uint8Array.from({ length: 16 }, (_, i) => i * 3)
const keyOf = () => Solana.fromEntropy(entropy())
const address = keyOf().address
// Anvil's first key as the wallet's EVM key: the smart account's owner.
const owner = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

/** A wallet unlocked in memory, as after a sign-in: no server is asked (no enrolled device). */
function unlockedWallet(): Wallet.Wallet {
  const wallet = Wallet.create({ store: Device.memoryStore(), base: 'http://127.0.0.1:1', vaultPublicKey: new Uint8Array(), vaultSigningKey: new Uint8Array(), serverPublicKey: new Uint8Array() })
  wallet.unlocked = { account: owner, solana: keyOf(), email: 'person@example.com', timer: setTimeout(() => {}, 0) }
  return (current = wallet)
}

const sign = (method: 'solana_signTransaction' | 'solana_signMessage', param: string) =>
  Signer.sign({ wallet: unlockedWallet(), method, params: [param], chainId, host: { origin: 'https://dapp.example', attested: true }, root: {} as HTMLElement, signal: new AbortController().signal })

const someoneElse = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey

/** A SOL transfer from `payer`, unsigned, as the frame sends it. */
function transfer(payer = new PublicKey(address)): string {
  const tx = new Transaction({ feePayer: payer, recentBlockhash: base58.encode(new Uint8Array(32).fill(9)) }).add(
    SystemProgram.transfer({ fromPubkey: payer, toPubkey: someoneElse, lamports: 1_000_000 }),
  )
  return base64.encode(tx.serialize({ requireAllSignatures: false, verifySignatures: false }))
}

beforeEach(() => {
  asked.length = 0
  decide = () => 'approved'
})
afterEach(() => Wallet.lock(current))

describe('sign: Solana', () => {
  test('behavior: an approved solana_signTransaction answers the whole transaction, signature in slot 0 over exactly the message described', async () => {
    const input = transfer()
    const { result } = await sign('solana_signTransaction', input)
    expect(Protocol.secureResults.sign({ result })).toBe(true)
    expect(asked).toHaveLength(1)
    const signed = VersionedTransaction.deserialize(base64.decode(result))
    const unsigned = VersionedTransaction.deserialize(base64.decode(input))
    expect([...signed.message.serialize()]).toEqual([...unsigned.message.serialize()])
    expect(ed25519.verify(signed.signatures[0]!, signed.message.serialize(), base58.decode(address))).toBe(true)
    expect(Transaction.from(base64.decode(result)).verifySignatures()).toBe(true)
  })

  test('behavior: an approved solana_signMessage answers the base58 signature of exactly those bytes', async () => {
    const message = new TextEncoder().encode('Sign in to dapp.example')
    const { result } = await sign('solana_signMessage', base64.encode(message))
    expect(Protocol.secureResults.sign({ result })).toBe(true)
    expect(ed25519.verify(base58.decode(result), message, base58.decode(address))).toBe(true)
  })

  test('error: a transaction whose fee payer is not this wallet is refused with -32602, and the person is never asked', async () => {
    await expect(sign('solana_signTransaction', transfer(someoneElse))).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/fee payer .* is not this wallet's address/) })
    expect(asked).toHaveLength(0)
  })

  test('error: a rejected request is 4001 and signs nothing', async () => {
    decide = () => 'rejected'
    await expect(sign('solana_signMessage', base64.encode(new Uint8Array([1, 2])))).rejects.toMatchObject({ code: 4001 })
  })

  test('error: a wallet that locked while the person decided signs nothing: 4100', async () => {
    decide = (wallet) => (Wallet.lock(wallet), 'approved')
    await expect(sign('solana_signTransaction', transfer())).rejects.toMatchObject({ code: 4100 })
  })
})

// The devnet's Delegation Framework addresses (any do: nothing here reaches a chain).
const environment: SmartAccount.Environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xFe36d33e04115203d2914caFbf84A949B35e8426',
  SimpleFactory: '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9',
  implementations: { HybridDeleGatorImpl: '0x407B5a261EC38a3F1b5cEBfF931a6Fe647EB07A5' },
}
const smart = SmartAccount.counterfactual(owner.address, environment)
const bob: Hex = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const signEvm = (method: Signer.Options['method'], params: unknown[], smartAccount: SmartAccount.Environment | null = environment, root = {} as HTMLElement) =>
  Signer.sign({
    wallet: unlockedWallet(),
    method,
    params,
    chainId: 'eip155:31337',
    ...(smartAccount && { smartAccount }),
    host: { origin: 'https://dapp.example', attested: true },
    root,
    signal: new AbortController().signal,
  })

/** A first, sponsored operation as the frame's bundler client prepares it (ERC-7769 JSON). */
const userOperation = formatUserOperationRequest({
  sender: smart.address,
  nonce: 0n,
  factory: smart.factory,
  factoryData: smart.factoryData,
  callData: SmartAccount.encodeCalls([{ to: bob, value: parseEther('0.01'), data: '0x' }]),
  callGasLimit: 100_000n,
  verificationGasLimit: 300_000n,
  preVerificationGas: 50_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  paymaster: '0x1111111111111111111111111111111111111111',
  paymasterVerificationGasLimit: 40_000n,
  paymasterPostOpGasLimit: 10_000n,
  paymasterData: '0xabcdef',
})

describe('sign: smart account', () => {
  test('behavior: an approved eth_signUserOperation answers the owner key\'s 65-byte signature of the operation\'s PackedUserOperation', async () => {
    const { result } = await signEvm('eth_signUserOperation', [userOperation])
    expect(Protocol.secureResults.sign({ result })).toBe(true)
    expect(result).toMatch(/^0x[0-9a-f]{130}$/)
    const read = {
      sender: smart.address,
      nonce: 0n,
      factory: smart.factory,
      factoryData: smart.factoryData,
      callData: userOperation.callData,
      callGasLimit: 100_000n,
      verificationGasLimit: 300_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      paymaster: '0x1111111111111111111111111111111111111111',
      paymasterVerificationGasLimit: 40_000n,
      paymasterPostOpGasLimit: 10_000n,
      paymasterData: '0xabcdef',
    } as const
    const typedData = SmartAccount.userOperationTypedData(read, { chainId: 31337, entryPoint: environment.EntryPoint })
    expect(await recoverTypedDataAddress({ ...typedData, signature: result as Hex })).toBe(owner.address)
    // Bound to the chain: the same operation on another chain is another signature.
    const elsewhere = SmartAccount.userOperationTypedData(read, { chainId: 1, entryPoint: environment.EntryPoint })
    expect(await recoverTypedDataAddress({ ...elsewhere, signature: result as Hex })).not.toBe(owner.address)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.title).toBe(approveText.methods.eth_signUserOperation)
    expect(asked[0]!.rows.find((row) => row.label === approveText.from)?.value).toBe(smart.address)
  })

  test('behavior: personal_sign for the smart account shows its address and answers the owner\'s signature of the message (the account checks it, ERC-1271)', async () => {
    const message = toHex('Sign in to dapp.example')
    const { result } = await signEvm('personal_sign', [message, smart.address])
    expect(await recoverMessageAddress({ message: { raw: message }, signature: result as Hex })).toBe(owner.address)
    expect(asked[0]!.rows.slice(1, 3)).toEqual([
      { label: approveText.from, value: smart.address, mono: true },
      { label: approveText.signsAs, value: approveText.smartAccount },
    ])
  })

  test.each([
    ['personal_sign for the key\'s own address', 'personal_sign', [toHex('hi'), owner.address], environment, "the address is not this wallet's address"],
    ['eth_sendTransaction from a smart account', 'eth_sendTransaction', [{ from: smart.address, to: bob, gas: '0x5208', nonce: '0x0', maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x1' }], environment, 'a smart account sends user operations'],
    ['eth_signUserOperation without the smart account', 'eth_signUserOperation', [userOperation], null, 'signs operations only for its smart account'],
    ['an operation for another account', 'eth_signUserOperation', [{ ...userOperation, sender: owner.address }], environment, "sender is not this wallet's smart account"],
  ] as const)('error: %s is refused with -32602, and the person is never asked', async (_, method, params, smartAccount, message) => {
    await expect(signEvm(method, [...params], smartAccount)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(message) })
    expect(asked).toHaveLength(0)
  })

  test('error: a rejected operation is 4001 and signs nothing', async () => {
    decide = () => 'rejected'
    await expect(signEvm('eth_signUserOperation', [userOperation])).rejects.toMatchObject({ code: 4001 })
  })
})

// The dapp's session key (anvil's third address): a delegation the frame built from its permission request.
const sessionKey = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const expiry = Math.floor(Date.now() / 1000) + 7 * 86_400
const session = Permissions.delegation({
  grant: { chainId: 31337, delegate: sessionKey, permission: { type: 'contract-call', targets: [bob], selectors: [] }, expiry, maxCalls: 3 },
  delegator: smart.address,
  enforcers: DelegationFramework.devnet.caveatEnforcers,
  salt: 42n,
})
const signedSession: Permissions.Delegation = { ...session, signature: `0x${'cd'.repeat(65)}` }
/** The frame's sponsored operation that disables the session. */
const { factory: _factory, factoryData: _factoryData, ...deployed } = userOperation
const revokeOperation = {
  ...deployed,
  nonce: '0x1',
  callData: SmartAccount.encodeCalls([{ to: environment.DelegationManager, value: 0n, data: Permissions.disableCalldata(signedSession) }]),
}

describe('sign: smart sessions', () => {
  test('behavior: an approved eth_signDelegation answers the owner\'s EIP-712 signature of the delegation, for the pinned DelegationManager on this chain', async () => {
    const signed = await signEvm('eth_signDelegation', [Permissions.toJson(session), { justification: 'Send to bob for you' }])
    expect(Protocol.secureResults.sign(signed)).toBe(true)
    expect(signed).not.toHaveProperty('revoke')
    const typedData = Permissions.delegationTypedData(session, { chainId: 31337, delegationManager: DelegationFramework.devnet.DelegationManager })
    expect(await recoverTypedDataAddress({ ...typedData, signature: signed.result as Hex })).toBe(owner.address)
    const elsewhere = Permissions.delegationTypedData(session, { chainId: 1, delegationManager: DelegationFramework.devnet.DelegationManager })
    expect(await recoverTypedDataAddress({ ...elsewhere, signature: signed.result as Hex })).not.toBe(owner.address)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.title).toBe(approveText.methods.eth_signDelegation)
    expect(asked[0]!.rows).toContainEqual({ label: approveText.sessionKey, value: sessionKey, mono: true })
    expect(asked[0]!.rows).toContainEqual({ label: approveText.appSays, value: '"Send to bob for you"' })
  })

  test('behavior: an approved doorway_revokeSession answers the operation\'s signature and, from the same approval, the owner\'s signature of `Revoke session {pci}`', async () => {
    const signed = await signEvm('doorway_revokeSession', [revokeOperation, Permissions.toJson(signedSession)])
    expect(Protocol.secureResults.sign(signed)).toBe(true)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.title).toBe(approveText.methods.doorway_revokeSession)
    const read: SmartAccount.UserOperation = {
      sender: smart.address,
      nonce: 1n,
      callData: revokeOperation.callData,
      callGasLimit: 100_000n,
      verificationGasLimit: 300_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      paymaster: '0x1111111111111111111111111111111111111111',
      paymasterVerificationGasLimit: 40_000n,
      paymasterPostOpGasLimit: 10_000n,
      paymasterData: '0xabcdef',
    }
    const typedData = SmartAccount.userOperationTypedData(read, { chainId: 31337, entryPoint: environment.EntryPoint })
    expect(await recoverTypedDataAddress({ ...typedData, signature: signed.result as Hex })).toBe(owner.address)
    const message = `Revoke session ${Permissions.delegationHash(signedSession)}`
    expect(await recoverMessageAddress({ message, signature: signed.revoke! })).toBe(owner.address)
  })

  test('behavior: a session\'s dates read in the locale `configure` set on the document', async () => {
    const root = { ownerDocument: { documentElement: { lang: 'de-DE' } } } as unknown as HTMLElement
    await signEvm('eth_signDelegation', [Permissions.toJson(session)], environment, root)
    const expires = asked[0]!.rows.find((row) => row.label === approveText.expires)?.value
    const options = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' } as const
    expect(expires).toBe(new Intl.DateTimeFormat('de-DE', options).format(expiry * 1000))
    expect(expires).not.toBe(new Intl.DateTimeFormat('en-US', options).format(expiry * 1000))
  })

  const unpinned = { ...environment, DelegationManager: bob }
  test.each([
    ['personal_sign for an unpinned deployment', 'personal_sign', [toHex('hi'), smart.address], unpinned, 'is not a deployment this wallet trusts'],
    ['eth_signUserOperation for an unpinned deployment', 'eth_signUserOperation', [userOperation], unpinned, 'is not a deployment this wallet trusts'],
    ['eth_signDelegation for an unpinned deployment', 'eth_signDelegation', [Permissions.toJson(session)], unpinned, 'is not a deployment this wallet trusts'],
    ['eth_signDelegation without the smart account', 'eth_signDelegation', [Permissions.toJson(session)], null, "sessions are granted and revoked only by this wallet's smart account"],
    ['doorway_revokeSession without the smart account', 'doorway_revokeSession', [revokeOperation, Permissions.toJson(signedSession)], null, "sessions are granted and revoked only by this wallet's smart account"],
    ['a revoke of another delegation', 'doorway_revokeSession', [revokeOperation, Permissions.toJson({ ...signedSession, salt: 43n })], environment, 'disables another delegation'],
  ] as const)('error: %s is refused with -32602, and the person is never asked', async (_, method, params, smartAccount, message) => {
    await expect(signEvm(method, [...params], smartAccount)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(message) })
    expect(asked).toHaveLength(0)
  })

  test('error: a rejected revoke is 4001 and signs nothing', async () => {
    decide = () => 'rejected'
    await expect(signEvm('doorway_revokeSession', [revokeOperation, Permissions.toJson(signedSession)])).rejects.toMatchObject({ code: 4001 })
  })
})
