import type * as Caip from '@doorway/shared/Caip'
import { decodeFunctionData, encodeAbiParameters, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import type { Balance, Profile } from '../../api/client.js'
import * as Rules from './sendRules.js'
import { eth, icon, points, usdc, usdcContract } from '../balances/balances.testing.js'

const usdtContract = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const usdt: Balance = {
  name: 'Tether USD',
  symbol: 'USDT',
  chainId: 'eip155:31337',
  address: `eip155:31337:${usdtContract}`,
  price: 1,
  value: 2500,
  quantity: { decimals: '6', numeric: '2500' },
  iconUrl: icon,
}
// Listed without a price: no value
const dai: Balance = {
  name: 'Dai',
  symbol: 'DAI',
  chainId: 'eip155:31337',
  address: 'eip155:31337:0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  price: 0,
  quantity: { decimals: '18', numeric: '10' },
  iconUrl: icon,
}

const sender = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const receiver = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const transferAbi = parseAbi(['function transfer(address to, uint256 value) returns (bool)'])

describe('isNative', () => {
  test.each([
    ['the native token (no address)', eth, true],
    ['an ERC-20 (CAIP-10 address)', usdc, false],
  ])('behavior: %s', (_, token, native) => {
    expect(Rules.isNative(token)).toBe(native)
  })
})

describe('sendableTokens', () => {
  test('behavior: native first, then ERC-20s by value (highest first), tokens without value last', () => {
    expect(Rules.sendableTokens([dai, usdc, usdt, eth]).map((t) => t.symbol)).toEqual(['ETH', 'USDT', 'USDC', 'DAI'])
  })
  test('behavior: tokens with 0 decimals are filtered out (spec §9)', () => {
    expect(Rules.sendableTokens([points, usdc, eth]).map((t) => t.symbol)).toEqual(['ETH', 'USDC'])
  })
  test('behavior: a native token worth less than every ERC-20 still comes first', () => {
    const poorEth = { ...eth, value: 0.01 }
    expect(Rules.sendableTokens([usdt, poorEth])[0]).toBe(poorEth)
  })
  test('behavior: an ERC-20 worth 0 comes before one without a value', () => {
    const worthless = { ...usdc, value: 0 }
    expect(Rules.sendableTokens([dai, worthless]).map((t) => t.symbol)).toEqual(['USDC', 'DAI'])
  })
  test('behavior: does not change the list it was given', () => {
    const balances = [dai, usdc, eth]
    Rules.sendableTokens(balances)
    expect(balances).toEqual([dai, usdc, eth])
  })
  test('behavior: nothing to send', () => {
    expect(Rules.sendableTokens([])).toEqual([])
    expect(Rules.sendableTokens([points])).toEqual([])
  })
})

describe('balanceOf', () => {
  test.each([
    ['native, 18 decimals', eth, 2_000_000_000_000_000_000n],
    ['ERC-20, 6 decimals', usdc, 150_500_000n],
  ])('behavior: %s', (_, token, value) => {
    expect(Rules.balanceOf(token)).toBe(value)
  })
})

describe('baseUnits', () => {
  test.each([
    ['1', usdc, 1_000_000n],
    ['0.000001', usdc, 1n],
    ['0.01', eth, 10_000_000_000_000_000n],
  ])('behavior: %s %s', (amount, token, value) => {
    expect(Rules.baseUnits(amount, token)).toBe(value)
  })
})

describe('checkAmount', () => {
  test.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['zero', '0'],
    ['zero with decimals', '0.0'],
    ['a word', 'abc'],
    ['exponent notation', '1e5'],
    ['a negative amount', '-1'],
    ['a lone dot', '.'],
    ['a comma as decimal separator', '1,5'],
    ['two dots', '1.2.3'],
    ['hex', '0x10'],
  ])('error: %s is amountRequired', (_, text) => {
    expect(Rules.checkAmount(text, usdc)).toEqual({ error: 'amountRequired' })
  })

  test.each([
    ['7 decimals for a 6-decimals token', '1.1234567', usdc],
    ['7 decimals even when they are zeros', '1.0000000', usdc],
    ['19 decimals for an 18-decimals token', '0.0000000000000000001', eth],
  ])('error: %s is amountDecimals', (_, text, token) => {
    expect(Rules.checkAmount(text, token)).toEqual({ error: 'amountDecimals' })
  })

  test.each([
    ['one base unit above the balance', '150.500001', usdc],
    ['far above', '1000', usdc],
    ['native above', '2.000000000000000001', eth],
  ])('error: %s is amountAboveBalance', (_, text, token) => {
    expect(Rules.checkAmount(text, token)).toEqual({ error: 'amountAboveBalance' })
  })

  test.each<[string, string, Balance, { value: bigint; amount: string }]>([
    ['exactly the balance', '150.5', usdc, { value: 150_500_000n, amount: '150.5' }],
    ['exactly the native balance', '2', eth, { value: 2_000_000_000_000_000_000n, amount: '2' }],
    ['6 decimals for a 6-decimals token', '0.000001', usdc, { value: 1n, amount: '0.000001' }],
    ['a leading dot gets its 0', '.5', usdc, { value: 500_000n, amount: '0.5' }],
    ['a trailing dot', '1.', usdc, { value: 1_000_000n, amount: '1' }],
    ['spaces around are trimmed', '  12.25 ', usdc, { value: 12_250_000n, amount: '12.25' }],
    ['leading zeros', '007', usdc, { value: 7_000_000n, amount: '007' }],
  ])('behavior: %s', (_, text, token, result) => {
    expect(Rules.checkAmount(text, token)).toEqual(result)
  })
})

