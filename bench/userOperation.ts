/**
 * A sponsored user operation's time from approval to receipt (issue 25, docs/embedded-wallet.md §7), on a
 * throwaway anvil with the smart-account stack of its own (devnet/src/smartAccounts): from the moment the
 * secure-site hands back the owner's signature to the bundler's receipt, i.e. `eth_sendUserOperation` of
 * a prepared, signed operation, then `eth_getUserOperationReceipt` until it answers. Polled every 250 ms as
 * the frame polls (what a person sees) and every 50 ms (closer to the raw time), in alternate runs; the
 * prepare time (paymaster stub, gas estimation, paymaster data) beside them. Operations are built as the
 * frame builds them (frame-app's embedded smart account, with viem alone), for a fresh owner key.
 * `npm run bench` calls `measure`; `npx tsx bench/userOperation.ts` prints these figures alone.
 */
import { fileURLToPath } from 'node:url'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import { type Address, createPublicClient, http } from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint07Abi,
  formatUserOperationRequest,
  toSmartAccount,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import * as Anvil from '@doorway/devnet/anvil'
import * as SmartAccounts from '@doorway/devnet/smartAccounts/stack'
import { quantile } from './load.js'

// Ports apart from the running stack's and from devnet's tests (smartAccounts/stack.test.ts uses 187xx).
const chain = { id: 31337, port: 18845, rpcUrl: 'http://127.0.0.1:18845' }
const ports = [{ bundler: 18846, paymaster: 18847 }]
const warmups = 2
const runs = 10
/** The frame's polling (frame-app's embedded smart account), and a finer one for the time underneath it. */
const framePollingMs = 250
const rawPollingMs = 50
const requestTimeoutMs = 10_000
const receiptTimeoutMs = 60_000
const dead: Address = '0x000000000000000000000000000000000000dEaD'

type Timed = { prepareMs: number; toReceiptMs: number }
export type Sample = { medianMs: number; p95Ms: number; samplesMs: number[] }
export type Figures = { runs: number; warmups: number; first: Timed; frame: Sample; raw: Sample; prepare: Sample }

export async function measure(): Promise<Figures> {
  const anvil = await Anvil.start({ chains: [chain] })
  try {
    const stack = await SmartAccounts.start({ chains: [chain], ports })
    try {
      return await measureOn(stack.networks[0]!)
    } finally {
      await stack.stop()
    }
  } finally {
    await anvil.stop()
  }
}

async function measureOn(network: SmartAccounts.Network): Promise<Figures> {
  const operate = await sponsoredAccount(network)
  // The account's first operation also deploys it (its factory call): a figure of its own.
  const first = await operate(framePollingMs)
  for (let run = 0; run < warmups; run++) await operate(framePollingMs)
  // Alternate runs, so that neither polling gets the quieter chain.
  const frame: Timed[] = []
  const raw: Timed[] = []
  for (let run = 0; run < runs; run++) {
    frame.push(await operate(framePollingMs))
    raw.push(await operate(rawPollingMs))
  }
  return {
    runs,
    warmups,
    first: { prepareMs: round(first.prepareMs), toReceiptMs: round(first.toReceiptMs) },
    frame: stats(frame.map((t) => t.toReceiptMs)),
    raw: stats(raw.map((t) => t.toReceiptMs)),
    prepare: stats([...frame, ...raw].map((t) => t.prepareMs)),
  }
}

/**
 * A fresh owner's smart account on `network`, and one timed operation of it (a 0-value call): prepared
 * as the frame prepares it, signed as the secure-site signs it, then sent and polled for its receipt.
 */
