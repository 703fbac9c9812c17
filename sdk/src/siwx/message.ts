/**
 * CAIP-122 sign-in messages (spec §4 Sign-in) as text: `formatMessage` for any namespace with a
 * registered account name, exactly EIP-4361 for eip155, exactly Sign In With Solana (SIWS, what
 * `solana:signIn` wallets write) for solana and CAIP-122's template on EIP-4361's rules for polkadot, and
 * `parseMessage` for those three, which a server reads back.
 */
import type * as Caip from '@doorway/shared/Caip'
import { base58 } from '@scure/base'
import { getAddress } from 'viem'
import type { SiwxData } from '../types.js'
import { SiwxError } from './errors.js'

// CAIP-122's "**blockchain**": the name people know their account by, per CAIP-2 namespace.
const accountNames = new Map<string, string>([
  ['eip155', 'Ethereum'],
  ['solana', 'Solana'],
  ['polkadot', 'Polkadot'],
])

// The namespaces whose fields are checked and whose text `parseMessage` reads back.
type Parsed = 'eip155' | 'solana' | 'polkadot'
const parsed: readonly string[] = ['eip155', 'solana', 'polkadot'] satisfies Parsed[]
const isParsed = (namespace: string): namespace is Parsed => parsed.includes(namespace)
// Each one's name in refusals and the standard whose layout it follows.
const messageNames: Record<Parsed, string> = { eip155: 'an EIP-4361', solana: 'a Sign In With Solana', polkadot: 'a Polkadot sign-in' }
const standards: Record<Parsed, string> = { eip155: 'EIP-4361', solana: 'SIWS', polkadot: 'CAIP-122' }

/** Lets `formatMessage` write messages for another namespace: `registerNamespace('bip122', 'Bitcoin')`. */
export function registerNamespace(namespace: Caip.Namespace, accountName: string): void {
  if (!accountName || /[\r\n]/.test(accountName)) throw new SiwxError('InvalidMessage', 'An account name is one line of text')
  accountNames.set(namespace, accountName)
}

// SIWS's Chain ID names the cluster, never the genesis hash (its ABNF's message-chain-id; Phantom refuses
// other values): Wallet Standard's names for the public clusters (AppKit writes the same), CAIP-2's
// current and deprecated references for each.
const solanaClusters: Record<string, string> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ': 'solana:mainnet',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'solana:devnet',
  '8E9rvCKLFQia2Y35HXjjpWzj8weVo44K': 'solana:devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}
// Read back as the current reference of each cluster.
const solanaReferences: Record<string, string> = {
  'solana:mainnet': '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:devnet': 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:testnet': '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
}
// Any other cluster (devnet's litesvm chain: its genesis-hash prefix) is a local one to SIWS, which
// has no `solana:localnet`.
const localnet = 'localnet'

/** The Chain ID line of a chain: the EIP-155 number, the SIWS cluster, else the CAIP-2 reference. */
function chainIdText(namespace: string, reference: string): string {
  if (namespace !== 'solana') return reference
  return solanaClusters[reference] ?? localnet
}

/**
 * The text the wallet signs (CAIP-122's string form, in EIP-4361's field order). eip155 is EIP-4361,
 * solana is SIWS and polkadot is EIP-4361's layout and field rules with an SS58 address and the CAIP-2
 * reference (the genesis-hash prefix) as Chain ID; for every namespace a field may not break a line.
 */
export function formatMessage(data: SiwxData): string {
  const { namespace, reference } = splitChainId(data.chainId)
  const accountName = accountNames.get(namespace)
  if (!accountName)
    throw new SiwxError('UnsupportedNamespace', `No sign-in message for ${namespace} accounts: registerNamespace('${namespace}', name) first`)
  checkFields(data)
  if (isParsed(namespace)) checkAbnf(data, namespace)
  const siws = namespace === 'solana'
  const optional = (label: string, value: string | undefined) => (value === undefined ? [] : [`${label}: ${value}`])
  return [
    `${data.domain} wants you to sign in with your ${accountName} account:`,
    data.accountAddress,
    ...statementLines(data.statement, siws),
    `URI: ${data.uri}`,
    `Version: ${data.version}`,
    `Chain ID: ${chainIdText(namespace, reference)}`,
    `Nonce: ${data.nonce}`,
    `Issued At: ${data.issuedAt}`,
    ...optional('Expiration Time', data.expirationTime),
    ...optional('Not Before', data.notBefore),
    ...optional('Request ID', data.requestId),
    ...resourceLines(data.resources, siws),
  ].join('\n')
}

