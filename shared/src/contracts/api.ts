/**
 * The api's route table (spec §7; Contract.ts says how a table is read): every route of api/src/routes,
 * its params, query and body fields with the text of the 400 each answers, its result and its error
 * statuses. The api registers its handlers from it (api/src/http.ts `on`) and publishes it as OpenAPI at
 * GET /openapi.json; the frame types its calls from it (frame-app/src/api/client.ts) and checks the
 * answers with the result schemas of contracts/api/*.ts, which it imports one by one so that each
 * loads with the view that asks.
 *
 * Fields without a text are checked by their handler: the common projectId (an unknown project is a
 * 403, api/src/http.ts `project`), an opaque cursor (decoded per route), and a value whose refusal
 * names the data on offer (the onramp's currencies). Query parameters the api reads but never refuses
 * (forceUpdate, sender, apiVersion) are declared the same way.
 */
import * as Address from '../Address.js'
import * as Caip from '../Caip.js'
import * as Constants from '../Constants.js'
import * as Contract from '../Contract.js'
import * as Name from '../Name.js'
import * as Analytics from './api/analytics.js'
import * as Balances from './api/balances.js'
import * as Catalogue from './api/catalogue.js'
import * as Convert from './api/convert.js'
import * as History from './api/history.js'
import * as Names from './api/names.js'
import * as Nfts from './api/nfts.js'
import * as Onramp from './api/onramp.js'
import * as Sessions from './api/sessions.js'
import * as SmartAccounts from './api/smartAccounts.js'
import * as S from './Described.js'

// ---- fields -----------------------------------------------------------------------------------------

/** Text of any length: a bound the api never set would refuse what it takes today. */
const anyText = S.string({ max: Number.POSITIVE_INFINITY })
/** A free-text query value the api reads without refusing it. */
const text = S.optional(anyText)

/** spec §7's common query: projectId (checked by api/src/http.ts `project`: 400 when missing, 403 when unknown), st and sv. */
const sdk = { st: Contract.field(S.optional(S.string({ max: 64 }))), sv: Contract.field(S.optional(S.string({ max: 64 }))) }
const project = { projectId: Contract.field(S.string({ min: 1 })), ...sdk }
/** The POSTs whose body may carry projectId instead (spec §7: query "unless noted"). */
const projectOrBody = { projectId: Contract.field(S.optional(S.string({ min: 1 }))), ...sdk }
const projectInBody = { projectId: Contract.field(S.optional(S.string({ min: 1 }))) }

const evmAddress = S.string({ pattern: /^0x[0-9a-fA-F]{40}$/ })
const address = (name: string) => Contract.field(evmAddress, `Invalid ${name}: expected a 0x-prefixed 40-hex-digit address`)
/**
 * An account of any namespace the api reads balances and history for (spec §5 Address formats): 0x… on
 * EVM networks, base58 on Solana (and legacy Bitcoin), bech32 for segwit Bitcoin. Only the shape is checked
 * here; the route holds the address to the network asked for (api/src/chains/Addresses.ts), with its own 400.
 */
const anyAddress = S.union(
  evmAddress,
  S.string({ pattern: /^[1-9A-HJ-NP-Za-km-z]{25,44}$/ }),
  S.string({ pattern: /^(bc|tb|bcrt|BC|TB|BCRT)1[02-9ac-hj-np-zAC-HJ-NP-Z]{6,87}$/ }),
)
const account = (name: string) => Contract.field(anyAddress, `Invalid ${name}: expected an EVM (0x…), Solana or Bitcoin address`)

