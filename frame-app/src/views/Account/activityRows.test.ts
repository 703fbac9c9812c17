import { describe, expect, test } from 'vitest'
import type { OperationType, Transaction, Transfer } from '../../api/client.js'
import { explorerHref } from '../../components/TransactionHash.js'
import * as Rows from './activityRows.js'

const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const eth = (direction: Transfer['direction'], numeric = '1.23456'): Transfer => ({
  fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: 'http://api.test/eth.png' } },
  direction,
  quantity: { numeric },
})
const usdc = (direction: Transfer['direction'], numeric = '2500'): Transfer => ({
  fungible_info: { name: 'USD Coin', symbol: 'USDC', icon: { url: 'http://api.test/usdc.png' } },
  direction,
  quantity: { numeric },
})

function tx(operationType: OperationType, transfers: Transfer[], status: Transaction['metadata']['status'] = 'confirmed'): Transaction {
  return {
    id: 'x',
    metadata: { operationType, hash: `0x${'ab'.repeat(32)}`, minedAt: new Date(2025, 0, 5, 10).toISOString(), sentFrom: alice, sentTo: bob, status, nonce: 1, chain: 'eip155:31337' },
    transfers,
  }
}

describe('signOf', () => {
  test.each<[OperationType, Transfer['direction'], string]>([
    // spec §2: + for receive, deposit, borrow and claim, whatever the direction
    ['receive', 'in', '+'],
    ['deposit', 'out', '+'],
    ['borrow', 'in', '+'],
    ['claim', 'in', '+'],
    // spec §2: - for withdraw, repay and burn
    ['withdraw', 'in', '-'],
    ['repay', 'out', '-'],
    ['burn', 'out', '-'],
    // ours: the others follow the direction
    ['send', 'out', '-'],
    ['send', 'self', ''],
    ['mint', 'in', '+'],
    ['trade', 'out', '-'],
    ['trade', 'in', '+'],
    ['execute', 'in', '+'],
    ['approve', 'self', ''],
  ])('behavior: %s %s → %j', (operationType, direction, sign) => {
    expect(Rows.signOf(operationType, direction)).toBe(sign)
  })
})

describe('amounts', () => {
  test('behavior: 3 decimals through Intl with the symbol (spec §2, §9)', () => {
    expect(Rows.amounts(tx('receive', [eth('in', '1234.56789')]))).toEqual(['+1,234.568 ETH'])
    expect(Rows.amounts(tx('burn', [eth('out')]))).toEqual(['-1.235 ETH'])
  })

  test("behavior: a swap shows both legs; an NFT as a count", () => {
    expect(Rows.amounts(tx('trade', [usdc('out'), eth('in')]))).toEqual(['-2,500.000 USDC', '+1.235 ETH'])
    expect(Rows.amounts(tx('mint', [{ nft_info: { name: 'Door #7', flags: { is_spam: false } }, direction: 'in', quantity: { numeric: '1' } }]))).toEqual(['+1 NFT'])
  })
})

