import { keccak256, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { ApiError, type Balance } from '../../api/client.js'
import { eth, usdc } from '../balances/balances.testing.js'
import { dusdContract, dusdToken, ethToken, quote, wbtcToken } from './swap.testing.js'
import * as Rules from './swapRules.js'

const user = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const dusd: Balance = { ...usdc, name: 'Doorway USD', symbol: 'DUSD', address: dusdToken.address, price: 1, value: 500, quantity: { decimals: '18', numeric: '500' } }

describe('parseSlippage', () => {
  test.each([
    ['1', 1, 100],
    ['0.5', 0.5, 50],
    ['0.01', 0.01, 1],
    ['50', 50, 5000],
    ['.5', 0.5, 50],
    ['2 %', 2, 200],
  ])('behavior: %s is %s %%', (text, percent, bps) => {
    expect(Rules.parseSlippage(text)).toEqual({ percent, bps })
  })

  test.each(['0', '0.001', '50.01', '51', '100', '', 'abc', '-1', '1.234'])('error: %s is refused (0.01 to 50, two decimals)', (text) => {
    expect(Rules.parseSlippage(text)).toEqual({ error: 'slippage' })
  })

  test('behavior: the default is 1 % (spec §9)', () => {
    expect(Rules.defaultSlippage).toBe('1')
    expect(Rules.slippagePresets).toEqual(['0.1', '0.5', '1'])
  })
})

describe('amountOutMin', () => {
  test.each([
    [1_000_000n, 100, 990_000n],
    [1_000_000n, 50, 995_000n],
    [1_000_000n, 1, 999_900n],
    [1_000_000n, 5000, 500_000n],
    // rounded down: never more than the slippage allows
    [999n, 100, 989n],
  ])('behavior: %s at %s bps is %s', (amount, bps, min) => {
    expect(Rules.amountOutMin(amount, bps)).toBe(min)
  })
})

describe('isHighImpact', () => {
  test.each([
    [0.25, false],
    [5, false],
    [5.01, true],
    [42, true],
  ])('behavior: %s %% warns: %s', (impact, high) => {
    expect(Rules.isHighImpact(impact)).toBe(high)
  })
})

describe('formatRate', () => {
  test('behavior: 1 ETH = 2,990.12 DUSD', () => {
    expect(Rules.formatRate(quote(), ethToken, dusdToken)).toBe('1 ETH = 2,990.12 DUSD')
  })

  test('behavior: a rate below 1 keeps 4 significant digits', () => {
    const q = quote({ fromAmount: String(299012n * 10n ** 16n), toAmount: String(10n ** 18n) })
    expect(Rules.formatRate(q, dusdToken, ethToken)).toBe('1 DUSD = 0.0003344 ETH')
  })

  test('behavior: tokens of different decimals', () => {
    const q = quote({ fromAmount: String(10n ** 18n), toAmount: String(5_000_000n) })
    expect(Rules.formatRate(q, ethToken, wbtcToken)).toBe('1 ETH = 0.05000 WBTC')
  })
})

describe('formatPercent', () => {
  test.each([
    [1, '1 %'],
    [0.5, '0.5 %'],
    [0.25, '0.25 %'],
  ])('behavior: %s', (value, text) => {
    expect(Rules.formatPercent(value)).toBe(text)
  })
})

describe('parseAmount', () => {
  test('behavior: base units', () => {
    expect(Rules.parseAmount('1.5', ethToken)).toEqual({ value: 15n * 10n ** 17n, amount: '1.5' })
    expect(Rules.parseAmount('.5', wbtcToken)).toEqual({ value: 50_000_000n, amount: '0.5' })
  })

  test.each([
    ['', 'amountRequired'],
    ['0', 'amountRequired'],
    ['abc', 'amountRequired'],
    ['0.000000001', 'amountDecimals'],
  ])('error: %j is %s', (text, error) => {
    expect(Rules.parseAmount(text, wbtcToken)).toEqual({ error })
  })
})

describe('quoteError', () => {
  const pair = { from: ethToken, to: dusdToken }
  test.each([
    [new ApiError(400, 'No liquidity for this pair', 'No liquidity for this pair'), 'noLiquidity', 'No liquidity for this pair: nothing can be swapped between ETH and DUSD yet.'],
    [new ApiError(400, "Amount exceeds the pool's liquidity", "Amount exceeds the pool's liquidity"), 'aboveReserves', 'This amount is more than the pool can trade. Try a smaller amount.'],
    [new ApiError(400, 'Network not supported for Swaps', 'Network not supported for Swaps'), 'unsupported', 'Network not supported for Swaps'],
    [new ApiError(400, 'Invalid amount: expected a positive integer in base units', 'Invalid amount: expected a positive integer in base units'), 'failed', 'The quote failed: Invalid amount: expected a positive integer in base units'],
    [new ApiError(502, 'Bad Gateway'), 'failed', 'The quote failed: Bad Gateway'],
    [new TypeError('Failed to fetch'), 'failed', 'The quote failed: Failed to fetch'],
  ])('behavior: %s', (error, kind, message) => {
    expect(Rules.quoteError(error, pair)).toEqual({ kind, message })
  })

  test('behavior: no quote at all is no route', () => {
    expect(Rules.noRoute(pair)).toEqual({ kind: 'noRoute', message: 'No route from ETH to DUSD.' })
  })
})

describe('isStale', () => {
  test('behavior: a quote is acted on for 30 s', () => {
    expect(Rules.isStale(0, 30_000)).toBe(false)
    expect(Rules.isStale(0, 30_001)).toBe(true)
  })
})

describe('stepsFor', () => {
  test('behavior: an ERC-20 short of allowance is approved first', () => {
    expect(Rules.stepsFor(dusdToken, 10n, 11n)).toEqual(['approve', 'swap'])
  })
  test('behavior: enough allowance, one step', () => {
    expect(Rules.stepsFor(dusdToken, 11n, 11n)).toEqual(['swap'])
  })
  test('behavior: the native token needs no approval', () => {
    expect(Rules.stepsFor(ethToken, 0n, 11n)).toEqual(['swap'])
  })
})

describe('pickerTokens', () => {
  const tokens = [ethToken, wbtcToken, dusdToken]
  test('behavior: the person\'s tokens first, by value; then the rest in the api\'s order', () => {
    const { held, rest } = Rules.pickerTokens(tokens, [eth, dusd], '')
    expect(held.map((h) => h.token.symbol)).toEqual(['ETH', 'DUSD'])
    expect(rest.map((t) => t.symbol)).toEqual(['WBTC'])
  })
  test('behavior: search by symbol or name, any case', () => {
    expect(Rules.pickerTokens(tokens, [eth, dusd], 'bitcoin').rest.map((t) => t.symbol)).toEqual(['WBTC'])
    expect(Rules.pickerTokens(tokens, [eth, dusd], 'dus').held.map((h) => h.token.symbol)).toEqual(['DUSD'])
    expect(Rules.pickerTokens(tokens, [eth, dusd], 'zzz')).toEqual({ held: [], rest: [] })
  })
})

describe('findToken', () => {
  const tokens = [ethToken, dusdToken]
  test('behavior: by symbol, address or as the native token', () => {
    expect(Rules.findToken(tokens, { kind: 'symbol', symbol: 'eth' })).toBe(ethToken)
    expect(Rules.findToken(tokens, { kind: 'native' })).toBe(ethToken)
    expect(Rules.findToken(tokens, { kind: 'address', address: dusdContract.toLowerCase() })).toBe(dusdToken)
    expect(Rules.findToken(tokens, { kind: 'symbol', symbol: 'WBTC' })).toBeUndefined()
  })
})

describe('maxPay', () => {
  test('behavior: the native token keeps back twice the fee (sendRules.feeReserve)', () => {
    expect(Rules.maxPay(eth, 250_000n, 2_000_000_000n)).toBe('1.999')
  })
  test('behavior: an ERC-20 is paid whole', () => {
    expect(Rules.maxPay(dusd, 250_000n, 2_000_000_000n)).toBe('500')
  })
})

describe('walletRequest', () => {
  test('behavior: the api transaction as eth_sendTransaction parameters, the wallet choosing the fees', () => {
    const tx = { from: user, to: dusdContract, data: '0x095ea7b3', amount: '1000', eip155: { gas: '65000', gasPrice: '1' } }
    expect(Rules.walletRequest(tx)).toEqual({ from: user, to: dusdContract, data: '0x095ea7b3', value: '0x3e8', gas: '0xfde8' })
  })
})

describe('receivedFromLogs', () => {
  const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`
  test('behavior: the event topics are the keccak of their signatures', () => {
    expect(keccak256(toHex('Transfer(address,address,uint256)'))).toBe('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
    expect(keccak256(toHex('Withdrawal(address,uint256)'))).toBe('0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65')
  })
  test('behavior: the token\'s Transfer to the person', () => {
    const logs = [
      { address: dusdContract, topics: [keccak256(toHex('Transfer(address,address,uint256)')), word(dusdContract), word('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')], data: toHex(5n) },
      { address: dusdContract, topics: [keccak256(toHex('Transfer(address,address,uint256)')), word(dusdContract), word(user)], data: toHex(7n, { size: 32 }) },
    ]
    expect(Rules.receivedFromLogs(logs, { to: dusdToken, user })).toBe(7n)
  })
  test('behavior: WETH\'s Withdrawal for the native token', () => {
    const logs = [{ address: '0x1', topics: [keccak256(toHex('Withdrawal(address,uint256)')), word(user)], data: toHex(9n, { size: 32 }) }]
    expect(Rules.receivedFromLogs(logs, { to: ethToken, user })).toBe(9n)
  })
  test('behavior: logs that do not say give nothing', () => {
    expect(Rules.receivedFromLogs(undefined, { to: dusdToken, user })).toBeUndefined()
    expect(Rules.receivedFromLogs([{ topics: [] }], { to: dusdToken, user })).toBeUndefined()
  })
})
