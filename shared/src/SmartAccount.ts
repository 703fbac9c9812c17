/**
 * The embedded wallet's smart account (issue 25, docs/embedded-wallet.md §1): a MetaMask HybridDeleGator
 * owned by the wallet's EOA key, behind ERC-1967 proxy that MetaMask's SimpleFactory deploys with CREATE2, on
 * ERC-4337 EntryPoint v0.7. What the frame needs to build its user operations and the secure-site needs to
 * check and sign them, with viem alone: the counterfactual address and factory call, the calls' encoding
 * (and its reading back, for the approval), and the typed data the owner signs.
 *
 * It does what `@metamask/smart-accounts-kit` 2.0.0's `toMetaMaskSmartAccount` does for a Hybrid account
 * (SmartAccount.test.ts checks them against each other), without the kit: it is 130 KB gzip even for its
 * utilities, and its top-level functions report their calls to MetaMask's analytics endpoint.
 * `import * as SmartAccount from '@doorway/shared/SmartAccount'`.
 */
import {
  type Address,
  type Hex,
  concat,
  decodeAbiParameters,
  decodeFunctionData,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  isAddressEqual,
  pad,
} from 'viem'
import type * as Protocol from './Protocol.js'
import type * as S from './Schema.js'

/** The Delegation Framework's addresses on one chain that the account needs (Protocol.smartAccountEnvironment checks them). */
export type Environment = S.Infer<typeof Protocol.smartAccountEnvironment>

export type Call = { to: Address; value: bigint; data: Hex }

/** ERC-7579's batch mode (the DeleGator's `execute(bytes32,bytes)`): every call or none. */
const batchMode = pad('0x01', { dir: 'right', size: 32 })

const execution = { type: 'tuple', components: [{ name: 'target', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'callData', type: 'bytes' }] } as const
const accountAbi = [
  { type: 'function', name: 'execute', inputs: [{ name: '_execution', ...execution }], outputs: [], stateMutability: 'payable' },
  { type: 'function', name: 'execute', inputs: [{ name: '_mode', type: 'bytes32' }, { name: '_executionCalldata', type: 'bytes' }], outputs: [], stateMutability: 'payable' },
] as const
const initializeAbi = [
  {
    type: 'function',
    name: 'initialize',
    inputs: [{ name: '_owner', type: 'address' }, { name: '_keyIds', type: 'string[]' }, { name: '_xValues', type: 'uint256[]' }, { name: '_yValues', type: 'uint256[]' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
] as const
const factoryAbi = [
  { type: 'function', name: 'deploy', inputs: [{ name: '_bytecode', type: 'bytes' }, { name: '_salt', type: 'bytes32' }], outputs: [{ name: 'addr_', type: 'address' }], stateMutability: 'nonpayable' },
] as const
const proxyAbi = [{ type: 'constructor', inputs: [{ name: 'implementation', type: 'address' }, { name: '_data', type: 'bytes' }], stateMutability: 'payable' }] as const

/** OpenZeppelin's ERC1967Proxy as `@metamask/delegation-abis` 2.0.0 ships it (SmartAccount.test.ts compares). */
export const proxyBytecode: Hex =
  '0x60806040526040516103f03803806103f08339810160408190526100229161025e565b61002c8282610033565b5050610341565b61003c82610091565b6040516001600160a01b038316907fbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b905f90a280511561008557610080828261010c565b505050565b61008d61017f565b5050565b806001600160a01b03163b5f036100cb57604051634c9c8ce360e01b81526001600160a01b03821660048201526024015b60405180910390fd5b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc80546001600160a01b0319166001600160a01b0392909216919091179055565b60605f80846001600160a01b0316846040516101289190610326565b5f60405180830381855af49150503d805f8114610160576040519150601f19603f3d011682016040523d82523d5f602084013e610165565b606091505b5090925090506101768583836101a0565b95945050505050565b341561019e5760405163b398979f60e01b815260040160405180910390fd5b565b6060826101b5576101b0826101ff565b6101f8565b81511580156101cc57506001600160a01b0384163b155b156101f557604051639996b31560e01b81526001600160a01b03851660048201526024016100c2565b50805b9392505050565b80511561020f5780518082602001fd5b604051630a12f52160e11b815260040160405180910390fd5b634e487b7160e01b5f52604160045260245ffd5b5f5b8381101561025657818101518382015260200161023e565b50505f910152565b5f806040838503121561026f575f80fd5b82516001600160a01b0381168114610285575f80fd5b60208401519092506001600160401b03808211156102a1575f80fd5b818501915085601f8301126102b4575f80fd5b8151818111156102c6576102c6610228565b604051601f8201601f19908116603f011681019083821181831017156102ee576102ee610228565b81604052828152886020848701011115610306575f80fd5b61031783602083016020880161023c565b80955050505050509250929050565b5f825161033781846020870161023c565b9190910192915050565b60a38061034d5f395ff3fe6080604052600a600c565b005b60186014601a565b6050565b565b5f604b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc546001600160a01b031690565b905090565b365f80375f80365f845af43d5f803e8080156069573d5ff35b3d5ffdfea2646970667358221220fd2cc92935c943d341edacaf5318a0b9ab0185ce62ef72e95ab393ef358730c464736f6c63430008170033'

/** One account per owner: the kit's default salt (`0x`), so an account made elsewhere with the kit is the same one. */
const salt = pad('0x', { size: 32 })

/**
 * The account `owner` has on a chain with this environment, before it exists: its address and the
 * factory call that deploys it (ERC-4337's `factory`/`factoryData`, ERC-6492's wrapper).
 */
export function counterfactual(owner: Address, environment: Environment): { address: Address; factory: Address; factoryData: Hex } {
  const initcode = encodeFunctionData({ abi: initializeAbi, functionName: 'initialize', args: [owner, [], [], []] })
  const creationCode = encodeDeployData({ abi: proxyAbi, bytecode: proxyBytecode, args: [environment.implementations.HybridDeleGatorImpl, initcode] })
  return {
    address: getContractAddress({ opcode: 'CREATE2', from: environment.SimpleFactory, salt, bytecode: creationCode }),
    factory: environment.SimpleFactory,
    factoryData: encodeFunctionData({ abi: factoryAbi, functionName: 'deploy', args: [creationCode, salt] }),
  }
}

/** The account's callData for `calls`: `execute(Execution)` for one, ERC-7579 batch mode for more (atomic: all or none). */
export function encodeCalls(calls: readonly Call[]): Hex {
  if (calls.length === 0) throw new Error('No calls to execute')
  const executions = calls.map((call) => ({ target: call.to, value: call.value, callData: call.data }))
  if (executions.length === 1) return encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [executions[0]!] })
  return encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [batchMode, encodeAbiParameters([{ ...execution, type: 'tuple[]' }], [executions])] })
}

