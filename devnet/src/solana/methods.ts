/**
 * The JSON-RPC methods the devnet's Solana chain answers, in the shapes of agave's RPC (what
 * @solana/web3.js 1.x checks its answers against). Every landed transaction is final at once, so
 * commitments are checked and then ignored. `import * as Methods from './methods.js'`.
 */
import { base58 } from '@scure/base'
import { VersionedMessage } from '@solana/web3.js'
import * as Accounts from './accounts.js'
import { invalidParams } from './errors.js'
import * as Execute from './execute.js'
import * as Fees from './fees.js'
import * as Ledger from './ledger.js'
import * as Params from './params.js'
import * as Transactions from './transactions.js'
import * as Wire from './wire.js'

type Method = (ledger: Ledger.Ledger, params: readonly unknown[]) => unknown

/** What the `context` of an RpcResponse says. */
const context = (ledger: Ledger.Ledger) => ({ apiVersion: '2.2.0', slot: Ledger.slot(ledger) })
const withContext = (ledger: Ledger.Ledger, value: unknown) => ({ context: context(ledger), value })

const slotsInEpoch = 432_000

/** A method whose only param is an optional `{ commitment }`. */
const committed =
  (read: (ledger: Ledger.Ledger) => unknown): Method =>
  (ledger, params) => {
    Params.commitment(Params.config(params, 0))
    return read(ledger)
  }

export const methods: Readonly<Record<string, Method>> = {
  getHealth: () => 'ok',
  getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
  getGenesisHash: (ledger) => ledger.genesisHash,
  getSlot: committed(Ledger.slot),
  getBlockHeight: committed(Ledger.blockHeight),
  getEpochInfo: (ledger) => {
    const height = Ledger.blockHeight(ledger)
    return { absoluteSlot: Ledger.slot(ledger), blockHeight: height, epoch: Number(ledger.svm.getClock().epoch), slotIndex: height % slotsInEpoch, slotsInEpoch, transactionCount: ledger.records.size }
  },
  getLatestBlockhash: committed((ledger) => withContext(ledger, Ledger.latestBlockhash(ledger))),
  isBlockhashValid: (ledger, params) => withContext(ledger, Ledger.isBlockhashValid(ledger, Params.string(params, 0, 'blockhash'))),
  getBalance: (ledger, params) => withContext(ledger, Number(ledger.svm.getBalance(Params.address(params, 0) as Accounts.Address) ?? 0n)),
  getAccountInfo: (ledger, params) => {
    const address = Params.address(params, 0)
    const { encoding, slice } = accountEncoding(Params.config(params, 1))
    return withContext(ledger, Accounts.encode(ledger.svm, Accounts.get(ledger.svm, address), encoding, slice))
  },
  getMultipleAccounts: (ledger, params) => {
    const addresses = Params.array(params, 0, 'addresses', 100).map((_, i, list) => Params.address(list, i, `addresses[${i}]`))
    const { encoding, slice } = accountEncoding(Params.config(params, 1))
    return withContext(ledger, addresses.map((address) => Accounts.encode(ledger.svm, Accounts.get(ledger.svm, address), encoding, slice)))
  },
  getMinimumBalanceForRentExemption: (ledger, params) => Number(ledger.svm.minimumBalanceForRentExemption(BigInt(Params.integer(params, 0, 'dataLength')))),
  getFeeForMessage: (ledger, params) => {
    const message = decodeMessage(Params.string(params, 0, 'message'))
    return withContext(ledger, Ledger.isBlockhashValid(ledger, message.recentBlockhash) ? Fees.fee(message) : null)
  },
  getRecentPrioritizationFees: () => [],
  sendTransaction,
  simulateTransaction,
  getSignatureStatuses,
  getTokenAccountsByOwner,
  getTokenAccountBalance: (ledger, params) => {
    const address = Params.address(params, 0)
    const token = Accounts.tokenAccount(Accounts.get(ledger.svm, address))
    if (!token) throw invalidParams(`${address} is not a token account`)
    return withContext(ledger, Accounts.tokenAmount(token.amount, Accounts.decimalsOf(ledger.svm, token.mint)))
  },
  getTokenSupply: (ledger, params) => {
    const address = Params.address(params, 0, 'mint')
    const mint = Accounts.mint(Accounts.get(ledger.svm, address))
    if (!mint) throw invalidParams(`${address} is not a mint`)
    return withContext(ledger, Accounts.tokenAmount(mint.supply, mint.decimals))
  },
  requestAirdrop: (ledger, params) => Execute.airdrop(ledger, Params.address(params, 0), BigInt(Params.integer(params, 1, 'lamports'))),
  getSignaturesForAddress,
  getTransaction: (ledger, params) => {
    const record = ledger.records.get(Params.signature(params, 0))
    const config = Params.config(params, 1)
    const encoding = Params.oneOf(config, 'encoding', Transactions.encodings, 'json')
    const maxVersion = Params.optionalInteger(config, 'maxSupportedTransactionVersion')
    return record ? Transactions.format(record, encoding, maxVersion) : null
  },
}

function accountEncoding(config: Params.Config) {
  Params.commitment(config)
  return { encoding: Params.oneOf(config, 'encoding', Accounts.encodings, 'base58'), slice: Params.dataSlice(config) }
}

function decodeMessage(text: string): VersionedMessage {
  const bytes = Wire.bytes(text, 'base64', 'message')
  try {
    return VersionedMessage.deserialize(bytes)
  } catch (error) {
    throw invalidParams(`the message does not decode: ${(error as Error).message}`)
  }
}

