/**
 * `open({ view: 'Send', arguments })` (issue 8): the host channel checked the shape; this checks the
 * meaning against the dapp's networks and answers bad values with a clear error naming the argument.
 * It stays free of viem: open() loads it when arguments are given, before the modal shows.
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import * as Name from '@doorway/shared/Name'
import { format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import type * as Protocol from '@doorway/shared/Protocol'
import type { SendPrefill } from '../../core/routes.js'

/** What the Send flow starts from, as its route carries it. */
export type Prefill = SendPrefill

const names = ['assetAddress', 'amount', 'to', 'chainId'] as const

export function parse(args: Partial<Record<string, string | number>>, networks: readonly Protocol.Network[]): Prefill {
  for (const key of Object.keys(args)) if (!names.includes(key as never)) throw unknown(key)
  const { assetAddress, amount, to } = args
  for (const name of ['assetAddress', 'amount', 'to'] as const) if (args[name] !== undefined && typeof args[name] !== 'string') throw bad(name)
  const configured = (id: string) => networks.some((n) => n.caipNetworkId === id && id.startsWith('eip155:'))
  let chainId = args.chainId === undefined ? undefined : Caip.fromEip155(args.chainId)
  if (args.chainId !== undefined && (!chainId || !configured(chainId))) throw bad('chainId')

  let asset = 'native'
  if (assetAddress !== undefined) {
    if (typeof assetAddress !== 'string') throw bad('assetAddress')
    const caip = Caip.isAccountId(assetAddress) ? Caip.parseAccountId(assetAddress) : undefined
    const address = caip ? caip.address : assetAddress
    if (!/^0x[\da-f]{40}$/i.test(address) || (caip && (!configured(caip.chainId) || (chainId && chainId !== caip.chainId)))) throw bad('assetAddress')
    chainId ??= caip?.chainId
    asset = address
  }
  if (typeof amount === 'string' && !(/^(\d+\.?\d*|\.\d+)$/.test(amount) && /[1-9]/.test(amount))) throw bad('amount')
  if (typeof to === 'string' && !(Address.isEvmAddress(to) || Name.isNameReference(to))) throw bad('to')
  return { asset, ...(typeof amount === 'string' && { amount }), ...(typeof to === 'string' && { to }), ...(chainId && { chainId }) }
}

function unknown(name: string): Errors.ConfigError {
  return new Errors.ConfigError(format(sendText.badArgument, { name, reason: sendText.argumentReasons.unknown }))
}

function bad(name: (typeof names)[number]): Errors.ConfigError {
  return new Errors.ConfigError(format(sendText.badArgument, { name, reason: sendText.argumentReasons[name] }))
}