// EIP-4361 ABNF: address LF LF [ statement LF ] LF "URI: " …: without a statement its line goes, both LFs stay.
// SIWS ABNF: address [ LF LF statement ] LF LF "URI: " …: without a statement, one empty line.
function statementLines(statement: string | undefined, siws: boolean): string[] {
  if (siws) return statement ? ['', statement, ''] : ['']
  return ['', ...(statement ? [statement] : []), '']
}

// SIWS (@solana/wallet-standard-util's createSignInMessageText) writes "Resources:" for an empty list too.
function resourceLines(resources: string[] | undefined, siws: boolean): string[] {
  if (!resources || (!siws && !resources.length)) return []
  return ['Resources:', ...resources.map((resource) => `- ${resource}`)]
}

export declare namespace parseMessage {
  type Options = {
    /**
     * The chain the session claims (its `data.chainId`): the text must name it. Needed for a SIWS
     * message of a local cluster, whose `Chain ID: localnet` names no chain of its own.
     */
    chainId?: Caip.ChainId
  }
}

/**
 * An EIP-4361, SIWS or Polkadot message's data (by its first line, or by `options.chainId`'s namespace). Strict:
 * any text that `formatMessage` would not write back exactly (other line breaks, spacing, field order,
 * an eip155 address without its EIP-55 checksum) is refused.
 */
export function parseMessage(text: string, options: parseMessage.Options = {}): SiwxData {
  const namespace = options.chainId === undefined ? headerNamespace(text) : splitChainId(options.chainId).namespace
  if (!isParsed(namespace))
    throw new SiwxError('UnsupportedNamespace', `No sign-in message parser for ${namespace} accounts`)
  const refuse = refusal(namespace)
  const { fields, chain } = readLines(text.split('\n'), namespace, refuse)
  const data: SiwxData = { ...fields, chainId: chainIdOf(namespace, chain, options.chainId, refuse) }
  if (formatMessage(data) !== text) throw refuse('it is not the text its fields make')
  return data
}

// Which reader to use, not yet whether the line is right. spec §9: the sign-in message default chain is
// eip155, so text that names no known account is read as EIP-4361.
function headerNamespace(text: string): Parsed {
  const first = text.split('\n', 1)[0] ?? ''
  const named = (['solana', 'polkadot'] as const).find((namespace) => first.includes(` wants you to sign in with your ${accountNames.get(namespace)} account:`))
  return named ?? 'eip155'
}

type Refuse = (why: string) => SiwxError

const refusal =
  (namespace: Parsed): Refuse =>
  (why) =>
    new SiwxError('InvalidMessage', `Not ${messageNames[namespace]} message: ${why}`)

/** The fields of the text, line by line, and its Chain ID line as written. */
function readLines(lines: string[], namespace: Parsed, refuse: Refuse) {
  let at = 0
  const next = () => lines[at++]
  const fail = (why: string): never => {
    throw refuse(why)
  }
  const accountName = accountNames.get(namespace)!
  const first = next() ?? ''
  const suffix = ` wants you to sign in with your ${accountName} account:`
  if (!first.endsWith(suffix) || first.length === suffix.length) fail(`the first line is not "… wants you to sign in with your ${accountName} account:"`)
  const accountAddress = next() ?? ''
  if (next() !== '') fail('no empty line after the address')
  // EIP-4361 leaves the statement's line empty when there is none; in SIWS an empty line follows a statement, never a field
  const hasStatement = namespace === 'solana' ? lines[at + 1] === '' : lines[at] !== ''
  const statement = hasStatement ? next() : undefined
  if ((namespace !== 'solana' || hasStatement) && next() !== '') fail('no empty line before the URI')
  const field = (label: string) => (lines[at]?.startsWith(`${label}: `) ? next()!.slice(label.length + 2) : undefined)
  const required = (label: string) => field(label) ?? fail(`no "${label}:" line where ${standards[namespace]} puts it`)
  const [uri, version, chain, nonce, issuedAt] = ['URI', 'Version', 'Chain ID', 'Nonce', 'Issued At'].map(required) as [string, string, string, string, string]
  const fields: Omit<SiwxData, 'chainId'> = { domain: first.slice(0, -suffix.length), accountAddress, ...(statement === undefined ? {} : { statement }), uri, version, nonce, issuedAt }
  for (const [label, key] of [['Expiration Time', 'expirationTime'], ['Not Before', 'notBefore'], ['Request ID', 'requestId']] as const) {
    const value = field(label)
    if (value !== undefined) fields[key] = value
  }
  if (lines[at] === 'Resources:') {
    fields.resources = lines.slice(at + 1).map((line) => (line.startsWith('- ') ? line.slice(2) : fail(`"${line}" is not a "- " resource line`)))
    at = lines.length
  }
  if (at !== lines.length) fail(`unexpected line "${lines[at]}"`)
  return { fields, chain }
}