/** CAIP-2; the pattern is CAIP-2's grammar, the check spec §5's (known namespaces, decimal EIP-155 ids). */
const caip2 = { pattern: '^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$', description: 'CAIP-2 network id' }
const chainId = S.refine(S.string({ max: 64 }), Caip.isChainId, caip2)
/** The same check, typed as any text: a body field clients fill from their own strings. */
const chainIdText = S.refine(S.string({ max: 64 }), (x): boolean => Caip.isChainId(x), caip2)
const chain = (name: string) => Contract.field(chainId, `Invalid ${name}: expected a CAIP-2 network id like eip155:1`)
/** The networks balances and history are read on: any the api configures, of any of these namespaces. */
const servedChain = S.refine(S.string({ max: 64 }), Caip.isChainId, {
  ...caip2,
  description: 'CAIP-2 id of a network this api configures: eip155:<chain id>, solana:<genesis hash prefix> or bip122:<genesis block hash prefix>',
})

/** An opaque page cursor this server handed out: decoded (and refused: 'Invalid cursor') by the route. */
const cursor = Contract.field(S.optional(S.string({ max: 1024 })))

// spec §9 price currency: usd is the only one the api prices in
const currency = Contract.field(
  S.optional(S.refine(S.string({ max: 8 }), (x) => x.toLowerCase() === Constants.priceCurrency, { pattern: '^[uU][sS][dD]$' })),
  'Invalid currency: expected usd',
)

// ---- convert ----------------------------------------------------------------------------------------

const uint256Max = 2n ** 256n - 1n
/** A positive integer in base units that fits a uint256 (the contracts' amounts). */
const baseUnits = S.refine(S.string({ pattern: /^[0-9]{1,78}$/ }), (x) => BigInt(x) > 0n && BigInt(x) <= uint256Max, { description: 'A positive uint256 in base units' })
const amount = (name: string) => Contract.field(baseUnits, `Invalid ${name}: expected a positive integer in base units`)
/** A token as a CAIP-10 id on an EVM network (spec §5), typed as text: clients send their own strings. */
const evmToken = S.refine(S.string({ max: 200 }), (x): boolean => Caip.isAccountId(x) && Caip.parseAccountId(x).namespace === 'eip155' && Caip.parseAccountId(x).address.startsWith('0x'), {
  pattern: '^eip155:[0-9]{1,32}:0x',
  description: 'CAIP-10 id of an EVM token',
})
const token = (name: string) =>
  Contract.field(evmToken, (value) =>
    Caip.isAccountId(value) ? `Invalid ${name}: expected an eip155 token address` : `Invalid ${name}: Invalid CAIP-10 address`,
  )
/** A plain address or its CAIP-10 id: clients send either. */
const userAddress = Contract.field(S.union(evmAddress, evmToken), (value) =>
  Caip.isAccountId(value) ? 'Invalid userAddress: expected an eip155 token address' : 'Invalid userAddress: expected a 0x-prefixed 40-hex-digit address',
)
const swapPair = { from: token('from'), to: token('to') }
/** `eip155.slippage`: a percentage, as a number or a decimal string (spec §9). */
const slippage = S.refine(
  S.union(S.number, S.string({ max: Number.POSITIVE_INFINITY, pattern: /^[0-9]+(\.[0-9]+)?$/ })),
  (x) => Number(x) > 0 && Number(x) <= 100,
  { description: 'A percentage above 0 and at most 100' },
)

// ---- onramp -----------------------------------------------------------------------------------------

/** The widest payment method limit, in cents (spec §5). */
const onrampCents = { min: 1_000, max: 2_500_000 }
const fiatText = /^([0-9]{1,9})(?:\.([0-9]{1,2}))?$/
/** A fiat amount with at most 2 decimals, as text or a number, in cents; undefined when it is neither. */
export function fiatCents(value: unknown): number | undefined {
  const match = fiatText.exec(typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '')
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined
}
const fiat = S.refine(S.union(S.number, S.string({ max: 16 })), (x) => {
  const cents = fiatCents(x)
  return cents !== undefined && cents >= onrampCents.min && cents <= onrampCents.max
}, { description: 'A fiat amount from 10.00 to 25000.00, at most 2 decimals' })
const methods = S.oneOf(Onramp.paymentMethods)
const methodsText = Onramp.paymentMethods.join(' or ')
const walletStrings = S.optional(S.array(S.string({ min: 1, max: 64 }), 32))
const destinationWallet = S.open({
  address: S.refine(S.string({ max: 64 }), (x) => Address.isEvmAddress(x) || Address.isSolanaAddress(x), { description: 'An EVM or Solana address' }),
  blockchains: walletStrings,
  assets: walletStrings,
})
const positive = (name: string) =>
  Contract.field(S.optional(S.refine(S.number, (x) => x > 0, { exclusiveMinimum: 0 })), `Invalid ${name}: expected a positive number`)

