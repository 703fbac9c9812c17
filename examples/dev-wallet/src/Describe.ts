/** The plain text a person reads in the approval prompt, one line per request. */
import { formatEther, hexToBigInt, hexToString, isHex, size } from 'viem'
import * as Params from './Params.js'
import * as Transaction from './Transaction.js'

export type Request = { method: string; params?: unknown }

export function describe(request: Request, origin: string): string {
  const params: unknown[] = Array.isArray(request.params) ? request.params : []
  switch (request.method) {
    case 'eth_requestAccounts':
    case 'wallet_requestPermissions':
      return `Connect to ${origin}`
    case 'personal_sign':
      return `Sign message: ${readable(params[0])}`
    case 'eth_signTypedData_v4':
      return typedData(params[1])
    case 'eth_sendTransaction':
      return transaction(Transaction.readParams(params[0]))
    case 'wallet_addEthereumChain':
      return addChain(params[0])
    case 'wallet_sendCalls':
      return describeCalls(Params.at(params[0], 'calls'))
    default:
      return `${request.method} ${JSON.stringify(request.params ?? [])}`
  }
}

/** personal_sign carries hex bytes; show them as text when they are text, as hex otherwise. */
function readable(message: unknown): string {
  if (typeof message !== 'string' || !isHex(message)) return String(message)
  try {
    const text = hexToString(message)
    // eslint-disable-next-line no-control-regex -- control characters (and U+FFFD, a byte that is no UTF-8) are what marks bytes that are not text
    return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text) ? message : text
  } catch {
    return message
  }
}

function typedData(raw: unknown): string {
  const data = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { primaryType?: string; domain?: { name?: string } }
  const from = data?.domain?.name ? ` from ${data.domain.name}` : ''
  return `Sign typed data: ${data?.primaryType}${from} ${JSON.stringify((data as { message?: unknown })?.message)}`
}

/**
 * EIP-5792: one prompt for the whole batch, a line per call. An EOA sends each call as a transaction of
 * its own, so the person is told they are not atomic: a later call may fail after earlier ones went out.
 */
export function describeCalls(calls: unknown): string {
  const list: unknown[] = Array.isArray(calls) ? calls : []
  const lines = list.map((call, index) => `${index + 1}. ${transaction(Transaction.readParams(call))}`)
  const heading = list.length === 1 ? 'Send 1 call:' : `Send ${list.length} calls, one transaction each (not atomic):`
  return [heading, ...lines].join('\n')
}

function transaction(tx: Transaction.Params): string {
  const eth = `${formatEther(tx.value ? hexToBigInt(tx.value) : 0n)} ETH`
  const data = tx.data && tx.data !== '0x' ? ` with ${size(tx.data)} bytes of data` : ''
  return tx.to ? `Send ${eth} to ${tx.to}${data}` : `Deploy a contract${data}, sending ${eth}`
}

function addChain(param: unknown): string {
  const chainName = Params.at(param, 'chainName')
  const name = chainName ? ` (${chainName})` : ''
  return `Add network ${Number(Params.at(param, 'chainId'))}${name} at ${Params.at(Params.at(param, 'rpcUrls'), 0)}`
}
