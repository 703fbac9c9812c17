/**
 * What a transaction was to one account (spec §2 history display: the sign rules name the types), told
 * from the transaction and its logs. One table of rules, first match wins.
 */
import type { IndexEvent } from './storage/Storage.js'

export type OperationType =
  | 'send'
  | 'receive'
  | 'deposit'
  | 'withdraw'
  | 'borrow'
  | 'repay'
  | 'burn'
  | 'claim'
  | 'mint'
  | 'trade'
  | 'approve'
  | 'execute'
  | 'deploy'

/** What the account saw of one transaction. */
export type Facts = {
  /** The account sent the transaction. */
  sent: boolean
  /** It created a contract. */
  deployed: boolean
  success: boolean
  /** It called code (non-empty input). */
  called: boolean
  /** Who sent what the account received; the zero address for a mint. */
  insFrom: string[]
  /** Who received what the account sent; the zero address for a burn. */
  outsTo: string[]
  /** Transfers from the account to itself. */
  selfTransfers: number
  events: IndexEvent[]
}

const zeroAddress = `0x${'0'.repeat(40)}`

const rules: [OperationType, (f: Facts) => boolean][] = [
  ['deploy', (f) => f.sent && f.deployed],
  // A reverted transaction moved nothing: a plain transfer that failed is still a send.
  ['execute', (f) => !f.success && f.called],
  ['send', (f) => !f.success],
  // WETH9 Deposit / Withdrawal: a wrap or an unwrap.
  ['deposit', (f) => f.sent && f.events.includes('deposit')],
  ['withdraw', (f) => f.sent && f.events.includes('withdrawal')],
  // Aave V3 Borrow / Repay.
  ['borrow', (f) => f.sent && f.events.includes('borrow')],
  ['repay', (f) => f.sent && f.events.includes('repay')],
  // Received from the zero address in a transaction it sent (paying for it is allowed); an airdrop it did not send is a receive.
  ['mint', (f) => f.sent && f.insFrom.length > 0 && f.insFrom.every((from) => from === zeroAddress)],
  ['burn', (f) => f.insFrom.length === 0 && f.outsTo.length > 0 && f.outsTo.every((to) => to === zeroAddress)],
  ['trade', (f) => f.insFrom.length > 0 && f.outsTo.length > 0],
  // Called a contract and only received, not from the zero address: a faucet or a claim contract.
  ['claim', (f) => f.sent && f.called && f.insFrom.length > 0],
  ['receive', (f) => f.insFrom.length > 0],
  ['send', (f) => f.outsTo.length > 0 || f.selfTransfers > 0],
  ['approve', (f) => f.sent && f.events.includes('approval')],
]

export function operationType(facts: Facts): OperationType {
  return rules.find(([, applies]) => applies(facts))?.[0] ?? 'execute'
}