// ---- names, catalogue, analytics ----------------------------------------------------------------------

/** spec §5: at least 4 letters, digits or hyphens, optionally with the zone after it. */
const label = Contract.field(
  S.refine(anyText, (x) => Name.isValidName(Name.stripZone(x)), { pattern: '^[a-zA-Z0-9-]{4,}' }),
  'Invalid name: at least 4 characters, only letters, digits and hyphens',
)
const hex = S.string({ pattern: /^0x[0-9a-fA-F]+$/ })
/** A smart session's network: smart accounts are EVM only (issue 25). */
const eip155ChainId = S.refine(S.string({ pattern: /^eip155:[0-9]{1,32}$/ }), (x): boolean => Caip.isChainId(x), { description: 'CAIP-2 id of an EIP-155 network' })
/** SLIP-44 coin type, or an ENSIP-11 EVM coin type (0x80000000 | chainId), as a number or its digits. */
const coinType = S.union(S.integer({ min: 0, max: 0xffffffff }), S.refine(S.string({ pattern: /^[0-9]{1,10}$/ }), (x) => Number(x) <= 0xffffffff))

/** The catalogue's bounds (api/src/catalogue/catalogue.ts checks its data file with the same id pattern). */
export const catalogue = { maxPage: 10_000, maxEntries: Constants.walletSearchSize, maxListItems: 100, maxSearch: 64, walletId: /^[a-z0-9-]{1,64}$/, maxImageId: 128 }
const integerText = (name: string, min: number, max: number) =>
  Contract.field(
    S.optional(S.refine(anyText, (x) => Number.isInteger(Number(x)) && Number(x) >= min && Number(x) <= max, { type: 'integer', minimum: min, maximum: max })),
    `Invalid ${name}: expected an integer from ${min} to ${max}`,
  )
/** Comma-separated items; empty is none. */
export const listOf = (text: string) => (text === '' ? [] : text.split(','))
const list = (name: string, item: (x: string) => boolean, expected: string) =>
  Contract.field(
    S.optional(S.refine(anyText, (x) => listOf(x).length <= catalogue.maxListItems && listOf(x).every(item), { description: `Comma-separated, at most ${catalogue.maxListItems}` })),
    (value) => (listOf(value as string).length > catalogue.maxListItems ? `Invalid ${name}: expected at most ${catalogue.maxListItems} items` : `Invalid ${name}: expected ${expected}`),
  )
const walletIds = (name: string) => list(name, (id) => catalogue.walletId.test(id), 'comma-separated wallet ids of a-z, 0-9 and -')
const search = Contract.field(
  S.optional(S.refine(anyText, (x) => [...x.trim()].length <= catalogue.maxSearch, { description: `At most ${catalogue.maxSearch} characters once trimmed` })),
  `Invalid search: expected at most ${catalogue.maxSearch} characters`,
)
const imageId = Contract.field(S.string({ min: 1, max: catalogue.maxImageId }), `Invalid image id: expected 1 to ${catalogue.maxImageId} characters`)

