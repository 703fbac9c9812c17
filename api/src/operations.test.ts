import { describe, expect, test } from 'vitest'
import * as Operations from './operations.js'

const zero = `0x${'0'.repeat(40)}`
const other = `0x${'b'.repeat(40)}`
const base: Operations.Facts = { sent: true, deployed: false, success: true, called: true, insFrom: [], outsTo: [], selfTransfers: 0, events: [] }

describe('operationType', () => {
  test.each<[string, Partial<Operations.Facts>, Operations.OperationType]>([
    ['a contract creation it sent', { deployed: true, insFrom: [zero] }, 'deploy'],
    ['a reverted call', { success: false, outsTo: [other] }, 'execute'],
    ['a reverted plain transfer', { success: false, called: false }, 'send'],
    ['a wrap (WETH9 Deposit)', { events: ['deposit'], outsTo: [other], insFrom: [other] }, 'deposit'],
    ['an unwrap (WETH9 Withdrawal)', { events: ['withdrawal'], outsTo: [other], insFrom: [other] }, 'withdraw'],
    ['an Aave Borrow', { events: ['borrow'], insFrom: [other] }, 'borrow'],
    ['an Aave Repay', { events: ['repay'], outsTo: [other] }, 'repay'],
    ['someone else’s wrap that paid it', { sent: false, events: ['deposit'], insFrom: [other] }, 'receive'],
    ['tokens from the zero address in its own transaction', { insFrom: [zero] }, 'mint'],
    ['a paid mint', { insFrom: [zero], outsTo: [other] }, 'mint'],
    ['an airdrop it did not send', { sent: false, insFrom: [zero] }, 'receive'],
    ['tokens to the zero address', { outsTo: [zero] }, 'burn'],
    ['assets out and in', { outsTo: [other], insFrom: [other] }, 'trade'],
    ['a call that only received (a faucet)', { insFrom: [other] }, 'claim'],
    ['a plain transfer it received', { sent: false, called: false, insFrom: [other] }, 'receive'],
    ['someone else’s call that paid it', { sent: false, insFrom: [other] }, 'receive'],
    ['a transfer out', { outsTo: [other] }, 'send'],
    ['a transfer to itself', { selfTransfers: 1 }, 'send'],
    ['an approval by the sender, nothing moved', { events: ['approval'] }, 'approve'],
    ['an approval with a transfer', { events: ['approval'], outsTo: [other] }, 'send'],
    ['a call that moved nothing', {}, 'execute'],
    ['someone else’s approval', { sent: false, events: ['approval'] }, 'execute'],
  ])('behavior: %s is %s', (_, facts, type) => {
    expect(Operations.operationType({ ...base, ...facts })).toBe(type)
  })
})
