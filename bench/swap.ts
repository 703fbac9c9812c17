/**
 * The swap quote route's latency (issue 11), on a throwaway anvil and api of their own: the devnet's
 * tokens and exchange (devnet/src/exchange.ts), then quotes under 50 concurrent requests, over pairs with
 * a direct pool and pairs the api weighs against the route through WETH. `npm run bench` calls `measure`;
 * `npx tsx bench/swap.ts` prints these figures alone.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChainId } from '@doorway/shared/Caip'
import { parseEther, parseUnits } from 'viem'
import * as Anvil from '@doorway/devnet/anvil'
import { freePort, latency } from './load.js'
import * as Exchange from '@doorway/devnet/exchange'
import * as Tokens from '@doorway/devnet/tokens'
import { nativeTokenAddress } from '@doorway/api/assets'
import * as Server from '@doorway/api/server'
import { projectId, testConfig } from '@doorway/api/testing'

const concurrency = 50
const requests = 1_000
const chainId: ChainId = 'eip155:31337'
const user = Tokens.holders[0]!

export type Figures = { requests: number; concurrency: number; pairs: number; p50Ms: number; p95Ms: number }

export async function measure(): Promise<Figures> {
  const [anvilPort, apiPort] = [await freePort(), await freePort()]
  const chain = { id: 31337, port: anvilPort, rpcUrl: `http://127.0.0.1:${anvilPort}` }
  const anvil = await Anvil.start({ chains: [chain] })
  const dir = await mkdtemp(join(tmpdir(), 'doorway-bench-swap-'))
  try {
    // A manifest of its own: never the developer's .doorway/devnet.json, which a running stack reads.
    const manifest = join(dir, 'devnet.json')
    const { tokens } = await Tokens.deploy({ chains: [chain], manifest })
    const { exchange } = await Exchange.deploy({ chains: [chain], tokens, manifest })
    const config = {
      ...testConfig({ [chainId]: chain.rpcUrl }, tokens, { [chainId]: exchange[chainId]! }),
      port: apiPort,
      publicUrl: `http://127.0.0.1:${apiPort}`,
      storage: { kind: 'embedded' as const, dir },
    }
    const id = (symbol: string) => `${chainId}:${symbol === 'ETH' ? nativeTokenAddress : tokens[chainId]!.find((t) => t.symbol === symbol)!.address}`
    const pairs = [
      { from: id('ETH'), to: id('DUSD'), amount: parseEther('1') },
      { from: id('DUSD'), to: id('ETH'), amount: parseUnits('500', 6) },
      { from: id('DWT'), to: id('ETH'), amount: parseUnits('10000', 18) },
      // two candidate routes each: direct and through WETH
      { from: id('DUSD'), to: id('DWT'), amount: parseUnits('10000', 6) },
      { from: id('DWT'), to: id('DUSD'), amount: parseUnits('100', 18) },
    ]
    return { requests, concurrency, pairs: pairs.length, ...(await quoteLatency(config, pairs)) }
  } finally {
    await anvil.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

/** Quotes from the api, `concurrency` at a time, the pairs taken in turn. */
async function quoteLatency(config: Parameters<typeof Server.start>[0], pairs: { from: string; to: string; amount: bigint }[]): Promise<{ p50Ms: number; p95Ms: number }> {
  const api = await Server.start(config)
  try {
    return await latency(
      async (i) => {
        const { from, to, amount } = pairs[i % pairs.length]!
        const query = new URLSearchParams({ projectId, st: 'appkit', sv: 'bench', amount: amount.toString(), userAddress: user, from, to })
        const res = await fetch(`${api.url}/v1/convert/quotes?${query}`)
        const body = (await res.json()) as { quotes?: { toAmount: string }[] }
        if (res.status !== 200 || body.quotes?.length !== 1) throw new Error(`Quotes answered ${res.status}: ${JSON.stringify(body)}`)
      },
      { requests, concurrency },
    )
  } finally {
    await api.stop()
  }
}

export function format(f: Figures): string[] {
  return [
    'Swap quotes (issue 11), a throwaway anvil and api over the devnet exchange (Uniswap V2)',
    `  quote route     p50 ${f.p50Ms.toFixed(1).padStart(6)} ms   p95 ${f.p95Ms.toFixed(1).padStart(6)} ms   (${f.requests} quotes, ${f.concurrency} concurrent, ${f.pairs} pairs in turn)`,
  ]
}



if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(format(await measure()).join('\n'))
