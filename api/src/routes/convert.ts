/**
 * The swap endpoints of spec §7 (/v1/convert/*). There is no exchange on the devnet yet (a later issue
 * deploys one), so quotes are empty, allowances '0' and the build endpoints answer `{ tx: null }`; the
 * token list and gas price are real. Every parameter is checked now, so clients meet the final contract.
 * Unsupported networks get the spec's empty results without a node call (spec §7).
 */
import * as Caip from '@doorway/shared/Caip'
import { Hono } from 'hono'
import * as Assets from '../assets.js'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export function routes(deps: Deps) {
  const { config, rpc } = deps
  const app = new Hono()

  app.get('/v1/convert/tokens', (c) => {
    Http.project(c, config.projects)
    const chainId = Http.chainId(c.req.query('chainId'))
    return c.json({ tokens: tokens(config, chainId) })
  })

  app.get('/v1/convert/quotes', (c) => {
    Http.project(c, config.projects)
    amount(c.req.query('amount'))
    userAddress(c.req.query('userAddress'))
    pair(c.req.query('from'), c.req.query('to'))
    const gasPrice = c.req.query('gasPrice')
    if (gasPrice !== undefined && !/^[0-9]{1,78}$/.test(gasPrice)) throw Http.badRequest('Invalid gasPrice: expected a non-negative integer in wei')
    return c.json({ quotes: [] })
  })

  app.get('/v1/convert/allowance', (c) => {
    Http.project(c, config.projects)
    token(c.req.query('tokenAddress'), 'tokenAddress')
    userAddress(c.req.query('userAddress'))
    // Nothing is approved to an exchange that does not exist yet.
    return c.json({ allowance: '0' })
  })

  app.get('/v1/convert/gas-price', async (c) => {
    Http.project(c, config.projects)
    const chainId = Http.chainId(c.req.query('chainId'))
    // spec §8 names this error; a gas price has no empty value to answer with instead
    if (!config.networks[chainId] || !Assets.isEvm(chainId)) throw Http.badRequest('Network not supported for Gas Price')
    const price = BigInt((await rpc(chainId, 'eth_gasPrice')) as string)
    // A node gives one price; the faster tiers bid 10% and 25% above it.
    return c.json({ standard: price.toString(), fast: ((price * 110n) / 100n).toString(), instant: ((price * 125n) / 100n).toString() })
  })

  app.post('/v1/convert/build-transaction', async (c) => {
    const body = await Http.json(c)
    Http.project(c, config.projects, body)
    amount(body.amount)
    userAddress(body.userAddress)
    pair(body.from, body.to)
    slippage(body.eip155)
    if (body.disableEstimate !== undefined && typeof body.disableEstimate !== 'boolean') throw Http.badRequest('Invalid disableEstimate: expected a boolean')
    // No swap can be built until the exchange lands: a documented empty result, not an error.
    return c.json({ tx: null })
  })

  app.get('/v1/convert/build-approve', (c) => {
    Http.project(c, config.projects)
    userAddress(c.req.query('userAddress'))
    pair(c.req.query('from'), c.req.query('to'))
    if (c.req.query('amount') !== undefined) amount(c.req.query('amount'))
    // As above: nothing to approve until the exchange lands.
    return c.json({ tx: null })
  })

  return app
}

/** The network's native currency and configured tokens, as CAIP-10 token ids; [] for an unsupported network. */
function tokens(config: Config, chainId: Caip.ChainId) {
  const network = config.networks[chainId]
  if (!network || !Assets.isEvm(chainId)) return []
  const { name, symbol, decimals } = network.nativeCurrency
  return [
    { name, symbol, address: `${chainId}:${Assets.nativeTokenAddress}`, decimals, logoUri: Assets.iconUrl(config.publicUrl, network.nativeCurrency), eip2612: false },
    ...Assets.listedTokens(network).map((t) => ({
      name: t.name,
      symbol: t.symbol,
      address: `${chainId}:${t.address}`,
      decimals: t.decimals,
      logoUri: Assets.iconUrl(config.publicUrl, t),
      eip2612: false,
    })),
  ]
}

/** A token as a CAIP-10 id on an EVM network (spec §5). */
function token(value: unknown, name: string): Caip.parseAccountId.ReturnType {
  if (!Caip.isAccountId(value)) throw Http.badRequest(`Invalid ${name}: Invalid CAIP-10 address`)
  const parsed = Caip.parseAccountId(value)
  if (parsed.namespace !== 'eip155' || !parsed.address.startsWith('0x')) throw Http.badRequest(`Invalid ${name}: expected an eip155 token address`)
  return parsed
}

function pair(from: unknown, to: unknown): void {
  const a = token(from, 'from')
  const b = token(to, 'to')
  if (a.chainId !== b.chainId) throw Http.badRequest('Invalid to: from and to must be on the same network')
  if (a.address.toLowerCase() === b.address.toLowerCase()) throw Http.badRequest('Invalid to: from and to must be different tokens')
}

/** A plain address or its CAIP-10 id: clients send either. */
function userAddress(value: unknown): string {
  if (Caip.isAccountId(value)) return token(value, 'userAddress').address
  return Http.address(typeof value === 'string' ? value : undefined, 'userAddress')
}

/** A positive integer in base units. */
function amount(value: unknown): bigint {
  if (typeof value !== 'string' || !/^[0-9]{1,78}$/.test(value) || BigInt(value) === 0n)
    throw Http.badRequest('Invalid amount: expected a positive integer in base units')
  return BigInt(value)
}

/** `eip155.slippage`: a percentage, as a number or a decimal string (spec §9). */
function slippage(value: unknown): number {
  const raw = typeof value === 'object' && value !== null ? (value as { slippage?: unknown }).slippage : undefined
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(raw) ? Number(raw) : Number.NaN
  if (!(n > 0 && n <= 100)) throw Http.badRequest('Invalid eip155.slippage: expected a percentage above 0 and at most 100')
  return n
}
