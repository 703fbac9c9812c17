/**
 * The test wallet's polkadot namespace: the well-known dev account `//Alice` (sr25519) and its answers to
 * the WalletConnect polkadot methods (payloads in shared/notes/namespaces.md §3). There is no Polkadot
 * chain on the devnet (notes §5): signatures are made as polkadot.js makes them and only ever verified,
 * never submitted.
 */
import { Keyring } from '@polkadot/keyring'
import type { KeyringPair } from '@polkadot/keyring/types'
import { bnToU8a, compactToU8a, hexToBn, hexToU8a, isHex, u8aConcat, u8aEq, u8aToHex, u8aWrapBytes } from '@polkadot/util'
import { blake2AsU8a, cryptoWaitReady, decodeAddress } from '@polkadot/util-crypto'
import { RpcError, rpcErrors } from './errors.js'
import * as Params from './params.js'

export const methods = ['polkadot_signTransaction', 'polkadot_signMessage'] as const
export const events = ['chainChanged', 'accountsChanged'] as const

export type Options = { chainId: `polkadot:${string}` }
export type Account = Options & { pair: KeyringPair; /** SS58, with the chain's prefix */ address: string }

/**
 * The SS58 prefix the address is written with: Polkadot's (0) and Kusama's (2) on their own genesis
 * hashes, and the generic Substrate prefix (42) on any other chain (Westend, local chains).
 */
export const ss58Formats: Readonly<Record<string, number>> = {
  'polkadot:91b171bb158e2d3848fa23a9f1c25182': 0,
  'polkadot:b0a8d493285c2df73290dfb7e61f870f': 2,
}

export async function account(options: Options): Promise<Account> {
  // sr25519 runs in polkadot's wasm: it must be loaded before the first key is made.
  await cryptoWaitReady()
  const keyring = new Keyring({ type: 'sr25519', ss58Format: ss58Formats[options.chainId] ?? 42 })
  const pair = keyring.addFromUri('//Alice')
  return { ...options, pair, address: pair.address }
}

export function answer(account: Account, method: string, params: unknown): unknown {
  const fields = Params.object(params)
  assertOwn(account, fields.address)
  switch (method) {
    case 'polkadot_signMessage': {
      // As polkadot.js extensions' signRaw does: the bytes (hex, or else UTF-8 text) wrapped in
      // <Bytes>…</Bytes>, so a signed message can never be a valid transaction payload.
      const message = Params.string(fields, 'message')
      return { signature: u8aToHex(account.pair.sign(u8aWrapBytes(message))) }
    }
    case 'polkadot_signTransaction': {
      const payload = Params.object(fields.transactionPayload, 'transactionPayload')
      if (payload.address !== undefined) assertOwn(account, payload.address)
      // A MultiSignature (type byte, then the sr25519 signature), as polkadot.js' ExtrinsicPayload.sign gives.
      return { signature: u8aToHex(account.pair.sign(signingPayload(payload), { withType: true })) }
    }
    default:
      throw new RpcError(rpcErrors.unsupported)
  }
}

/** Any SS58 spelling of the account's public key is the account; anything else is not authorized. */
function assertOwn(account: Account, address: unknown) {
  let publicKey: Uint8Array
  try {
    if (typeof address !== 'string' || address.length > 64) throw new Error('not an address')
    publicKey = decodeAddress(address)
  } catch {
    throw Params.invalid('address must be an SS58 address.')
  }
  if (!u8aEq(publicKey, account.pair.publicKey)) throw new RpcError(rpcErrors.unauthorized)
}

/**
 * The bytes an extrinsic's signer signs, from a SignerPayloadJSON: the v4 payload of the classic signed
 * extensions (call, era, compact nonce and tip, spec and transaction versions, genesis and block hash),
 * hashed with blake2-256 when over 256 bytes. Newer extensions (CheckMetadataHash, asset tips) are not
 * encoded: with no chain to submit to, nothing checks this beyond the signature itself.
 */
export function signingPayload(payload: Params.Fields): Uint8Array {
  const bytes = u8aConcat(
    hexBytes(payload, 'method'),
    hexBytes(payload, 'era'),
    compactToU8a(quantity(payload, 'nonce')),
    compactToU8a(quantity(payload, 'tip')),
    bnToU8a(quantity(payload, 'specVersion'), { bitLength: 32 }),
    bnToU8a(quantity(payload, 'transactionVersion'), { bitLength: 32 }),
    hexBytes(payload, 'genesisHash', 32),
    hexBytes(payload, 'blockHash', 32),
  )
  return bytes.length > 256 ? blake2AsU8a(bytes, 256) : bytes
}

function hexBytes(payload: Params.Fields, key: string, length?: number): Uint8Array {
  const value = payload[key]
  if (!isHex(value) || value.length < 4 || value.length > 200_000) throw Params.invalid(`transactionPayload.${key} must be 0x-prefixed hex.`)
  const bytes = hexToU8a(value)
  if (length !== undefined && bytes.length !== length) throw Params.invalid(`transactionPayload.${key} must be ${length} bytes.`)
  return bytes
}

/** SignerPayloadJSON writes its numbers as hex; plain numbers are accepted too. */
function quantity(payload: Params.Fields, key: string) {
  const value = payload[key]
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return hexToBn(`0x${value.toString(16)}`)
  if (isHex(value) && value.length > 2 && value.length <= 34) return hexToBn(value)
  throw Params.invalid(`transactionPayload.${key} must be a non-negative number or hex quantity.`)
}
