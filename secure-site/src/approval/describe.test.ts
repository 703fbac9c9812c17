import * as SmartAccount from '@doorway/shared/SmartAccount'
import { format } from '@doorway/shared/Texts'
import { approveText } from '@doorway/shared/texts/approve'
import { encodeFunctionData, erc20Abi, hashTypedData, parseEther, recoverTransactionAddress, toHex } from 'viem'
import { formatUserOperationRequest, type UserOperation } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import * as Approval from './describe.js'

// Anvil's first account (a public test key) and second address.
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const from = account.address
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const base = { chainId: 'eip155:31337', from } as const

function request(method: Approval.Method, params: unknown[], extra: Partial<Approval.Request> = {}): Approval.Request {
  return { ...base, method, params, ...extra }
}

function row(description: Approval.Description, label: string) {
  return description.rows.find((r) => r.label === label)
}

describe('describe', () => {
  test('behavior: every request shows the network and the wallet address', () => {
    const named = Approval.describe(request('personal_sign', [toHex('hi'), from], { chainName: 'Anvil' }))
    expect(named.rows.slice(0, 2)).toEqual([
      { label: approveText.network, value: 'Anvil (31337)' },
      { label: approveText.from, value: from, mono: true },
    ])
    const unnamed = Approval.describe(request('personal_sign', [toHex('hi'), from.toLowerCase()]))
    expect(row(unnamed, approveText.network)?.value).toBe('Chain 31337')
  })

  test.each([
    ['a non-EIP-155 network', { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }, 'is not an EIP-155 chain'],
    ['a malformed network', { chainId: 'eip155:0x7a69' }, 'is not an EIP-155 chain'],
    ['a chain name with a bidi override', { chainName: 'Ethereum\u202e' }, 'chainName is not a short plain text'],
    ['an unknown method', { method: 'eth_sign' as Approval.Method }, 'Unsupported method: eth_sign'],
    ['params that are not a list', { params: {} as unknown[] }, 'params is not a list'],
  ])('error: %s', (_, extra, message) => {
    expect(() => Approval.describe(request('personal_sign', [toHex('hi'), from], extra))).toThrow(message)
  })

  test('error: InvalidRequest is an Error with the JSON-RPC invalid-params code', () => {
    const error = (() => {
      try {
        Approval.describe(request('personal_sign', []))
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(Approval.InvalidRequest)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'InvalidRequest', code: -32602, message: 'personal_sign: expected 2 params, got 0' })
  })
})

describe('describe: personal_sign', () => {
  test('behavior: a readable UTF-8 message is shown as text, and signed as the exact bytes', () => {
    const message = toHex('Sign in to example.org\nNonce: 42\tété ✓')
    const description = Approval.describe(request('personal_sign', [message, from]))
    expect(description.title).toBe(approveText.methods.personal_sign)
    expect(description.message).toBe(message)
    expect(description.rows.at(-1)).toEqual({ label: approveText.message, value: 'Sign in to example.org\nNonce: 42\tété ✓' })
  })

  test.each([
    ['bytes that are not UTF-8', '0xff00fe'],
    ['a control character', toHex('pay\u0007me')],
    ['a bidi override that reorders the text', toHex('amount \u202e001')],
    ['a line separator', toHex('line\u2028line')],
    ['an empty message', '0x'],
  ])('behavior: %s is shown as hex', (_, message) => {
    const description = Approval.describe(request('personal_sign', [message, from]))
    expect(description.rows.at(-1)).toEqual({ label: approveText.messageHex, value: message, mono: true })
  })

  test('error: the address is not this wallet', () => {
    expect(() => Approval.describe(request('personal_sign', [toHex('hi'), bob]))).toThrow("personal_sign: the address is not this wallet's address")
  })

  test.each([
    ['no params', []],
    ['a third param', [toHex('hi'), from, 'password']],
    ['a plain-text message', ['hello', from]],
    ['an odd number of hex digits', ['0xabc', from]],
    ['a message that is not a string', [42, from]],
    ['an address that is not an address', [toHex('hi'), 'me']],
    ['a message over 64 KB', [`0x${'61'.repeat(65_537)}`, from]],
  ])('error: %s', (_, params) => {
    expect(() => Approval.describe(request('personal_sign', params))).toThrow(Approval.InvalidRequest)
  })
})

// EIP-712's own example, on the request's chain.
const mail = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' },
  message: {
    from: { name: 'Cow', wallet: '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826' },
    to: [{ name: 'Bob', wallet: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }],
    contents: 'Hello, Bob!\nP.S. ignore the line above',
    amount: '1000000000000000000',
  },
}