async function sponsoredAccount(network: SmartAccounts.Network) {
  const owner = privateKeyToAccount(generatePrivateKey())
  const { environment } = network
  const { address, factory, factoryData } = SmartAccount.counterfactual(owner.address, environment)
  const client = createPublicClient({ chain: Anvil.viemChain(chain), transport: http(chain.rpcUrl, { timeout: requestTimeoutMs, retryCount: 0 }) })
  const account = await toSmartAccount({
    client,
    entryPoint: { abi: entryPoint07Abi, address: environment.EntryPoint, version: '0.7' },
    getAddress: async () => address,
    encodeCalls: async (calls) => SmartAccount.encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))),
    decodeCalls: async (data) => SmartAccount.decodeCalls(data),
    getFactoryArgs: async () => ({ factory, factoryData }),
    getStubSignature: async () => SmartAccount.stubSignature,
    // As in the frame, the owner signs between prepare and send (below), never through the account.
    signMessage: () => Promise.reject(new Error('The bench signs only operations')),
    signTypedData: () => Promise.reject(new Error('The bench signs only operations')),
    signUserOperation: () => Promise.reject(new Error('The bench signs operations as the secure-site does')),
  })
  const paymaster = createPaymasterClient({ transport: http(network.paymasterUrl, { timeout: requestTimeoutMs, retryCount: 0 }) })
  const bundler = createBundlerClient({
    client,
    account,
    paymaster,
    transport: http(network.bundlerUrl, { timeout: requestTimeoutMs, retryCount: 0 }),
    pollingInterval: framePollingMs,
    // As the frame bids: the chain's suggested tip, the buffer on the fee cap only (viem's default doubles the tip).
    userOperation: {
      async estimateFeesPerGas() {
        const fees = await client.estimateFeesPerGas({ type: 'eip1559' })
        return { maxFeePerGas: 2n * fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
      },
    },
  })

  return async (pollingInterval: number): Promise<Timed> => {
    const prepareStarted = performance.now()
    const operation = (await bundler.prepareUserOperation({ calls: [{ to: dead, value: 0n, data: '0x' }] })) as UserOperation<'0.7'>
    const prepareMs = performance.now() - prepareStarted
    const signature = await owner.signTypedData(SmartAccount.userOperationTypedData(operation, { chainId: chain.id, entryPoint: environment.EntryPoint }))
    // Approved: the figure starts where the secure-site's signature reaches the frame.
    const approved = performance.now()
    const hash = await bundler.request({ method: 'eth_sendUserOperation', params: [formatUserOperationRequest({ ...operation, signature }), environment.EntryPoint] }, { retryCount: 0 })
    const receipt = await bundler.waitForUserOperationReceipt({ hash, pollingInterval, timeout: receiptTimeoutMs })
    const toReceiptMs = performance.now() - approved
    if (!receipt.success) throw new Error(`The operation ${hash} reverted: ${receipt.reason ?? 'no reason given'}`)
    return { prepareMs, toReceiptMs }
  }
}

const round = (n: number) => Math.round(n * 10) / 10

function stats(values: number[]): Sample {
  return { medianMs: quantile(values, 0.5), p95Ms: quantile(values, 0.95), samplesMs: values.map(round) }
}

export function format(f: Figures): string[] {
  const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`
  const row = (label: string, s: Sample, note = '') => `  ${label.padEnd(40)}median ${ms(s.medianMs)}   p95 ${ms(s.p95Ms)}${note}`
  return [
    `Sponsored user operation (issue 25), a throwaway anvil, bundler and paymaster; approval to receipt, ${f.runs} runs each after ${f.warmups} warm-ups`,
    row(`polled every ${framePollingMs} ms (as the frame)`, f.frame),
    row(`polled every ${rawPollingMs} ms`, f.raw),
    row('prepare (stub, gas, paymaster data)', f.prepare, `   (all ${f.prepare.samplesMs.length} runs, before approval)`),
    `  ${'first operation (deploys the account)'.padEnd(40)}${ms(f.first.toReceiptMs)} to receipt (polled every ${framePollingMs} ms), prepare ${ms(f.first.prepareMs).trim()}`,
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(format(await measure()).join('\n'))