describe('maxAmount', () => {
  test('behavior: an ERC-20 gives its whole balance, whatever the reserve', () => {
    expect(Rules.maxAmount(usdc, 10n ** 18n)).toBe('150.5')
  })
  test('behavior: the native token keeps the fee reserve back', () => {
    // 2 ETH minus 0.000042 ETH (21000 gas at 1 gwei, reserved twice)
    expect(Rules.maxAmount(eth, Rules.feeReserve(21_000n, 1_000_000_000n))).toBe('1.999958')
  })
  test.each([
    ['the reserve equals the balance', 2n * 10n ** 18n],
    ['the reserve is above the balance', 3n * 10n ** 18n],
  ])('behavior: never below zero when %s', (_, reserve) => {
    expect(Rules.maxAmount(eth, reserve)).toBe('0')
  })
  test('behavior: a zero reserve gives the whole native balance', () => {
    expect(Rules.maxAmount(eth, 0n)).toBe('2')
  })
  test('behavior: what Max fills in passes checkAmount', () => {
    const amount = Rules.maxAmount(eth, Rules.feeReserve(21_000n, 1_234_567_891n))
    expect(Rules.checkAmount(amount, eth)).toEqual({ value: 2n * 10n ** 18n - 21_000n * 1_234_567_891n * 2n, amount })
  })
})

describe('feeReserve', () => {
  test.each([
    [21_000n, 1_000_000_000n, 42_000_000_000_000n],
    [65_000n, 3n, 390_000n],
    [0n, 1_000_000_000n, 0n],
    [21_000n, 0n, 0n],
  ])('behavior: %s gas at %s wei is reserved twice', (gas, price, reserve) => {
    expect(Rules.feeReserve(gas, price)).toBe(reserve)
  })
})

describe('hasInsufficientGas', () => {
  test.each([
    ['a zero native balance', { nativeBalance: 0n, fee: 0n, smartAccount: false }, true],
    ['a zero native balance and a fee', { nativeBalance: 0n, fee: 21_000n, smartAccount: false }, true],
    ['a fee above the balance', { nativeBalance: 100n, fee: 101n, smartAccount: false }, true],
    ['a fee equal to the balance', { nativeBalance: 100n, fee: 100n, smartAccount: false }, false],
    ['a fee below the balance', { nativeBalance: 100n, fee: 99n, smartAccount: false }, false],
    ['a smart account with a zero balance (spec §5, §6)', { nativeBalance: 0n, fee: 0n, smartAccount: true }, false],
    ['a smart account with a fee above its balance', { nativeBalance: 1n, fee: 10n ** 18n, smartAccount: true }, false],
  ])('behavior: %s', (_, options, flagged) => {
    expect(Rules.hasInsufficientGas(options)).toBe(flagged)
  })
})