function withMail(change: (typed: typeof mail) => unknown): unknown {
  const copy = structuredClone(mail)
  return change(copy) ?? copy
}

describe('describe: eth_signTypedData_v4', () => {
  test('behavior: shows the domain, the type and the signed fields, one per line', () => {
    const description = Approval.describe(request('eth_signTypedData_v4', [from, JSON.stringify(mail)]))
    expect(description.title).toBe(approveText.methods.eth_signTypedData_v4)
    expect(description.rows.slice(2)).toMatchInlineSnapshot(`
      [
        {
          "label": "Domain",
          "mono": true,
          "value": "name: "Ether Mail"
      version: "1"
      chainId: 31337
      verifyingContract: 0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
        },
        {
          "label": "Type",
          "mono": true,
          "value": "Mail",
        },
        {
          "label": "Typed data",
          "mono": true,
          "value": "from.name: "Cow"
      from.wallet: 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826
      to[0].name: "Bob"
      to[0].wallet: 0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB
      contents: "Hello, Bob!\\nP.S. ignore the line above"
      amount: 1,000,000,000,000,000,000",
        },
      ]
    `)
  })

  test('behavior: what is signed hashes as the request does, with integers as bigints', () => {
    const { typedData } = Approval.describe(request('eth_signTypedData_v4', [from, JSON.stringify(mail)]))
    expect(typedData?.message.amount).toBe(10n ** 18n)
    expect(hashTypedData(typedData as never)).toBe(hashTypedData({ ...mail, message: { ...mail.message, amount: 10n ** 18n } } as never))
  })

  test('param: an object and its JSON string describe the same', () => {
    const fromObject = Approval.describe(request('eth_signTypedData_v4', [from, mail]))
    const fromString = Approval.describe(request('eth_signTypedData_v4', [from, JSON.stringify(mail)]))
    expect(fromObject).toEqual(fromString)
  })

  test('behavior: a field the types do not name is neither shown nor signed', () => {
    const typed = withMail((t) => void Object.assign(t.message, { note: 'this transfer is free' }))
    const description = Approval.describe(request('eth_signTypedData_v4', [from, typed]))
    expect(row(description, approveText.typedData)?.value).not.toContain('free')
    expect(description.typedData?.message).not.toHaveProperty('note')
  })

  test('behavior: without an EIP712Domain type the domain fields present are used', () => {
    const typed = withMail((t) => {
      const { EIP712Domain: _, ...types } = t.types
      return { ...t, types, domain: { name: 'Ether Mail', chainId: '0x7a69' } }
    })
    const description = Approval.describe(request('eth_signTypedData_v4', [from, typed]))
    expect(row(description, approveText.domain)?.value).toBe('name: "Ether Mail"\nchainId: 31337')
  })

  test('error: domain.chainId is another chain', () => {
    const typed = withMail((t) => void (t.domain.chainId = 1))
    expect(() => Approval.describe(request('eth_signTypedData_v4', [from, typed]))).toThrow(
      'eth_signTypedData_v4: domain.chainId 1 is not the chain of this request (31337)',
    )
  })

  test('error: the address is not this wallet', () => {
    expect(() => Approval.describe(request('eth_signTypedData_v4', [bob, mail]))).toThrow("the address is not this wallet's address")
  })

  test.each([
    ['text that is not JSON', '{"types":'],
    ['no primaryType', withMail((t) => void Object.assign(t, { primaryType: undefined }))],
    ['a primaryType that is not a type', withMail((t) => void (t.primaryType = 'Letter'))],
    ['no domain', withMail((t) => void Object.assign(t, { domain: undefined }))],
    ['a missing field', withMail((t) => void Object.assign(t.message, { amount: undefined }))],
    ['an amount out of range', withMail((t) => void (t.message.amount = (2n ** 256n).toString()))],
    ['a negative uint', withMail((t) => void (t.message.amount = '-1'))],
    ['an address that is not one', withMail((t) => void (t.message.from.wallet = '0x1234'))],
    ['an unknown field type', withMail((t) => void (t.types.Mail[3]!.type = 'uint7'))],
    ['a type named after an Object member', withMail((t) => void Object.assign(t.types, { constructor: [] }))],
    ['a struct that is not an object', withMail((t) => void Object.assign(t.message, { from: 'Cow' }))],
    ['a document over 64 KB', withMail((t) => void (t.message.contents = 'x'.repeat(65_536)))],
    ['one param', undefined],
  ])('error: %s', (_, typed) => {
    const params = typed === undefined ? [from] : [from, typed]
    expect(() => Approval.describe(request('eth_signTypedData_v4', params))).toThrow(Approval.InvalidRequest)
  })
})

