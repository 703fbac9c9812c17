/**
 * CAIP-122 sign-in messages as text: `formatMessage` for any namespace with a registered account name,
 * exactly EIP-4361 for eip155, and `parseMessage` for EIP-4361 text, which a server reads back.
 */
import type * as Caip from '@doorway/shared/Caip'
import { getAddress } from 'viem'
import type { SiwxData } from '../types.js'
import { SiwxError } from './errors.js'

// CAIP-122's "**blockchain**": the name people know their account by, per CAIP-2 namespace.
const accountNames = new Map<string, string>([
  ['eip155', 'Ethereum'],
  ['solana', 'Solana'],
])

/** Lets `formatMessage` write messages for another namespace: `registerNamespace('bip122', 'Bitcoin')`. */
export function registerNamespace(namespace: Caip.Namespace, accountName: string): void {
  if (!accountName || /[\r\n]/.test(accountName)) throw new SiwxError('InvalidMessage', 'An account name is one line of text')
  accountNames.set(namespace, accountName)
}

/**
 * The text the wallet signs (CAIP-122's string form, in EIP-4361's field order). For eip155 it is
 * EIP-4361 and its fields are checked as EIP-4361 asks; for every namespace a field may not break a line.
 */
export function formatMessage(data: SiwxData): string {
  const { namespace, reference } = splitChainId(data.chainId)
  const accountName = accountNames.get(namespace)
  if (!accountName)
    throw new SiwxError('UnsupportedNamespace', `No sign-in message for ${namespace} accounts: registerNamespace('${namespace}', name) first`)
  checkFields(data)
  if (namespace === 'eip155') checkEip155(data)
  const optional = (label: string, value: string | undefined) => (value === undefined ? [] : [`${label}: ${value}`])
  // EIP-4361 ABNF: address LF LF [ statement LF ] LF "URI: " …: without a statement its line goes, both LFs stay.
  return [
    `${data.domain} wants you to sign in with your ${accountName} account:`,
    data.accountAddress,
    '',
    ...(data.statement ? [data.statement] : []),
    '',
    `URI: ${data.uri}`,
    `Version: ${data.version}`,
    `Chain ID: ${reference}`,
    `Nonce: ${data.nonce}`,
    `Issued At: ${data.issuedAt}`,
    ...optional('Expiration Time', data.expirationTime),
    ...optional('Not Before', data.notBefore),
    ...optional('Request ID', data.requestId),
    ...(data.resources?.length ? ['Resources:', ...data.resources.map((resource) => `- ${resource}`)] : []),
  ].join('\n')
}

/**
 * An EIP-4361 message's data. Strict: any text that `formatMessage` would not write back exactly (other
 * line breaks, spacing, field order, an address without its EIP-55 checksum) is refused.
 */
export function parseMessage(text: string): SiwxData {
  const lines = text.split('\n')
  let at = 0
  const next = () => lines[at++]
  const header = /^(.+) wants you to sign in with your Ethereum account:$/.exec(next() ?? '')
  if (!header) throw invalid('the first line is not "… wants you to sign in with your Ethereum account:"')
  const accountAddress = next() ?? ''
  if (next() !== '') throw invalid('no empty line after the address')
  const statement = lines[at] === '' ? undefined : next()
  if (next() !== '') throw invalid('no empty line before the URI')
  const field = (label: string) => (lines[at]?.startsWith(`${label}: `) ? next()!.slice(label.length + 2) : undefined)
  const required = (label: string) => field(label) ?? fail(`no "${label}:" line where EIP-4361 puts it`)
  const data: SiwxData = {
    domain: header[1]!,
    accountAddress,
    ...(statement === undefined ? {} : { statement }),
    uri: required('URI'),
    version: required('Version'),
    chainId: `eip155:${required('Chain ID')}`,
    nonce: required('Nonce'),
    issuedAt: required('Issued At'),
  }
  for (const [label, key] of [['Expiration Time', 'expirationTime'], ['Not Before', 'notBefore'], ['Request ID', 'requestId']] as const) {
    const value = field(label)
    if (value !== undefined) data[key] = value
  }
  if (lines[at] === 'Resources:') {
    at++
    data.resources = lines.slice(at).map((line) => (line.startsWith('- ') ? line.slice(2) : fail(`"${line}" is not a "- " resource line`)))
    at = lines.length
  }
  if (at !== lines.length) throw invalid(`unexpected line "${lines[at]}"`)
  if (!/^[1-9][0-9]{0,31}$/.test(data.chainId.slice('eip155:'.length))) throw invalid('the Chain ID is not an EIP-155 chain id')
  if (formatMessage(data) !== text) throw invalid('it is not the text its fields make')
  return data
}