describe('parseReceiver', () => {
  test.each<[string, string, Rules.Receiver]>([
    ['empty', '', { kind: 'empty' }],
    ['only spaces', '   ', { kind: 'empty' }],
    ['lowercase, checksummed for display', sender.toLowerCase(), { kind: 'address', address: sender }],
    ['uppercase hex digits', `0x${sender.slice(2).toUpperCase()}`, { kind: 'address', address: sender }],
    ['without 0x', sender.slice(2).toLowerCase(), { kind: 'address', address: sender }],
    ['a valid mixed-case checksum', receiver, { kind: 'address', address: receiver }],
    ['a valid checksum with spaces around', ` ${receiver} `, { kind: 'address', address: receiver }],
    ['a valid checksum without 0x', receiver.slice(2), { kind: 'address', address: receiver }],
  ])('behavior: %s', (_, text, result) => {
    expect(Rules.parseReceiver(text)).toEqual(result)
  })

  test.each([
    // one letter's case flipped
    ['a wrong mixed-case checksum', '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
    ['a wrong checksum without 0x', 'F39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
  ])('error: %s is receiverChecksum', (_, text) => {
    expect(Rules.parseReceiver(text)).toEqual({ kind: 'invalid', error: 'receiverChecksum' })
  })

  test.each<[string, string, Rules.Receiver]>([
    ['a name in the zone', 'alice.doorway.id', { kind: 'name', name: 'alice.doorway.id' }],
    ['a bare name', 'alice', { kind: 'name', name: 'alice' }],
    ['uppercase, lowered', 'ALICE', { kind: 'name', name: 'alice' }],
    ['mixed case in the zone, lowered', 'Alice.Doorway.ID', { kind: 'name', name: 'alice.doorway.id' }],
    ['hyphens and digits', 'al-ice-42.doorway.id', { kind: 'name', name: 'al-ice-42.doorway.id' }],
    ['exactly 4 characters', 'abcd', { kind: 'name', name: 'abcd' }],
  ])('behavior: a name, %s', (_, text, result) => {
    expect(Rules.parseReceiver(text)).toEqual(result)
  })

  test.each([
    ['39 hex digits', sender.slice(0, -1)],
    ['41 hex digits', `${sender}6`],
    ['0x alone', '0x'],
    ['0x and a name', '0xname'],
    ['0X and 40 hex digits', `0X${sender.slice(2)}`],
    ['a name too short (3 characters)', 'abc'],
    ['a label too short in a zone', 'abc.doorway.id'],
    ['a space inside', 'al ice'],
    ['an underscore', 'al_ice'],
    ['an underscore in the zone', 'alice.door_way.id'],
    ['a space in the zone', 'alice.door way.id'],
    ['an empty zone part', 'alice..id'],
    ['a trailing dot', 'alice.'],
    ['a leading dot', '.alice'],
    ['an emoji', 'al🙂ce'],
    ['a non-ASCII letter', 'alicé'],
  ])('error: %s is receiverInvalid', (_, text) => {
    expect(Rules.parseReceiver(text)).toEqual({ kind: 'invalid', error: 'receiverInvalid' })
  })

  // Each namespace's own rule (features/namespaces/registry.ts); the text is trimmed first.
  test.each<[Caip.Namespace, string, Rules.Receiver]>([
    ['solana', ' 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM ', { kind: 'address', address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' }],
    ['solana', sender, { kind: 'invalid', error: 'receiverInvalidSolana' }],
    ['solana', 'alice.doorway.id', { kind: 'invalid', error: 'receiverInvalidSolana' }],
    ['bip122', ' bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq ', { kind: 'address', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }],
    ['bip122', sender, { kind: 'invalid', error: 'receiverInvalidBitcoin' }],
    ['bip122', '   ', { kind: 'empty' }],
  ])('param: on %s, %j reads as its namespace says', (namespace, text, result) => {
    expect(Rules.parseReceiver(text, namespace)).toEqual(result)
  })
})

describe('profileAddress', () => {
  // ENSIP-11: 0x80000000 | 31337
  const anvilCoinType = String(0x80000000 + 31337)
  const profile = (addresses: Profile['addresses']): Profile => ({ name: 'alice.doorway.id', addresses, attributes: {} })

  test('behavior: the ENSIP-11 coin type of the chain is preferred over 60', () => {
    expect(anvilCoinType).toBe('2147514985')
    const p = profile({ '60': { address: sender }, [anvilCoinType]: { address: receiver.toLowerCase() } })
    expect(Rules.profileAddress(p, 'eip155:31337')).toBe(receiver)
  })
  test('behavior: falls back to coin type 60, checksummed', () => {
    expect(Rules.profileAddress(profile({ '60': { address: sender.toLowerCase() } }), 'eip155:31337')).toBe(sender)
  })
  test("behavior: another chain's coin type is not used", () => {
    const other = String(0x80000000 + 31338)
    expect(Rules.profileAddress(profile({ [other]: { address: sender } }), 'eip155:31337')).toBeUndefined()
  })
  test.each<[string, Profile['addresses']]>([
    ['no address at all', {}],
    ['only a non-EVM coin type (bitcoin, 0)', { '0': { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } }],
    ['an invalid address for the chain', { [String(0x80000000 + 31337)]: { address: '0x1234' } }],
    ['an invalid address for 60', { '60': { address: 'not an address' } }],
  ])('behavior: undefined with %s', (_, addresses) => {
    expect(Rules.profileAddress(profile(addresses), 'eip155:31337')).toBeUndefined()
  })
  test('error: a chain id that is not CAIP-2 throws', () => {
    expect(() => Rules.profileAddress(profile({ '60': { address: sender } }), 'eip155' as never)).toThrow('Invalid CAIP-2 network id')
  })
})

describe('avatarUrl', () => {
  const profile = (avatar?: string): Profile => ({ name: 'alice.doorway.id', addresses: {}, attributes: avatar === undefined ? {} : { avatar } })

  test.each([
    'https://images.doorway.id/alice.png',
    'HTTPS://images.doorway.id/alice.png',
    'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E',
    'data:image/svg+xml;base64,PHN2Zy8+',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/webp;base64,UklGRg==',
  ])('behavior: shown: %s', (avatar) => {
    expect(Rules.avatarUrl(profile(avatar))).toBe(avatar)
  })

  test.each([
    ['http', 'http://images.doorway.id/alice.png'],
    ['javascript', 'javascript:alert(1)'],
    ['javascript, mixed case', 'JavaScript:alert(1)'],
    ['an html data URL', 'data:text/html,<script>alert(1)</script>'],
    ['a data URL of another image type', 'data:image/bmp;base64,Qk0='],
    ['a relative path', '/alice.png'],
    ['ipfs', 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'],
    ['an empty string', ''],
    ['https not at the start', ' https://images.doorway.id/alice.png'],
  ])('behavior: refused: %s', (_, avatar) => {
    expect(Rules.avatarUrl(profile(avatar))).toBeUndefined()
  })

  test('behavior: undefined without an avatar attribute', () => {
    expect(Rules.avatarUrl(profile())).toBeUndefined()
  })
})

describe('receiverWarnings', () => {
  const tokens = [eth, usdc, usdt]

  test.each<[string, string, ('toSelf' | 'toToken')[]]>([
    ['another account', receiver, []],
    ['the sender', sender, ['toSelf']],
    ['the sender, lowercase', sender.toLowerCase(), ['toSelf']],
    ['the sender, uppercase hex', `0x${sender.slice(2).toUpperCase()}`, ['toSelf']],
    ["a token's contract", usdcContract, ['toToken']],
    ["a token's contract, lowercase", usdtContract.toLowerCase(), ['toToken']],
  ])('behavior: %s', (_, to, warnings) => {
    expect(Rules.receiverWarnings(to, { from: sender, tokens })).toEqual(warnings)
  })

  test('behavior: both when the sender is also a listed contract', () => {
    expect(Rules.receiverWarnings(usdcContract, { from: usdcContract.toLowerCase(), tokens })).toEqual(['toSelf', 'toToken'])
  })
  test('behavior: the native token has no contract to warn about', () => {
    expect(Rules.receiverWarnings(receiver, { from: sender, tokens: [eth] })).toEqual([])
  })
})

describe('contractOf', () => {
  test('behavior: the address part of the CAIP-10 address', () => {
    expect(Rules.contractOf(usdc)).toBe(usdcContract)
  })
  test('error: a native token has none', () => {
    expect(() => Rules.contractOf(eth)).toThrow()
  })
})

describe('isComplete', () => {
  const state: Rules.SendState = {
    token: eth,
    sendTokenAmount: '0.5',
    receiverAddress: receiver,
    receiverProfileName: undefined,
    receiverProfileImageUrl: undefined,
    gasPrice: 1_000_000_000n,
    gasPriceInUSD: 0.06,
    networkBalanceInUSD: 6000,
    tokenBalances: [eth, usdc],
    loading: false,
    lastRetry: undefined,
  }

  test.each<[string, Partial<Rules.SendState>, boolean]>([
    ['native with token, amount, receiver, gas price and decimals', {}, true],
    ['native with a gas price of 0', { gasPrice: 0n }, true],
    ['no token', { token: undefined }, false],
    ['no amount', { sendTokenAmount: undefined }, false],
    ['an empty amount', { sendTokenAmount: '' }, false],
    ['no receiver', { receiverAddress: undefined }, false],
    ['an empty receiver', { receiverAddress: '' }, false],
    ['native without a gas price (spec §5)', { gasPrice: undefined }, false],
    ['native without decimals (spec §5)', { token: { ...eth, quantity: { decimals: '', numeric: '2' } } }, false],
    ['ERC-20 without a gas price', { token: usdc, gasPrice: undefined }, true],
    ['ERC-20 without an amount', { token: usdc, sendTokenAmount: undefined }, false],
    ['ERC-20 without a receiver', { token: usdc, receiverAddress: undefined }, false],
  ])('behavior: %s', (_, change, complete) => {
    expect(Rules.isComplete({ ...state, ...change })).toBe(complete)
  })
})

describe('readTransferResult', () => {
  test('behavior: empty data is a tether-style token (spec §9)', () => {
    expect(Rules.readTransferResult('0x')).toBe('tether')
  })
  test('behavior: a 32-byte true is an ERC-20', () => {
    expect(Rules.readTransferResult(encodeAbiParameters([{ type: 'bool' }], [true]))).toBe('erc20')
  })
  test("error: a 32-byte false throws 'The token refused the transfer'", () => {
    expect(() => Rules.readTransferResult(encodeAbiParameters([{ type: 'bool' }], [false]))).toThrow(new Error('The token refused the transfer'))
  })
  test.each([
    ['too short', '0x1234'],
    ['a 32-byte word that is not a bool', `0x${'00'.repeat(31)}02`],
    ['a 32-byte word of all ones', `0x${'ff'.repeat(32)}`],
  ] as const)('error: garbage (%s) throws', (_, data) => {
    expect(() => Rules.readTransferResult(data as `0x${string}`)).toThrow()
  })
})

describe('transferRequest', () => {
  test('behavior: native: value in hex to the receiver, no data', () => {
    expect(Rules.transferRequest({ from: sender, token: eth, amount: '0.5', receiver })).toMatchInlineSnapshot(`
      {
        "from": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        "value": "0x6f05b59d3b20000",
      }
    `)
  })

  test('behavior: native: the value is the amount in wei', () => {
    const { value, data } = Rules.transferRequest({ from: sender, token: eth, amount: '1.5', receiver })
    expect(BigInt(value)).toBe(1_500_000_000_000_000_000n)
    expect(data).toBeUndefined()
  })

  test('behavior: ERC-20: a transfer call to the token contract, no value', () => {
    const request = Rules.transferRequest({ from: sender, token: usdc, amount: '12.5', receiver })
    expect({ from: request.from, to: request.to, value: request.value }).toEqual({ from: sender, to: usdcContract, value: '0x0' })
    expect(decodeFunctionData({ abi: transferAbi, data: request.data! })).toEqual({ functionName: 'transfer', args: [receiver, 12_500_000n] })
  })

  test('behavior: tether and erc20 ABIs give identical calldata', () => {
    const request = (abi: Rules.TokenAbi | undefined) => Rules.transferRequest({ from: sender, token: usdt, amount: '2500', receiver, abi })
    expect(request('tether')).toEqual(request('erc20'))
    expect(request(undefined)).toEqual(request('erc20'))
    expect(decodeFunctionData({ abi: transferAbi, data: request('tether').data! }).args).toEqual([receiver, 2_500_000_000n])
  })
})

describe('erc20Abi and tetherAbi', () => {
  test('behavior: same transfer inputs, only the outputs differ', () => {
    expect(Rules.erc20Abi[0].inputs).toEqual(Rules.tetherAbi[0].inputs)
    expect([Rules.erc20Abi[0].outputs, Rules.tetherAbi[0].outputs]).toEqual([[{ name: '', type: 'bool' }], []])
  })
})