/** The transaction at params[0], in the config's `encoding` (base58 unless it says base64). */
function transactionParam(params: readonly unknown[], config: Params.Config): Wire.Decoded {
  const encoding = Params.oneOf<Wire.Encoding>(config, 'encoding', ['base58', 'base64'], 'base58')
  return Wire.decode(Wire.bytes(Params.string(params, 0, 'transaction'), encoding, 'transaction'))
}

function sendTransaction(ledger: Ledger.Ledger, params: readonly unknown[]) {
  const config = Params.config(params, 1)
  Params.commitment(config)
  Params.optionalInteger(config, 'maxRetries')
  const decoded = transactionParam(params, config)
  return Execute.send(ledger, decoded, { skipPreflight: Params.flag(config, 'skipPreflight', false) })
}

function simulateTransaction(ledger: Ledger.Ledger, params: readonly unknown[]) {
  const config = Params.config(params, 1)
  Params.commitment(config)
  const sigVerify = Params.flag(config, 'sigVerify', false)
  const replaceRecentBlockhash = Params.flag(config, 'replaceRecentBlockhash', false)
  if (sigVerify && replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash')
  const accounts = Params.config([config.accounts], 0)
  const addresses = accounts.addresses === undefined ? undefined : Params.array([accounts.addresses], 0, 'accounts.addresses', 100).map((_, i, list) => Params.address(list, i))
  const accountsEncoding = Params.oneOf(accounts, 'encoding', Accounts.encodings, 'base64')
  const decoded = transactionParam(params, config)
  const result = Execute.simulate(ledger, decoded, { sigVerify, replaceRecentBlockhash })
  const account = (address: string) => result.postAccounts.get(address) ?? Accounts.get(ledger.svm, address)
  return withContext(ledger, {
    err: result.error?.json ?? null,
    logs: result.logs,
    accounts: addresses?.map((address) => (result.error ? null : Accounts.encode(ledger.svm, account(address), accountsEncoding))) ?? null,
    unitsConsumed: result.unitsConsumed,
    returnData: result.returnData,
    innerInstructions: Params.flag(config, 'innerInstructions', false) ? result.innerInstructions.map(compiledInner) : null,
    ...(replaceRecentBlockhash ? { replacementBlockhash: Ledger.latestBlockhash(ledger) } : {}),
  })
}

const compiledInner = ({ index, instructions }: Ledger.Meta['innerInstructions'][number]) => ({
  index,
  instructions: instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: base58.encode(ix.data), stackHeight: ix.stackHeight })),
})

function getSignatureStatuses(ledger: Ledger.Ledger, params: readonly unknown[]) {
  const signatures = Params.array(params, 0, 'signatures', 256).map((_, i, list) => Params.signature(list, i, `signatures[${i}]`))
  Params.flag(Params.config(params, 1), 'searchTransactionHistory', false)
  return withContext(
    ledger,
    signatures.map((signature) => {
      const record = ledger.records.get(signature)
      if (!record) return null
      const status = record.err === null ? { Ok: null } : { Err: record.err }
      return { slot: record.slot, confirmations: null, err: record.err, status, confirmationStatus: 'finalized' }
    }),
  )
}

function getTokenAccountsByOwner(ledger: Ledger.Ledger, params: readonly unknown[]) {
  const owner = Params.address(params, 0, 'owner')
  const filter = Params.config(params, 1)
  const config = Params.config(params, 2)
  const { encoding, slice } = accountEncoding(config)
  const byMint = filter.mint !== undefined
  if (byMint === (filter.programId !== undefined)) throw invalidParams('the filter (param 1) must be { mint } or { programId }')
  let accounts: Accounts.Account[] = []
  if (byMint) {
    const mint = Params.address([filter.mint], 0, 'mint')
    if (!Accounts.mint(Accounts.get(ledger.svm, mint))) throw invalidParams(`could not find mint ${mint}`)
    accounts = Accounts.tokenAccountsOf(ledger.svm, owner, mint)
  } else {
    const programId = Params.address([filter.programId], 0, 'programId')
    if (programId !== Accounts.tokenProgram && programId !== Accounts.token2022Program) throw invalidParams(`${programId} is not a token program`)
    if (programId === Accounts.tokenProgram) accounts = Accounts.tokenAccountsOf(ledger.svm, owner)
  }
  return withContext(ledger, accounts.map((account) => ({ pubkey: account.address, account: Accounts.encode(ledger.svm, account, encoding, slice) })))
}

function getSignaturesForAddress(ledger: Ledger.Ledger, params: readonly unknown[]) {
  const address = Params.address(params, 0)
  const config = Params.config(params, 1)
  const limit = Params.optionalInteger(config, 'limit') ?? 1000
  if (limit < 1 || limit > 1000) throw invalidParams('limit must be from 1 to 1000')
  const before = Params.optionalSignature(config, 'before')
  const until = Params.optionalSignature(config, 'until')
  const newestFirst = [...(ledger.history.get(address) ?? [])].reverse()
  const start = before === undefined ? 0 : newestFirst.indexOf(before) + 1
  // an unknown `before` lists nothing, rather than everything
  const from = before !== undefined && start === 0 ? newestFirst.length : start
  const end = until === undefined ? newestFirst.length : newestFirst.indexOf(until)
  return newestFirst
    .slice(from, end === -1 ? newestFirst.length : end)
    .slice(0, limit)
    .map((signature) => {
      const record = ledger.records.get(signature)!
      return { signature, slot: record.slot, err: record.err, memo: null, blockTime: record.blockTime, confirmationStatus: 'finalized' }
    })
}