const invalid = (why: string) => new SiwxError('InvalidMessage', `Not an EIP-4361 message: ${why}`)
const fail = (why: string): never => {
  throw invalid(why)
}

function splitChainId(chainId: string) {
  const match = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/.exec(typeof chainId === 'string' ? chainId : '')
  if (!match) throw new SiwxError('InvalidMessage', `The chain id ${String(chainId)} is not a CAIP-2 id`)
  return { namespace: match[1]!, reference: match[2]! }
}

const requiredFields = ['domain', 'accountAddress', 'uri', 'version', 'nonce', 'issuedAt'] as const

// Every namespace: the required fields are there, and no field breaks a line (a statement with a line
// break could forge the fields below it).
function checkFields(data: SiwxData): void {
  for (const key of requiredFields)
    if (typeof data[key] !== 'string' || !data[key]) throw new SiwxError('InvalidMessage', `The sign-in message needs ${key}`)
  if (data.resources !== undefined && !Array.isArray(data.resources)) throw new SiwxError('InvalidMessage', 'The resources are a list of URIs')
  const values = [...requiredFields.map((key) => data[key]), data.statement, data.expirationTime, data.notBefore, data.requestId, ...(data.resources ?? [])]
  if (values.some((value) => value !== undefined && (typeof value !== 'string' || /[\r\n]/.test(value))))
    throw new SiwxError('InvalidMessage', 'A sign-in message field is one line of text')
}

// RFC 3986 pieces as EIP-4361 uses them.
const uriPattern = /^[a-zA-Z][a-zA-Z0-9+.-]*:[a-zA-Z0-9:/?#[\]@!$&'()*+,;=.\-_~%]*$/
const authorityPattern = /^(\[[0-9a-fA-F:.]+\]|[-a-zA-Z0-9._~%!$&'()*+,;=]+)(:[0-9]{1,5})?$/
// RFC 3339 date-time
const timePattern = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/
const isTime = (value: string | undefined) => value === undefined || (timePattern.test(value) && !Number.isNaN(Date.parse(value)))

// EIP-4361 Message Fields.
function checkEip155(data: SiwxData): void {
  const refuse = (why: string) => new SiwxError('InvalidMessage', `Not an EIP-4361 message: ${why}`)
  if (!authorityPattern.test(data.domain)) throw refuse(`the domain ${data.domain} is not an RFC 3986 authority`)
  if (!isChecksummed(data.accountAddress)) throw refuse('the address is not an EIP-55 checksummed address')
  if (!uriPattern.test(data.uri)) throw refuse(`the URI ${data.uri} is not an RFC 3986 URI`)
  if (data.version !== '1') throw refuse('the version is not 1')
  if (!/^[a-zA-Z0-9]{8,}$/.test(data.nonce)) throw refuse('the nonce is not 8 or more letters and digits')
  if (!isTime(data.issuedAt) || !isTime(data.expirationTime) || !isTime(data.notBefore))
    throw refuse('a time is not an RFC 3339 date-time')
  if (data.requestId !== undefined && !/^[-a-zA-Z0-9._~!$&'()*+,;=:@%]*$/.test(data.requestId))
    throw refuse('the request id has characters EIP-4361 does not allow')
  if (data.resources?.some((resource) => !uriPattern.test(resource))) throw refuse('a resource is not an RFC 3986 URI')
}

function isChecksummed(address: string): boolean {
  try {
    return getAddress(address) === address
  } catch {
    return false
  }
}
