import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import { type Address, createPublicClient, type Hex, http, serializeErc6492Signature } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as TestAccounts from '@doorway/devnet/testAccounts'
import * as Tokens from '@doorway/devnet/tokens'
import type { SiwxData, SiwxSession } from '../types.js'
import { SiwxError } from './errors.js'
import { formatMessage } from './message.js'
import { eip155Verifier, solanaVerifier, type Verifier, verifySession } from './verifiers.js'

// A port apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chain = { id: 31337, port: 18961, rpcUrl: 'http://127.0.0.1:18961' }
const now = Date.parse('2026-01-01T00:10:00.000Z')
const verifier = eip155Verifier({ rpcUrls: { 'eip155:31337': chain.rpcUrl }, now: () => now })

const owner = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 3 })
const stranger = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 5 })

let anvil: Anvil.start.ReturnType
let factory: Address
beforeAll(async () => {
  anvil = await Anvil.start({ chains: [chain] })
  factory = await TestAccounts.deployFactory(chain)
}, 60_000)
afterAll(() => anvil?.stop())

const dataFor = (address: Address, fields: Partial<SiwxData> = {}): SiwxData => ({
  domain: 'localhost:5173',
  accountAddress: address,
  statement: 'Sign in to the Doorway wagmi example',
  uri: 'http://localhost:5173/wagmi/',
  version: '1',
  chainId: 'eip155:31337',
  nonce: 'f00dfeed12345678',
  issuedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
})

/** A session for `address`, signed (personal_sign) by `signer`. */
async function signed(address: Address, signer = owner, fields: Partial<SiwxData> = {}): Promise<SiwxSession & { signature: Hex }> {
  const data = dataFor(address, fields)
  const message = formatMessage(data)
  return { data, message, signature: await signer.signMessage({ message }) }
}

async function refusal(session: SiwxSession, by: Verifier = verifier) {
  const error = await by.verify(session).then(
    () => 'verified',
    (error: unknown) => error,
  )
  return error instanceof SiwxError ? { code: error.code, message: error.message } : error
}

let salt = 0
const nextSalt = (): Hex => `0x${(++salt).toString(16).padStart(64, '0')}`

