/**
 * `open({ view: 'Swap', arguments })` (issue 11), as features/send/sendArguments.ts does for Send: the
 * host channel checked the shape; this checks the meaning against the dapp's networks and answers bad
 * values with a clear error naming the argument. Symbols are matched later, against the api's token
 * list. It stays free of viem: open() loads it when arguments are given, before the modal shows.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { swapText } from '@doorway/shared/texts/swap'
import type * as Protocol from '@doorway/shared/Protocol'
import type * as Routes from '../../core/routes.js'

/** A token as the dapp named it, and what the Swap form starts from, as its route carries them. */
export type TokenRef = Routes.TokenRef
export type Prefill = Routes.SwapPrefill

const names = ['fromToken', 'toToken', 'amount'] as const
type Name = (typeof names)[number]

/** The address the swap api gives the native token (and dapps use for it). */
export const nativeAddress = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

export function parse(args: Partial<Record<string, string | number>>, networks: readonly Protocol.Network[]): Prefill {
  for (const key of Object.keys(args)) if (!names.includes(key as never)) throw error('unknown', key)
  for (const name of names) if (args[name] !== undefined && typeof args[name] !== 'string') throw bad(name)
  const { fromToken, toToken, amount } = args as Partial<Record<Name, string>>
  const from = fromToken === undefined ? undefined : token(fromToken, 'fromToken', networks)
  const to = toToken === undefined ? undefined : token(toToken, 'toToken', networks)
  if (from?.chainId && to?.chainId && from.chainId !== to.chainId) throw bad('toToken')
  if (from && to && sameRef(from.ref, to.ref)) throw error('sameToken', 'toToken')
  if (amount !== undefined && !(/^(\d+\.?\d*|\.\d+)$/.test(amount) && /[1-9]/.test(amount))) throw bad('amount')
  const chainId = from?.chainId ?? to?.chainId
  return {
    ...(from && { from: from.ref }),
    ...(to && { to: to.ref }),
    ...(amount !== undefined && { amount }),
    ...(chainId && { chainId }),
  }
}

function token(value: string, name: Name, networks: readonly Protocol.Network[]): { ref: TokenRef; chainId?: Caip.ChainId } {
  const text = value.trim()
  if (Caip.isAccountId(text)) {
    const { chainId, address } = Caip.parseAccountId(text)
    const configured = networks.some((n) => n.caipNetworkId === chainId && chainId.startsWith('eip155:'))
    if (!configured || !/^0x[\da-f]{40}$/i.test(address)) throw bad(name)
    return { ref: refOf(address), chainId }
  }
  if (/^0x/i.test(text)) {
    if (/^0x[\da-f]{40}$/i.test(text)) return { ref: refOf(text) }
    throw bad(name)
  }
  // A symbol: letters and digits, as token lists write them (DUSD, WETH, USDC.e).
  if (/^[a-z\d][\w.+-]{0,15}$/i.test(text)) return { ref: { kind: 'symbol', symbol: text } }
  throw bad(name)
}

const refOf = (address: string): TokenRef => (address.toLowerCase() === nativeAddress ? { kind: 'native' } : { kind: 'address', address })

function sameRef(a: TokenRef, b: TokenRef): boolean {
  if (a.kind === 'native' || b.kind === 'native') return a.kind === b.kind
  if (a.kind === 'address' && b.kind === 'address') return a.address.toLowerCase() === b.address.toLowerCase()
  return a.kind === 'symbol' && b.kind === 'symbol' && a.symbol.toLowerCase() === b.symbol.toLowerCase()
}

function error(reason: keyof typeof swapText.argumentReasons, name: string): Errors.ConfigError {
  return new Errors.ConfigError(format(swapText.badArgument, { name, reason: swapText.argumentReasons[reason] }))
}

const bad = (name: Name) => error(name === 'amount' ? 'amount' : 'token', name)