const transfer = {
  from,
  to: bob,
  value: '0x16345785d8a0000', // 0.1 ETH
  gas: '0x5208', // 21000
  nonce: '0x7',
  maxFeePerGas: '0x77359400', // 2 gwei
  maxPriorityFeePerGas: '0x3b9aca00', // 1 gwei
}

function send(tx: Record<string, unknown>, extra: Partial<Approval.Request> = {}) {
  return Approval.describe(request('eth_sendTransaction', [tx], extra))
}

describe('describe: eth_sendTransaction', () => {
  test('behavior: with the frame\'s price, the value and the fee also show in the dapp\'s currency beside the exact amount', () => {
    const description = send(transfer, { chainName: 'Anvil', nativeSymbol: 'ETH', fiat: { price: 3000, currency: 'USD' } })
    const rows = Object.fromEntries(description.rows.map((r) => [r.label, r.value]))
    expect(rows[approveText.network]).toBe('Anvil (31337)')
    expect(rows[approveText.value]).toMatch(/^0\.1 ETH \(≈ \$300(\.00)?\)$/)
    expect(rows[approveText.fee]).toMatch(/^0\.000042 ETH \(≈ \$0\.13\)$/)
    // A name that carries the number already is shown once; a number inside another number does not count.
    expect(send(transfer, { chainName: 'Anvil 31337' }).rows[0]!.value).toBe('Anvil 31337')
    expect(send(transfer, { chainName: 'Net 313370' }).rows[0]!.value).toBe('Net 313370 (31337)')
    // Without a name the chain is still named by its number, never as a CAIP-2 id.
    expect(send(transfer).rows[0]).toEqual({ label: approveText.network, value: 'Chain 31337' })
  })

  test('behavior: shows recipient, value and the max network fee, and returns a transaction the key signs as is', async () => {
    const description = send({ ...transfer, chainId: '0x7a69', type: '0x2' }, { chainName: 'Anvil', nativeSymbol: 'ETH' })
    expect(description.title).toBe(approveText.methods.eth_sendTransaction)
    expect(description.rows).toEqual([
      { label: approveText.network, value: 'Anvil (31337)' },
      { label: approveText.from, value: from, mono: true },
      { label: approveText.to, value: bob, mono: true },
      { label: approveText.value, value: '0.1 ETH' },
      { label: approveText.fee, value: '0.000042 ETH' }, // 21000 × 2 gwei
    ])
    expect(description.transaction).toEqual({
      type: 'eip1559',
      chainId: 31337,
      nonce: 7,
      to: bob,
      value: parseEther('0.1'),
      gas: 21_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
    const signed = await account.signTransaction(description.transaction!)
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(from)
  })

  test('behavior: large values are grouped and exact, in the network\'s symbol', () => {
    const description = send({ ...transfer, value: toHex(parseEther('1234.000000000000000001')) }, { nativeSymbol: 'GO' })
    expect(row(description, approveText.value)?.value).toBe('1,234.000000000000000001 GO')
  })

  test.each([
    ['transfer', [bob, 1_000_000n], 'transfer\nrecipient: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8\namount: 1,000,000'],
    ['approve', [bob, 2n ** 256n - 1n], `approve\nspender: ${bob}\namount: ${(2n ** 256n - 1n).toLocaleString('en-US')}`],
    ['transferFrom', [from, bob, 5n], `transferFrom\nsender: ${from}\nrecipient: ${bob}\namount: 5`],
  ] as const)('behavior: an ERC-20 %s is decoded', (functionName, args, shown) => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName, args } as never)
    const description = send({ ...transfer, to: token, value: undefined, data })
    expect(row(description, approveText.call)).toEqual({ label: approveText.call, value: shown, mono: true })
    expect(row(description, approveText.value)?.value).toBe('0 ETH')
    expect(description.transaction?.data).toBe(data)
  })

  test('behavior: another call shows its selector and length', () => {
    const description = send({ ...transfer, data: `0x12345678${'00'.repeat(32)}` })
    expect(row(description, approveText.data)).toEqual({ label: approveText.data, value: '0x12345678 · 36 bytes', mono: true })
    expect(row(description, approveText.call)).toBeUndefined()
  })

  test('behavior: an ERC-20 selector with trailing bytes is not shown as a clean transfer', () => {
    const data = `${encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1n] })}00` as const
    const description = send({ ...transfer, to: token, data })
    expect(row(description, approveText.call)).toBeUndefined()
    expect(row(description, approveText.data)?.value).toBe('0xa9059cbb · 69 bytes')
  })

  test('behavior: without `to` it is a contract creation', () => {
    const { to: _, ...creation } = transfer
    const description = send({ ...creation, data: '0x6080604052' })
    expect(row(description, approveText.to)).toEqual({ label: approveText.to, value: approveText.contractCreation })
    expect(row(description, approveText.data)?.value).toBe('5 bytes')
    expect(description.transaction).not.toHaveProperty('to')
    expect(description.transaction?.data).toBe('0x6080604052')
  })

  test('error: a contract creation without code', () => {
    const { to: _, ...creation } = transfer
    expect(() => send(creation)).toThrow('eth_sendTransaction: a contract creation needs data')
  })

  test('error: chainId is another chain', () => {
    expect(() => send({ ...transfer, chainId: '0x1' })).toThrow('eth_sendTransaction: chainId 0x1 is not the chain of this request (31337)')
  })

  test('error: from is not this wallet', () => {
    expect(() => send({ ...transfer, from: bob })).toThrow("eth_sendTransaction: from is not this wallet's address")
  })

  test.each([
    ['no gas', { gas: undefined }],
    ['no nonce', { nonce: undefined }],
    ['no maxFeePerGas', { maxFeePerGas: undefined }],
    ['no maxPriorityFeePerGas', { maxPriorityFeePerGas: undefined }],
    ['a decimal value', { value: '100' }],
    ['a quantity with a leading zero', { nonce: '0x07' }],
    ['a number instead of hex', { gas: 21000 }],
    ['zero gas', { gas: '0x0' }],
    ['a priority fee above the max fee', { maxPriorityFeePerGas: '0x77359401' }],
    ['a value over 2^256', { value: `0x1${'0'.repeat(64)}` }],
    ['a legacy gasPrice', { gasPrice: '0x1' }],
    ['a legacy type', { type: '0x0' }],
    ['a bad recipient', { to: '0x1234' }],
    ['a recipient with a wrong checksum', { to: bob.replace('C51812dc3A010C7d01b50e0d17dc79C8', 'c51812dc3A010C7d01b50e0d17dc79C8') }],
    ['data with odd hex digits', { data: '0x123' }],
  ])('error: %s', (_, change) => {
    expect(() => send({ ...transfer, ...change })).toThrow(Approval.InvalidRequest)
  })

  test.each([
    ['no params', []],
    ['two transactions', [transfer, transfer]],
    ['a transaction that is not an object', ['0x']],
  ])('error: %s', (_, params) => {
    expect(() => Approval.describe(request('eth_sendTransaction', params))).toThrow(Approval.InvalidRequest)
  })
})