/**
 * Reads `callData` back into its calls, so that the secure-site shows what is signed. Only what
 * `encodeCalls` makes is read (no other function or mode, no trailing bytes): an operation whose calls
 * cannot be shown is not signed.
 */
export function decodeCalls(callData: Hex): Call[] {
  const { args } = decodeFunctionData({ abi: accountAbi, data: callData })
  const call = (e: { target: Address; value: bigint; callData: Hex }): Call => ({ to: e.target, value: e.value, data: e.callData })
  let calls: Call[]
  if (args.length === 1) calls = [call(args[0])]
  else if (args[0] === batchMode) calls = decodeAbiParameters([{ ...execution, type: 'tuple[]' }], args[1])[0].map(call)
  else throw new Error(`Unsupported execution mode ${args[0]}`)
  if (encodeCalls(calls) !== callData.toLowerCase()) throw new Error('The operation’s calls do not read back as they were encoded')
  return calls
}

/** An EntryPoint v0.7 user operation, unpacked, as bundlers take it (ERC-7769); numbers as bigint. */
export type UserOperation = {
  sender: Address
  nonce: bigint
  factory?: Address | undefined
  factoryData?: Hex | undefined
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymaster?: Address | undefined
  paymasterVerificationGasLimit?: bigint | undefined
  paymasterPostOpGasLimit?: bigint | undefined
  paymasterData?: Hex | undefined
}

/** The ERC-7769 JSON fields of an EntryPoint v0.7 operation (its signature aside): what the frame sends the secure-site, which refuses any other. */
export const operationFields = [
  'sender',
  'nonce',
  'factory',
  'factoryData',
  'callData',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymaster',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
  'paymasterData',
] as const

const userOperationTypes = {
  PackedUserOperation: [
    { name: 'sender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'initCode', type: 'bytes' },
    { name: 'callData', type: 'bytes' },
    { name: 'accountGasLimits', type: 'bytes32' },
    { name: 'preVerificationGas', type: 'uint256' },
    { name: 'gasFees', type: 'bytes32' },
    { name: 'paymasterAndData', type: 'bytes' },
    { name: 'entryPoint', type: 'address' },
  ],
} as const

const u128 = (x: bigint) => pad(`0x${x.toString(16)}`, { size: 16 })

/**
 * What the owner signs for an operation: the HybridDeleGator checks an EIP-712 signature of the packed
 * operation, bound to this account (its domain) and to the EntryPoint, on this chain.
 */
export function userOperationTypedData(operation: UserOperation, options: { chainId: number; entryPoint: Address }) {
  const paymasterAndData = operation.paymaster
    ? concat([operation.paymaster, u128(operation.paymasterVerificationGasLimit ?? 0n), u128(operation.paymasterPostOpGasLimit ?? 0n), operation.paymasterData ?? '0x'])
    : '0x'
  return {
    domain: { name: 'HybridDeleGator', version: '1', chainId: options.chainId, verifyingContract: operation.sender },
    types: userOperationTypes,
    primaryType: 'PackedUserOperation',
    message: {
      sender: operation.sender,
      nonce: operation.nonce,
      initCode: operation.factory ? concat([operation.factory, operation.factoryData ?? '0x']) : '0x',
      callData: operation.callData,
      accountGasLimits: concat([u128(operation.verificationGasLimit), u128(operation.callGasLimit)]),
      preVerificationGas: operation.preVerificationGas,
      gasFees: concat([u128(operation.maxPriorityFeePerGas), u128(operation.maxFeePerGas)]),
      paymasterAndData,
      entryPoint: options.entryPoint,
    },
  } as const
}

/** The most the operation can cost its account: every gas limit at the highest fee (0 when a paymaster pays). */
export function maxCost(operation: UserOperation): bigint {
  if (operation.paymaster) return 0n
  return (operation.callGasLimit + operation.verificationGasLimit + operation.preVerificationGas) * operation.maxFeePerGas
}

/** A signature of the right shape for gas estimation (the kit's EOA stub): bundlers simulate with it. */
export const stubSignature: Hex = '0x000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000011b'

/** Whether `sender` is the account `owner` has with this environment: the secure-site signs for no other. */
export function isOwnedBy(sender: Address, owner: Address, environment: Environment): boolean {
  return isAddressEqual(sender, counterfactual(owner, environment).address)
}