describe('description', () => {
  test.each([
    ['a send without token: sender → receiver (spec §2)', tx('send', []), '0xf39F…2266 → 0x7099…79C8'],
    ['a receive without token: sender → receiver', tx('receive', []), '0xf39F…2266 → 0x7099…79C8'],
    ['another type without token: its status', tx('execute', [], 'failed'), 'Failed'],
    ['an approval: its status', tx('approve', []), 'Confirmed'],
    ['a token send: the receiver', tx('send', [eth('out')]), 'To 0x7099…79C8'],
    ['an ERC-20 send: the transfer\'s recipient, not the token contract', tx('send', [{ ...usdc('out'), sender: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', recipient: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }]), 'To 0x3C44…93BC'],
    ['an ERC-20 receive: the transfer\'s sender', tx('receive', [{ ...usdc('in'), sender: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', recipient: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }]), 'From 0x90F7…b906'],
    ['a token receive: the sender', tx('receive', [eth('in')]), 'From 0xf39F…2266'],
    ['a swap: its two symbols', tx('trade', [usdc('out'), eth('in')]), 'USDC → ETH'],
    ['an NFT received: its name, not the sender', tx('receive', [{ nft_info: { name: 'Door #8', flags: { is_spam: false } }, direction: 'in', quantity: { numeric: '1' } }]), 'Door #8'],
    ['a mint: the NFT', tx('mint', [{ nft_info: { name: 'Door #7', flags: { is_spam: false } }, direction: 'in', quantity: { numeric: '1' } }]), 'Door #7'],
  ])('behavior: %s', (_, transaction, text) => {
    expect(Rows.description(transaction)).toBe(text)
  })
})

describe('images', () => {
  test('behavior: a two-token swap shows two images (spec §2); others one, or none', () => {
    expect(Rows.images(tx('trade', [usdc('out'), eth('in')]))).toEqual(['http://api.test/usdc.png', 'http://api.test/eth.png'])
    expect(Rows.images(tx('send', [eth('out'), usdc('out')]))).toEqual(['http://api.test/eth.png'])
    expect(Rows.images(tx('execute', []))).toEqual([])
    const preview = { nft_info: { name: 'Door #7', content: { preview: { url: 'http://api.test/7.png' } }, flags: { is_spam: false } }, direction: 'in' as const, quantity: { numeric: '1' } }
    expect(Rows.images(tx('mint', [preview]))).toEqual(['http://api.test/7.png'])
  })
})

describe('titles, status and links', () => {
  test('behavior: the title is the operation word; failed and pending say so', () => {
    expect([Rows.title(tx('trade', [])), Rows.statusText(tx('trade', []))]).toEqual(['Swapped', undefined])
    expect(Rows.statusText(tx('send', [eth('out')], 'failed'))).toBe('Failed')
    expect(Rows.statusText(tx('send', [], 'pending'))).toBe('Pending')
    // said once: the description of an entry without token already is its status
    expect([Rows.description(tx('execute', [], 'failed')), Rows.statusText(tx('execute', [], 'failed'))]).toEqual(['Failed', undefined])
  })

  test('behavior: the explorer link only when the dapp configured an explorer', () => {
    expect(explorerHref('https://scan.test/', '0xab')).toBe('https://scan.test/tx/0xab')
    expect(explorerHref(undefined, '0xab')).toBeUndefined()
  })

  test('behavior: the summary names the entry in one line', () => {
    const summary = Rows.summary(tx('send', [eth('out')], 'pending'))
    expect(summary).toMatch(/^Sent, To 0x7099…79C8, -1\.235 ETH, Pending, Jan 5, \d{1,2}:\d\d [AP]M$/)
  })
})

describe("an onramp order ('buy', issue 12)", () => {
  const bought = (metadata: Partial<Transaction['metadata']> = {}): Transaction => {
    const base = tx('buy', [eth('in', '0.03283333')])
    return { ...base, id: 'onramp:o1', metadata: { ...base.metadata, onrampStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS', ...metadata } }
  }

  test("behavior: titled 'Bought', the asset's name, + the amount at 3 decimals", () => {
    const entry = bought()
    expect([Rows.title(entry), Rows.description(entry), Rows.amounts(entry), Rows.statusText(entry)]).toEqual(['Bought', 'Ether', ['+0.033 ETH'], undefined])
  })

  test("behavior: a failed order says the provider's reason, and Failed", () => {
    const entry = bought({ status: 'failed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_FAILED', failureReason: 'Your card was declined' })
    expect([Rows.description(entry), Rows.statusText(entry)]).toEqual(['Your card was declined', 'Failed'])
  })

  test('behavior: an order in progress is Pending, with no explorer link before it has a transaction', () => {
    const entry = bought({ status: 'pending', hash: '', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' })
    expect(Rows.statusText(entry)).toBe('Pending')
    expect(explorerHref('http://explorer.test', entry.metadata.hash)).toBeUndefined()
    expect(explorerHref('http://explorer.test', bought().metadata.hash)).toBe(`http://explorer.test/tx/0x${'ab'.repeat(32)}`)
  })
})
