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
import * as SmartAccountClient from '@doorway/shared/SmartAccountClient'
import type { Address } from 'viem'
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
 * by the frame's own client (SmartAccountClient), signed as the secure-site signs it, then sent and polled
 * for its receipt.
 */
async function sponsoredAccount(network: SmartAccounts.Network) {
  const owner = privateKeyToAccount(generatePrivateKey())
  const { environment } = network
  const account = await SmartAccountClient.create({ owner: owner.address, chainId: chain.id, rpcUrl: chain.rpcUrl, network: { ...network, enforcers: environment.caveatEnforcers } })

  return async (pollingInterval: number): Promise<Timed> => {
    const prepareStarted = performance.now()
    const operation = await account.prepare([{ to: dead, value: 0n }])
    const prepareMs = performance.now() - prepareStarted
    const signature = await owner.signTypedData(SmartAccount.userOperationTypedData(operation, { chainId: chain.id, entryPoint: environment.EntryPoint }))
    // Approved: the figure starts where the secure-site's signature reaches the frame.
    const approved = performance.now()
    const receipt = await account.wait(await account.send(operation, signature), pollingInterval)
    const toReceiptMs = performance.now() - approved
    if (!receipt.success) throw new Error(`The operation reverted: ${receipt.reason ?? 'no reason given'}`)
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