// The person's smart account (issue 25): the devnet's Delegation Framework addresses (any do for encodings).
const environment: SmartAccount.Environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xFe36d33e04115203d2914caFbf84A949B35e8426',
  SimpleFactory: '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9',
  implementations: { HybridDeleGatorImpl: '0x407B5a261EC38a3F1b5cEBfF931a6Fe647EB07A5' },
}
const smart = SmartAccount.counterfactual(from, environment)
const smartRows = [
  { label: approveText.network, value: 'Anvil (31337)' },
  { label: approveText.from, value: smart.address, mono: true },
  { label: approveText.signsAs, value: approveText.smartAccount },
]

describe('describe: a smart account', () => {
  test('behavior: personal_sign names the smart account (derived from the key, not given) and signs the message as is', () => {
    const message = toHex('Sign in to example.org')
    const description = Approval.describe(request('personal_sign', [message, smart.address], { chainName: 'Anvil', smartAccount: environment }))
    expect(description.rows).toEqual([...smartRows, { label: approveText.message, value: 'Sign in to example.org' }])
    expect(description.message).toBe(message)
  })

  test('behavior: typed data is for the smart account\'s address', () => {
    const description = Approval.describe(request('eth_signTypedData_v4', [smart.address.toLowerCase(), mail], { chainName: 'Anvil', smartAccount: environment }))
    expect(description.rows.slice(0, 3)).toEqual(smartRows)
    expect(description.typedData?.primaryType).toBe('Mail')
  })

  test.each([
    ['personal_sign', [toHex('hi'), from], "personal_sign: the address is not this wallet's address"],
    ['eth_signTypedData_v4', [from, mail], "eth_signTypedData_v4: the address is not this wallet's address"],
  ] as const)('error: %s for the key\'s own address is refused: the dapp knows only the smart account', (method, params, message) => {
    expect(() => Approval.describe(request(method, [...params], { smartAccount: environment }))).toThrow(message)
  })

  test('error: eth_sendTransaction: a smart account sends operations', () => {
    expect(() => send(transfer, { smartAccount: environment })).toThrow('eth_sendTransaction: a smart account sends user operations, not transactions')
    expect(() => send({ ...transfer, from: smart.address }, { smartAccount: environment })).toThrow(Approval.InvalidRequest)
  })
})