/** The CAIP-2 id a Chain ID line stands for; the claimed one, when given, must be what the line names. */
function chainIdOf(namespace: Parsed, line: string, claimed: Caip.ChainId | undefined, refuse: Refuse): Caip.ChainId {
  if (namespace !== 'solana') {
    if (!referencePatterns[namespace].test(line)) throw refuse(`the Chain ID is not ${referenceNames[namespace]}`)
    if (claimed !== undefined && claimed !== `${namespace}:${line}`) throw refuse(`the Chain ID ${line} is not ${claimed}'s`)
    return `${namespace}:${line}`
  }
  if (claimed !== undefined) {
    if (chainIdText('solana', splitChainId(claimed).reference) !== line) throw refuse(`the Chain ID ${line} is not ${claimed}'s`)
    return claimed
  }
  const reference = solanaReferences[line]
  if (reference) return `solana:${reference}`
  throw refuse(line === localnet ? 'Chain ID localnet names no chain: pass the session’s chainId' : `the Chain ID ${line} is not a Solana cluster`)
}

// A Chain ID line that is the CAIP-2 reference itself: an EIP-155 number, or a polkadot genesis-hash
// prefix (the polkadot namespace's CAIP-2: 32 lowercase hex digits).
const referencePatterns = { eip155: /^[1-9][0-9]{0,31}$/, polkadot: /^[0-9a-f]{32}$/ }
const referenceNames = { eip155: 'an EIP-155 chain id', polkadot: 'a polkadot genesis-hash prefix (32 lowercase hex digits)' }

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

// EIP-4361 Message Fields, which SIWS's ABNF and our polkadot messages take over but for the address: an
// EIP-55 checksummed address for eip155, the base58 of a 32-byte ed25519 public key for solana, SS58 for polkadot.
function checkAbnf(data: SiwxData, namespace: Parsed): void {
  const refuse = refusal(namespace)
  if (!authorityPattern.test(data.domain)) throw refuse(`the domain ${data.domain} is not an RFC 3986 authority`)
  if (namespace === 'eip155' && !isChecksummed(data.accountAddress)) throw refuse('the address is not an EIP-55 checksummed address')
  if (namespace === 'solana' && !isSolanaAddress(data.accountAddress)) throw refuse(`the address ${data.accountAddress} is not a Solana address (base58, 32 bytes)`)
  if (namespace === 'polkadot') checkPolkadot(data, refuse)
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

/** The 32-byte ed25519 public key a Solana address is the base58 of; undefined when it is not one. */
export function solanaPublicKey(address: string): Uint8Array | undefined {
  // 32 bytes are 32 to 44 base58 digits; the length check first keeps the decoder off long input
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return undefined
  try {
    const key = base58.decode(address)
    return key.length === 32 ? key : undefined
  } catch {
    return undefined
  }
}

const isSolanaAddress = (address: string) => solanaPublicKey(address) !== undefined

// SS58 looks only: base58 digits, as long as an address of a 32-byte account with a 1- or 2-byte prefix
// and its checksum is (about 47 or 48 digits) and some room. The checksum and key type are the verifier's
// (the SDK carries no blake2b for it): a message is text, its signature says whose.
const ss58Pattern = /^[1-9A-HJ-NP-Za-km-z]{35,60}$/

function checkPolkadot(data: SiwxData, refuse: Refuse): void {
  if (!ss58Pattern.test(data.accountAddress)) throw refuse(`the address ${data.accountAddress} is not a Polkadot address (SS58)`)
  const { reference } = splitChainId(data.chainId)
  if (!referencePatterns.polkadot.test(reference)) throw refuse(`the chain ${data.chainId} is not ${referenceNames.polkadot}`)
}