export const maxPropsBytes = 16 * 1024
/** An origin exactly as `location.origin` writes it: http(s), no path, no trailing slash. */
const isOrigin = (x: string) => {
  try {
    return new URL(x).origin === x
  } catch {
    return false
  }
}
const event = {
  eventId: Contract.field(S.string({ min: 8, max: 64, pattern: /^[0-9a-fA-F-]+$/ }), 'Invalid eventId: expected a uuid-like id of 8 to 64 hex digits and hyphens'),
  url: Contract.field(S.url, 'Invalid url: expected an http(s) URL'),
  domain: Contract.field(S.refine(S.url, isOrigin, { description: 'An origin' }), 'Invalid domain: expected the host app origin, like https://app.example'),
  timestamp: Contract.field(S.integer({ min: 0 }), 'Invalid timestamp: expected milliseconds since the epoch, a non-negative integer'),
  props: Contract.field(
    S.refine(S.isPlainObject, (x) => new TextEncoder().encode(JSON.stringify(x)).length <= maxPropsBytes, { description: `At most ${maxPropsBytes} bytes of JSON` }),
    `Invalid props: expected a JSON object of at most ${maxPropsBytes} bytes`,
  ),
}

// ---- the table --------------------------------------------------------------------------------------

/** The networks the api serves; the frame never asks, so its shape is here and not in contracts/api/. */
const chainIds = S.array(S.string({ max: 80 }), 256)
const supportedChains = S.object({ http: chainIds, ws: chainIds })

const openApi = S.open({ openapi: S.literal('3.1.0'), info: S.isPlainObject, paths: S.isPlainObject })