describe('eip155Verifier', () => {
  test('behavior: an EOA’s personal_sign signature (EIP-191) verifies', async () => {
    await expect(verifier.verify(await signed(owner.address))).resolves.toBeUndefined()
  })

  test('behavior: a deployed contract account verifies through isValidSignature (ERC-1271)', async () => {
    const address = await TestAccounts.deploy(chain, { factory, owner: owner.address, salt: nextSalt() })
    await expect(verifier.verify(await signed(address))).resolves.toBeUndefined()
  })

  test('behavior: an account not deployed yet verifies with its factory call wrapped around the signature (ERC-6492), and stays undeployed', async () => {
    const account = await TestAccounts.counterfactual(chain, { factory, owner: owner.address, salt: nextSalt() })
    const { client } = Anvil.clients(chain, owner.address)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
    const session = await signed(account.address)
    const signature = serializeErc6492Signature({ address: account.factory, data: account.factoryData, signature: session.signature })
    await expect(verifier.verify({ ...session, signature })).resolves.toBeUndefined()
    expect(await client.getCode({ address: account.address })).toBeUndefined()
  })

  test('error: another key’s signature for an EOA', async () => {
    expect(await refusal(await signed(owner.address, stranger))).toEqual({
      code: 'InvalidSignature',
      message: `The signature is not ${owner.address}'s`,
    })
  })

  test('error: another key’s signature for a contract account (ERC-1271) and a counterfactual one (ERC-6492)', async () => {
    const deployed = await TestAccounts.deploy(chain, { factory, owner: owner.address, salt: nextSalt() })
    expect(await refusal(await signed(deployed, stranger))).toMatchObject({ code: 'InvalidSignature' })
    const account = await TestAccounts.counterfactual(chain, { factory, owner: owner.address, salt: nextSalt() })
    const session = await signed(account.address, stranger)
    const signature = serializeErc6492Signature({ address: account.factory, data: account.factoryData, signature: session.signature })
    expect(await refusal({ ...session, signature })).toMatchObject({ code: 'InvalidSignature' })
  })

  test('error: the message changed after signing, or the data beside it', async () => {
    const session = await signed(owner.address)
    const tampered = session.message.replace('Nonce: f00dfeed12345678', 'Nonce: f00dfeed00000000')
    expect(await refusal({ ...session, message: tampered })).toEqual({ code: 'MessageMismatch', message: 'The message is not the text of its data' })
    // the data says the other nonce while the signed text keeps its own
    expect(await refusal({ ...session, data: { ...session.data, nonce: 'f00dfeed00000000' } })).toMatchObject({ code: 'MessageMismatch' })
    // both changed together: the text is consistent but no longer what was signed
    const data = { ...session.data, nonce: 'f00dfeed00000000' }
    expect(await refusal({ data, message: formatMessage(data), signature: session.signature })).toMatchObject({ code: 'InvalidSignature' })
  })

  test.each([
    ['expired', { expirationTime: '2026-01-01T00:05:00.000Z' }, { code: 'Expired', message: 'The sign-in expired at 2026-01-01T00:05:00.000Z' }],
    ['expiring at this very moment', { expirationTime: '2026-01-01T00:10:00.000Z' }, { code: 'Expired' }],
    ['not valid yet', { notBefore: '2026-01-01T01:00:00.000Z' }, { code: 'NotYetValid', message: 'The sign-in is not valid before 2026-01-01T01:00:00.000Z' }],
  ])('error: a well-signed session %s', async (_, fields, expected) => {
    expect(await refusal(await signed(owner.address, owner, fields))).toMatchObject(expected)
  })

  test('param: within its time bounds it verifies', async () => {
    const fields = { notBefore: '2026-01-01T00:00:00.000Z', expirationTime: '2026-01-01T00:15:00.000Z' }
    await expect(verifier.verify(await signed(owner.address, owner, fields))).resolves.toBeUndefined()
  })

  test('error: a chain without an RPC URL', async () => {
    const session = await signed(owner.address, owner, { chainId: 'eip155:1' })
    expect(await refusal(session)).toEqual({ code: 'UnknownChain', message: 'No RPC URL to verify sign-ins on eip155:1' })
  })

  test('error: a solana session is refused by name, not crashed on', async () => {
    const data: SiwxData = { ...dataFor(owner.address), accountAddress: 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1', chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }
    const session = { data, message: formatMessage(data), signature: '3yZe7d' }
    expect(await refusal(session)).toEqual({ code: 'UnsupportedNamespace', message: 'The eip155 verifier does not verify solana sessions' })
  })

  test.each([
    ['not hex', 'signed!'],
    ['empty', '0x'],
    ['no string at all', 42],
  ])('error: a signature that is %s', async (_, signature) => {
    const session = await signed(owner.address)
    expect(await refusal({ ...session, signature: signature as string })).toMatchObject({ code: 'InvalidSignature' })
  })

  test.each([
    ['no data', { message: 'x', signature: '0x00' }],
    ['no message', { data: dataFor(owner.address), signature: '0x00' }],
    ['not an object', 'session'],
  ])('error: not a session (%s)', async (_, session) => {
    expect(await refusal(session as unknown as SiwxSession)).toEqual({ code: 'InvalidMessage', message: 'Not a sign-in session' })
  })

  test('error: a chain that cannot be reached says so instead of calling the signature bad', async () => {
    const client = createPublicClient({ transport: http('http://127.0.0.1:1', { retryCount: 0 }) })
    const unreachable = eip155Verifier({ clients: { 'eip155:31337': client }, now: () => now })
    expect(await refusal(await signed(owner.address, stranger), unreachable)).toEqual({
      code: 'Unavailable',
      message: 'Could not verify the signature on eip155:31337',
    })
  })

  test('param: a client of one’s own is used for its chain', async () => {
    const { client } = Anvil.clients(chain, owner.address)
    const withClient = eip155Verifier({ clients: { 'eip155:31337': client }, now: () => now })
    await expect(withClient.verify(await signed(owner.address))).resolves.toBeUndefined()
  })
})

describe('solanaVerifier', () => {
  const solana = solanaVerifier({ now: () => now })
  // Solana keys by their 32-byte seed (web3.js Keypair.fromSeed makes the same public keys)
  const seed = new Uint8Array(32).fill(7)
  const address = base58.encode(ed25519.getPublicKey(seed))
  const strangerSeed = new Uint8Array(32).fill(9)

  /** A SIWS session for `accountAddress`, signed by `signer` (a seed) as solana:signMessage does: ed25519 over the UTF-8 text, base58. */
  function signedSolana(fields: Partial<SiwxData> = {}, signer = seed): SiwxSession {
    const data = dataFor(owner.address, { accountAddress: address, chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', ...fields })
    const message = formatMessage(data)
    return { data, message, signature: base58.encode(ed25519.sign(new TextEncoder().encode(message), signer)) }
  }

  test('behavior: the key is a Solana Keypair’s: seed 7 × 32 is the account web3.js names', () => {
    expect(address).toBe('GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB')
  })

  test('behavior: the account’s ed25519 signature (base58) over the message’s UTF-8 bytes verifies', async () => {
    await expect(solana.verify(signedSolana())).resolves.toBeUndefined()
    // text beyond ASCII is signed as UTF-8
    await expect(solana.verify(signedSolana({ statement: 'Connexion à l’application ✓' }))).resolves.toBeUndefined()
  })

  test('error: another key’s signature', async () => {
    expect(await refusal(signedSolana({}, strangerSeed), solana)).toEqual({ code: 'InvalidSignature', message: `The signature is not ${address}'s` })
  })

  test('error: the message changed after signing, or the data beside it', async () => {
    const session = signedSolana()
    const tampered = session.message.replace('Nonce: f00dfeed12345678', 'Nonce: f00dfeed00000000')
    expect(await refusal({ ...session, message: tampered }, solana)).toEqual({ code: 'MessageMismatch', message: 'The message is not the text of its data' })
    const data = { ...session.data, nonce: 'f00dfeed00000000' }
    expect(await refusal({ data, message: formatMessage(data), signature: session.signature }, solana)).toMatchObject({ code: 'InvalidSignature' })
    // one bit of the signature flipped
    const bytes = base58.decode(session.signature)
    bytes[10]! ^= 1
    expect(await refusal({ ...session, signature: base58.encode(bytes) }, solana)).toMatchObject({ code: 'InvalidSignature' })
  })

  test.each([
    ['hex', () => `0x${Buffer.from(base58.decode(signedSolana().signature)).toString('hex')}`],
    ['base64 (signatures cross as base58)', () => base64.encode(base58.decode(signedSolana().signature))],
    ['base58 of 63 bytes', () => base58.encode(base58.decode(signedSolana().signature).slice(1))],
    ['empty', () => ''],
    ['no string at all', () => 42],
  ])('error: a signature that is %s', async (_, signature) => {
    expect(await refusal({ ...signedSolana(), signature: signature() as string }, solana)).toEqual({
      code: 'InvalidSignature',
      message: 'The signature is not a base58 ed25519 signature (64 bytes)',
    })
  })

  test('error: an address that is no key (off the curve, as a program-derived address) is refused, not crashed on', async () => {
    const session = signedSolana({ accountAddress: '8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR' })
    expect(await refusal(session, solana)).toMatchObject({ code: 'InvalidSignature' })
  })

  test('error: an EVM address in a solana session', async () => {
    const data = dataFor(owner.address, { chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' })
    expect(await refusal({ data, message: 'x', signature: '1' }, solana)).toMatchObject({
      code: 'InvalidMessage',
      message: expect.stringMatching(/^Not a Sign In With Solana message: the address 0x.* is not a Solana address/),
    })
  })

  test.each([
    ['expired', { expirationTime: '2026-01-01T00:05:00.000Z' }, { code: 'Expired', message: 'The sign-in expired at 2026-01-01T00:05:00.000Z' }],
    ['not valid yet', { notBefore: '2026-01-01T01:00:00.000Z' }, { code: 'NotYetValid' }],
  ])('error: a well-signed session %s', async (_, fields, expected) => {
    expect(await refusal(signedSolana(fields), solana)).toMatchObject(expected)
  })

  test('error: an eip155 session is refused by name', async () => {
    expect(await refusal(await signed(owner.address), solana)).toEqual({ code: 'UnsupportedNamespace', message: 'The solana verifier does not verify eip155 sessions' })
  })

  test('behavior: verifySession hands each session to its namespace’s verifier', async () => {
    await expect(verifySession(signedSolana(), [verifier, solana])).resolves.toBeUndefined()
    await expect(verifySession(await signed(owner.address), [verifier, solana])).resolves.toBeUndefined()
    await expect(verifySession(signedSolana({}, strangerSeed), [verifier, solana])).rejects.toMatchObject({ code: 'InvalidSignature' })
    await expect(verifySession(signedSolana(), [verifier])).rejects.toThrow(new SiwxError('NoVerifier', 'No verifier for solana sessions'))
  })
})

describe('verifySession', () => {
  test('behavior: the verifier of the session’s namespace decides', async () => {
    await expect(verifySession(await signed(owner.address), [verifier])).resolves.toBeUndefined()
    await expect(verifySession(await signed(owner.address, stranger), [verifier])).rejects.toMatchObject({ code: 'InvalidSignature' })
  })

  test('error: no verifier for the namespace', async () => {
    await expect(verifySession(await signed(owner.address), [])).rejects.toThrow(new SiwxError('NoVerifier', 'No verifier for eip155 sessions'))
  })
})
