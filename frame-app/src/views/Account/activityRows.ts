/** What one Activity entry shows (spec §2 transaction history display), as plain functions of it. */
import * as Address from '@doorway/shared/Address'
import * as Constants from '@doorway/shared/Constants'
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { activityText } from '@doorway/shared/texts/activity'
import type { OperationType, Transaction, Transfer } from '../../api/client.js'

type Sign = '+' | '-' | ''

// spec §2: + for receive, deposit, borrow and claim; - for withdraw, repay and burn.
const signs: Partial<Record<OperationType, Sign>> = { receive: '+', deposit: '+', borrow: '+', claim: '+', withdraw: '-', repay: '-', burn: '-' }

/**
 * The amount's sign. The spec leaves the other types open (send, mint, trade, approve, …): they follow
 * the transfer's direction, - for out and + for in, so a trade shows both legs and a mint shows what came in.
 */
export function signOf(operationType: OperationType, direction: Transfer['direction']): Sign {
  return signs[operationType] ?? (direction === 'out' ? '-' : direction === 'in' ? '+' : '')
}

/** The transfers that carry a token or an NFT. */
const tokenTransfers = (transaction: Transaction) => transaction.transfers.filter((t) => t.fungible_info || t.nft_info)

export const title = (transaction: Transaction) => activityText.operations[transaction.metadata.operationType]

/**
 * Failed and pending say so beside the title; confirmed is the usual case and says nothing. Not when the
 * description already is the status (an entry without token, spec §2).
 */
export function statusText(transaction: Transaction): string | undefined {
  const { status } = transaction.metadata
  const text = activityText.status[status]
  return status === 'confirmed' || description(transaction) === text ? undefined : text
}

/** The amounts, signed, with 3 decimals (spec §2, §9); NFTs as a count. At most two: a swap's two legs. */
export function amounts(transaction: Transaction): string[] {
  return tokenTransfers(transaction)
    .slice(0, 2)
    .map((t) => {
      const sign = signOf(transaction.metadata.operationType, t.direction)
      const quantity = t.fungible_info ? Format.formatQuantity(t.quantity.numeric) : Format.formatNumber(t.quantity.numeric, 0)
      return `${sign}${quantity} ${t.fungible_info?.symbol ?? activityText.nft}`
    })
}

/**
 * spec §2: with no token, truncated sender → receiver for send and receive, otherwise the status. With
 * tokens: a swap's two symbols, an NFT's name, the counterparty of a send or receive, else the asset's name.
 */
export function description(transaction: Transaction): string {
  const { operationType, sentFrom, sentTo, status, failureReason } = transaction.metadata
  // A failed onramp order says why, in the provider's words.
  if (operationType === 'buy' && status === 'failed' && failureReason) return failureReason
  const transfers = tokenTransfers(transaction)
  const short = (address: string) => Address.truncate(address)
  if (!transfers.length)
    return operationType === 'send' || operationType === 'receive'
      ? format(activityText.route, { from: short(sentFrom), to: short(sentTo) })
      : activityText.status[status]
  const [first, second] = transfers
  if (operationType === 'trade' && second) return format(activityText.route, { from: assetName(first!, 'symbol'), to: assetName(second, 'symbol') })
  // An NFT is known by its name better than by who sent it.
  if (first!.nft_info) return first!.nft_info.name
  // The transfer's own counterparty: an ERC-20 transaction is sent to the token contract.
  if (operationType === 'send') return format(activityText.to, { address: short(first!.recipient ?? sentTo) })
  if (operationType === 'receive') return format(activityText.from, { address: short(first!.sender ?? sentFrom) })
  return assetName(first!, 'name')
}

function assetName(transfer: Transfer, field: 'name' | 'symbol'): string {
  return transfer.fungible_info?.[field] ?? transfer.nft_info?.name ?? ''
}

/** The token icon or NFT preview; a two-token swap shows two images (spec §2). */
export function images(transaction: Transaction): string[] {
  const urls = tokenTransfers(transaction).map((t) => t.fungible_info?.icon?.url ?? t.nft_info?.content?.preview?.url)
  const [first, second] = urls
  if (transaction.metadata.operationType === 'trade' && first && second) return [first, second]
  return first ? [first] : []
}

// The month is the group's title already: the day and the time say the rest.
const timeFormat = new Intl.DateTimeFormat(Constants.numberLocale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
/** The entry's date and time, through Intl. */
export const time = (transaction: Transaction) => timeFormat.format(new Date(transaction.metadata.minedAt))


/** The entry in one line, for its link's accessible name. */
export function summary(transaction: Transaction): string {
  return [title(transaction), description(transaction), ...amounts(transaction), statusText(transaction), time(transaction)].filter(Boolean).join(', ')
}