export const table = {
  supportedChains: Contract.route({
    method: 'GET',
    path: '/v1/supported-chains',
    summary: 'The networks this api serves (spec §7)',
    query: project,
    result: supportedChains,
    errors: [400, 403],
  }),
  balance: Contract.route({
    method: 'GET',
    path: '/v1/account/:address/balance',
    summary: "An account's native and token balances (EVM, Solana or Bitcoin) on one or every served network (spec §3 Token balance)",
    params: { address: account('address') },
    query: { ...project, currency, forceUpdate: Contract.field(text), chainId: Contract.field(S.optional(servedChain), 'Invalid chainId: expected a CAIP-2 network id like eip155:1') },
    result: Balances.balances,
    errors: [400, 403, 502, 503],
  }),
  prices: Contract.route({
    method: 'POST',
    path: '/v1/fungible/price',
    summary: 'US dollar prices of tokens by CAIP-10 id, at most 100',
    query: projectOrBody,
    body: {
      ...projectInBody,
      currency,
      addresses: Contract.field(
        S.array(S.union(Convert.tokenId, S.refine(S.string({ max: 80 }), (x) => x.endsWith(':native') && Caip.isChainId(x.slice(0, -':native'.length)))), 100),
        'Invalid addresses: expected at most 100 CAIP-10 token addresses (or {chainId}:native)',
      ),
    },
    result: Convert.prices,
    errors: [400, 403],
  }),
  identity: Contract.route({
    method: 'GET',
    path: '/v1/identity/:address',
    summary: 'The name and avatar an address goes by',
    params: { address: address('address') },
    query: { ...project, sender: Contract.field(text) },
    result: Names.identity,
    errors: [400, 403],
  }),
  history: Contract.route({
    method: 'GET',
    path: '/v1/account/:account/history',
    summary:
      "An account's transactions (EVM, Solana or Bitcoin), newest first, 20 a page; with onramp=coinbase its onramp orders (spec §3 Transaction). A Solana or Bitcoin account names its chainId.",
    params: { account: account('account') },
    query: {
      ...project,
      onramp: Contract.field(S.optional(S.literal('coinbase')), 'Invalid onramp: expected coinbase'),
      cursor,
      // after the cursor, as the route reads them: its own check
      chainId: Contract.field(S.optional(servedChain)),
    },
    result: History.historyPage,
    errors: [400, 403, 502, 503],
  }),
  nfts: Contract.route({
    method: 'GET',
    path: '/v1/account/:address/nfts',
    summary: 'The NFTs an account holds, 20 a page, spam flagged',
    params: { address: address('address') },
    query: { ...project, cursor, chainId: Contract.field(S.optional(chainId)) },
    result: Nfts.nftPage,
    errors: [400, 403, 502],
  }),
  nftImage: Contract.route({
    method: 'GET',
    path: '/public/getNftImage/:chain/:contract/:tokenId',
    summary: "The image an NFT's metadata names, served by this api",
    params: {
      chain: chain('chain'),
      contract: address('contract'),
      tokenId: Contract.field(
        S.refine(S.string({ pattern: /^(0|[1-9]\d{0,77})$/ }), (x) => BigInt(x) <= uint256Max),
        'Invalid tokenId: expected a decimal uint256',
      ),
    },
    media: 'image/*',
    errors: [400, 404],
  }),
  swapTokens: Contract.route({
    method: 'GET',
    path: '/v1/convert/tokens',
    summary: 'The tokens that have a pool on a network',
    query: { ...project, chainId: chain('chainId') },
    result: Convert.swapTokens,
    errors: [400, 403, 502],
  }),
  swapQuotes: Contract.route({
    method: 'GET',
    path: '/v1/convert/quotes',
    summary: 'The quote of a swap: the better of the direct pool and the route through WETH',
    query: {
      ...project,
      amount: amount('amount'),
      userAddress,
      ...swapPair,
      gasPrice: Contract.field(S.optional(S.string({ pattern: /^[0-9]{1,78}$/ })), 'Invalid gasPrice: expected a non-negative integer in wei'),
    },
    result: Convert.quotes,
    errors: [400, 403, 502],
  }),
  swapAllowance: Contract.route({
    method: 'GET',
    path: '/v1/convert/allowance',
    summary: 'What the exchange may take of a token, in base units',
    query: { ...project, tokenAddress: token('tokenAddress'), userAddress },
    result: Convert.allowance,
    errors: [400, 403, 502],
  }),
  gasPrice: Contract.route({
    method: 'GET',
    path: '/v1/convert/gas-price',
    summary: "The node's gas price and two faster tiers, in wei",
    query: { ...project, chainId: chain('chainId') },
    result: Convert.gasPrice,
    errors: [400, 403, 502],
  }),
  buildSwap: Contract.route({
    method: 'POST',
    path: '/v1/convert/build-transaction',
    summary: 'The swap transaction, bounded by the accepted quote less the slippage',
    query: projectOrBody,
    body: {
      ...projectInBody,
      amount: amount('amount'),
      userAddress,
      ...swapPair,
      eip155: Contract.field(S.open({ slippage }), 'Invalid eip155.slippage: expected a percentage above 0 and at most 100'),
      disableEstimate: Contract.field(S.optional(S.boolean), 'Invalid disableEstimate: expected a boolean'),
      toAmount: Contract.field(S.optional(baseUnits), 'Invalid toAmount: expected a positive integer in base units'),
    },
    result: Convert.swapTransaction,
    errors: [400, 403, 409, 502],
  }),
  buildApprove: Contract.route({
    method: 'GET',
    path: '/v1/convert/build-approve',
    summary: 'The approval of an amount (or unlimited) of a token to the exchange',
    query: { ...project, userAddress, ...swapPair, amount: Contract.field(S.optional(baseUnits), 'Invalid amount: expected a positive integer in base units') },
    result: Convert.approveTransaction,
    errors: [400, 403, 502],
  }),
  onrampOptions: Contract.route({
    method: 'GET',
    path: '/v1/onramp/options',
    summary: 'What the onramp provider sells and takes (spec §3 Onramp options)',
    query: project,
    result: Onramp.options,
    errors: [400, 403, 502],
  }),
  onrampQuote: Contract.route({
    method: 'POST',
    path: '/v1/onramp/quote',
    summary: "The provider's quote of a purchase (spec §3 Onramp quote)",
    query: project,
    body: {
      amount: Contract.field(fiat, (value) =>
        fiatCents(value) === undefined ? 'Invalid amount: expected a fiat amount with at most 2 decimals' : 'Invalid amount: expected 10.00 to 25000.00',
      ),
      // null reads as absent: the card
      paymentMethod: Contract.field(S.optional(S.union(methods, S.literal(null))), `Invalid paymentMethod: expected ${methodsText}`),
      // checked against the provider's options, which the refusal names
      purchaseCurrency: Contract.field(S.string({ max: 64 })),
      paymentCurrency: Contract.field(S.string({ max: 16 })),
      network: Contract.field(S.optional(S.string({ max: 64 }))),
    },
    result: Onramp.quote,
    errors: [400, 403, 502],
  }),
  onrampUrl: Contract.route({
    method: 'POST',
    path: '/v1/generators/onrampurl',
    summary: "The provider's buy page for the wallets; empty for an unsupported network",
    query: project,
    body: {
      destinationWallets: Contract.field(
        S.refine(S.array(destinationWallet, 8), (x) => x.length > 0, { minItems: 1 }),
        'Invalid destinationWallets: expected 1 to 8 wallets, each with an address and optional blockchains and assets',
      ),
      partnerUserId: Contract.field(S.string({ min: 1, max: 49 }), 'Invalid partnerUserId: expected 1 to 49 characters'),
      defaultExperience: Contract.field(S.optional(S.literal('buy', 'send', null)), 'Invalid defaultExperience: expected buy or send'),
      defaultNetwork: Contract.field(S.optional(chainIdText), 'Invalid defaultNetwork: Invalid CAIP-2 network id'),
      presetCryptoAmount: positive('presetCryptoAmount'),
      presetFiatAmount: positive('presetFiatAmount'),
      defaultAsset: Contract.field(S.optional(S.string({ pattern: /^[A-Za-z0-9.]{1,16}$/ })), 'Invalid defaultAsset: expected a currency id'),
      defaultPaymentMethod: Contract.field(S.optional(methods), `Invalid defaultPaymentMethod: expected ${methodsText}`),
      fiatCurrency: Contract.field(S.optional(S.string({ pattern: /^[A-Z]{3}$/ })), 'Invalid fiatCurrency: expected a currency code like USD'),
    },
    result: Onramp.url,
    errors: [400, 403, 502],
  }),
  profile: Contract.route({
    method: 'GET',
    path: '/v1/profile/account/:name',
    summary: "A name's addresses and attributes",
    params: { name: label },
    query: { ...project, apiVersion: Contract.field(text) },
    result: Names.profile,
    errors: [400, 403, 404],
  }),
  reverse: Contract.route({
    method: 'GET',
    path: '/v1/profile/reverse/:address',
    summary: 'The names registered to an address',
    params: { address: address('address') },
    query: { ...project, sender: Contract.field(text), apiVersion: Contract.field(text) },
    result: Names.reverse,
    errors: [400, 403],
  }),
  suggestions: Contract.route({
    method: 'GET',
    path: '/v1/profile/suggestions/:name',
    summary: 'Free names like a name, in the zone (spec §9)',
    params: { name: label },
    query: { ...project, zone: Contract.field(S.optional(S.literal(Name.defaultZone)), `Invalid zone: only ${Name.defaultZone} is served`) },
    result: Names.suggestions,
    errors: [400, 403],
  }),
  registerName: Contract.route({
    method: 'POST',
    path: '/v1/profile/account',
    summary: "Registers a name by the address's signature of the registration message",
    query: project,
    body: {
      coin_type: Contract.field(coinType, 'Invalid coin_type: expected a coin type number'),
      address: address('address'),
      message: Contract.field(S.string({ max: 4_096 }), 'Invalid message: expected the signed registration message'),
      signature: Contract.field(hex, 'Invalid signature: expected hex'),
    },
    result: Names.success,
    errors: [400, 401, 403, 409, 502],
  }),
  sessions: Contract.route({
    method: 'GET',
    path: '/v1/sessions/:address',
    summary: "The smart sessions an address granted, each with its state on its chain (revoked, expired by the chain's time, or active)",
    params: { address: address('address') },
    query: project,
    result: Sessions.sessions,
    errors: [400, 403],
  }),
  createSession: Contract.route({
    method: 'POST',
    path: '/v1/sessions/:address',
    summary:
      "Records a smart session (issue 25): an ERC-7710 delegation from the address, signed by it (ECDSA, ERC-1271 or ERC-6492), with the network's caveat enforcers; 404 where the network has no smart accounts, 401 when the signature is not the address's, 409 when the delegation is recorded on another network",
    params: { address: address('address') },
    query: project,
    body: {
      chainId: Contract.field(eip155ChainId, 'Invalid chainId: expected an EIP-155 network id like eip155:1'),
      // Checked whole by the handler (Permissions.fromJson), whose 400 names the field that is wrong.
      delegation: Contract.field(S.record(S.string({ max: 64 }), S.unknown, 16), 'Invalid delegation: expected a signed delegation object'),
    },
    result: Sessions.created,
    errors: [400, 401, 403, 404, 409, 502],
  }),
  revokeSession: Contract.route({
    method: 'POST',
    path: '/v1/sessions/:address/revoke',
    summary: "Revokes a session by the address's signature of `Revoke session {pci}` (ECDSA, or ERC-1271/6492 on the session's network)",
    params: { address: address('address') },
    query: project,
    body: {
      pci: Contract.field(S.string({ min: 1, max: 256 }), 'Invalid pci: expected a permission context id'),
      signature: Contract.field(hex, 'Invalid signature: expected hex'),
    },
    result: Names.success,
    errors: [400, 401, 403, 404, 502],
  }),
  smartAccounts: Contract.route({
    method: 'GET',
    path: '/v1/smart-accounts/:chainId',
    summary: "A network's ERC-4337 bundler, optional ERC-7677 paymaster and Delegation Framework addresses (issue 25); 404 where it has no smart accounts",
    params: { chainId: chain('chainId') },
    query: project,
    result: SmartAccounts.smartAccounts,
    errors: [400, 403, 404],
  }),
  wallets: Contract.route({
    method: 'GET',
    path: '/getWallets',
    summary: 'A page of the wallet catalogue (spec §3 Wallet listing)',
    query: {
      ...project,
      page: integerText('page', 1, catalogue.maxPage),
      entries: integerText('entries', 1, catalogue.maxEntries),
      chains: list('chains', Caip.isChainId, 'a CAIP-2 network id like eip155:1'),
      include: walletIds('include'),
      exclude: walletIds('exclude'),
      search,
      badge_type: Contract.field(S.optional(S.literal('', 'certified', 'none')), "Invalid badge_type: expected 'certified' or 'none'"),
    },
    result: Catalogue.walletPage,
    errors: [400, 403],
  }),
  walletImage: Contract.route({
    method: 'GET',
    path: '/getWalletImage/:id',
    summary: "A catalogue wallet's image",
    params: { id: Contract.field(S.string({ max: catalogue.maxImageId })) },
    media: 'image/svg+xml',
    errors: [404],
  }),
  tokenImage: Contract.route({ method: 'GET', path: '/public/getTokenImage/:id', summary: "A token's image", params: { id: imageId }, media: 'image/svg+xml', errors: [400] }),
  currencyImage: Contract.route({ method: 'GET', path: '/public/getCurrencyImage/:id', summary: "A currency's image", params: { id: imageId }, media: 'image/svg+xml', errors: [400] }),
  assetImage: Contract.route({ method: 'GET', path: '/public/getAssetImage/:id', summary: "An asset's image", params: { id: imageId }, media: 'image/svg+xml', errors: [400] }),
  analyticsConfig: Contract.route({
    method: 'GET',
    path: '/getAnalyticsConfig',
    summary: "Whether the project wants the modal's events",
    query: project,
    result: Analytics.analyticsConfig,
    errors: [400, 403],
  }),
  event: Contract.route({
    method: 'POST',
    path: '/e',
    summary: 'One analytics event, from an origin on the project allowlist',
    query: project,
    body: event,
    result: Names.success,
    status: 202,
    errors: [400, 403, 413],
  }),
  openApi: Contract.route({ method: 'GET', path: '/openapi.json', summary: 'This document', result: openApi, errors: [] }),
}
export type Table = typeof table
export type Endpoint = Contract.Endpoint<Table>