const paymaster = { paymaster: '0x1111111111111111111111111111111111111111', paymasterVerificationGasLimit: 40_000n, paymasterPostOpGasLimit: 10_000n, paymasterData: '0xabcdef' } as const

/** An operation as the frame sends it: viem's ERC-7769 JSON of what its bundler client prepared. */
function operation(calls: SmartAccount.Call[], change: Partial<UserOperation<'0.7'>> = {}) {
  return formatUserOperationRequest({
    sender: smart.address,
    nonce: 3n,
    callData: SmartAccount.encodeCalls(calls),
    callGasLimit: 100_000n,
    verificationGasLimit: 300_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    ...change,
  })
}

function signUserOperation(op: unknown, extra: Partial<Approval.Request> = {}) {
  return Approval.describe(request('eth_signUserOperation', [op], { chainName: 'Anvil', smartAccount: environment, ...extra }))
}

describe('describe: eth_signUserOperation', () => {
  const erc20Transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1_000_000n] })

  test('behavior: a sponsored call shows its recipient and value, and the app paying the fee; the owner signs the PackedUserOperation', () => {
    const description = signUserOperation(operation([{ to: bob, value: parseEther('0.1'), data: '0x' }], paymaster))
    expect(description.title).toBe(approveText.methods.eth_signUserOperation)
    expect(description.rows).toEqual([
      ...smartRows,
      { label: approveText.to, value: bob, mono: true },
      { label: approveText.value, value: '0.1 ETH' },
      { label: approveText.networkFee, value: approveText.sponsored },
    ])
    const { operation: read, typedData } = description.userOperation!
    expect(read).toMatchObject({ sender: smart.address, nonce: 3n, ...paymaster })
    expect(typedData).toEqual(SmartAccount.userOperationTypedData(read, { chainId: 31337, entryPoint: environment.EntryPoint }))
    expect(typedData.domain).toMatchObject({ chainId: 31337, verifyingContract: smart.address })
  })

  test('behavior: an unsponsored batch numbers its calls, decodes the ERC-20 transfer, and shows the most the fee can be', () => {
    const calls: SmartAccount.Call[] = [
      { to: token, value: 0n, data: erc20Transfer },
      { to: bob, value: parseEther('0.5'), data: '0x' },
    ]
    // viem fills zero paymaster gas limits from the bundler's estimate even without a paymaster.
    const op = operation(calls, { paymasterVerificationGasLimit: 0n, paymasterPostOpGasLimit: 0n })
    const description = signUserOperation(op, { nativeSymbol: 'ETH', fiat: { price: 3000, currency: 'USD' } })
    expect(description.rows.slice(3)).toEqual([
      { label: format(approveText.callNumbered, { n: 1, count: 2 }), value: '', heading: true },
      { label: approveText.to, value: token, mono: true },
      { label: approveText.value, value: '0 ETH (≈ $0.00)' },
      { label: approveText.call, value: `transfer\nrecipient: ${bob}\namount: 1,000,000`, mono: true },
      { label: format(approveText.callNumbered, { n: 2, count: 2 }), value: '', heading: true },
      { label: approveText.to, value: bob, mono: true },
      { label: approveText.value, value: '0.5 ETH (≈ $1,500.00)' },
      // (100,000 + 300,000 + 50,000) gas × 2 gwei
      { label: approveText.fee, value: '0.0009 ETH (≈ $2.70)' },
    ])
    expect(description.userOperation?.operation.paymaster).toBeUndefined()
    expect(SmartAccount.maxCost(description.userOperation!.operation)).toBe(parseEther('0.0009'))
  })

  test('behavior: the first operation says it creates the account, and signs its deployment', () => {
    const description = signUserOperation(operation([{ to: bob, value: 1n, data: '0x' }], { factory: smart.factory, factoryData: smart.factoryData, ...paymaster }))
    expect(description.rows[3]).toEqual({ label: approveText.smartAccount, value: approveText.accountCreated })
    expect(description.userOperation?.typedData.message.initCode).toBe(`${smart.factory}${smart.factoryData.slice(2)}`)
    const later = signUserOperation(operation([{ to: bob, value: 1n, data: '0x' }], paymaster))
    expect(later.rows.some((r) => r.value === approveText.accountCreated)).toBe(false)
  })

  test('error: without the smart account it is refused', () => {
    expect(() => Approval.describe(request('eth_signUserOperation', [operation([{ to: bob, value: 1n, data: '0x' }])]))).toThrow(
      'eth_signUserOperation: this wallet signs operations only for its smart account',
    )
  })

  test('error: an operation for another sender, or calls it cannot show, is refused before it is shown', () => {
    const calls: SmartAccount.Call[] = [{ to: bob, value: 1n, data: '0x' }]
    expect(() => signUserOperation(operation(calls, { sender: from }))).toThrow("sender is not this wallet's smart account")
    expect(() => signUserOperation({ ...operation(calls), callData: erc20Transfer })).toThrow('its calls cannot be shown')
  })

  test.each([
    ['no params', []],
    ['two operations', [operation([{ to: bob, value: 1n, data: '0x' }]), operation([{ to: bob, value: 1n, data: '0x' }])]],
  ])('error: %s', (_, params) => {
    expect(() => Approval.describe(request('eth_signUserOperation', params, { smartAccount: environment }))).toThrow(Approval.InvalidRequest)
  })
})
