/**
 * GET /openapi.json against the route table and the real api: the document is valid OpenAPI 3.1, it
 * and the Hono app hold the same routes, and every route's real answer (over a devnet chain with tokens,
 * an exchange and an NFT, and the sandbox onramp) validates against the document's schema for its status.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Anvil from '@doorway/devnet/anvil'
import * as Exchange from '@doorway/devnet/exchange'
import * as OnrampSandbox from '@doorway/devnet/onrampSandbox'
import * as Tokens from '@doorway/devnet/tokens'
import * as Contract from '@doorway/shared/Contract'
import * as Api from '@doorway/shared/contracts/api'
import type * as OpenApi from '@doorway/shared/contracts/OpenApi'
import * as Ids from '@doorway/shared/Ids'
import * as Name from '@doorway/shared/Name'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { Hono } from 'hono'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as CatalogueData from './catalogue/catalogue.js'
import type { Config, EvmNetwork } from './config.js'
import { projectId, testChain, testConfig, testDeps, testStorage } from './testing.js'

// One chain, on a port apart from the running stack's and from the other tests' anvil chains.
const chain = { id: 31337, port: 18671, rpcUrl: 'http://127.0.0.1:18671' }
const chainId = 'eip155:31337'
const dir = mkdtempSync(join(tmpdir(), 'doorway-openapi-'))
const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>'

// Configuration the api hands out as it is: MetaMask's v1.3.0 addresses, cut to one caveat enforcer.
const smartAccounts = {
  bundlerUrl: 'http://127.0.0.1:1/bundler',
  paymasterUrl: 'http://127.0.0.1:1/paymaster',
  environment: {
    EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
    SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
    implementations: { HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4' },
    caveatEnforcers: { AllowedTargetsEnforcer: '0x7F20f61b1f09b08D970938F6fa563634d65c4EeB' },
  },
} as const

let stopAnvil: () => Promise<void>
let sandbox: OnrampSandbox.start.ReturnType
let app: Hono
let config: Config
let me: PrivateKeyAccount
let nft: { contract: string; tokenId: string }
let document: OpenApi.Document

beforeAll(async () => {
  stopAnvil = (await Anvil.start({ chains: [chain] })).stop
  const manifest = join(dir, 'devnet.json')
  const deployed = await Tokens.deploy({ chains: [chain], manifest })
  const exchange = (await Exchange.deploy({ chains: [chain], tokens: deployed.tokens, manifest })).exchange[chainId]!
  sandbox = await OnrampSandbox.start({ port: 0, chains: [chain], tokens: deployed.tokens })
  // An NFT with an image in its metadata, so the holdings and the image answer with content.
  const devnet = testChain(chain)
  me = await devnet.account()
  const metadata = JSON.stringify({ name: 'Door', image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` })
  const contract = await devnet.deploy(me, 'TestNft', ['Doorway Doors', `data:application/json;base64,${Buffer.from(metadata).toString('base64')}`])
  await devnet.call(me, contract, 'mint', [me.address, 1n])
  nft = { contract, tokenId: '1' }
  config = { ...testConfig({ [chainId]: chain.rpcUrl }, deployed.tokens, { [chainId]: exchange }), onramp: { providerUrl: sandbox.url } }
  config.networks[chainId] = { ...(config.networks[chainId] as EvmNetwork), smartAccounts }
  const storage = await testStorage()
  await storage.sessions.put({ address: me.address, pci: 'pci-1', chainId, permissions: [], expiry: 1_900_000_000, revoked: false, createdAt: 1_750_000_000_000, delegation: null })
  app = App.create(testDeps(config, { storage }).deps)
  document = (await (await app.request('/openapi.json')).json()) as OpenApi.Document
}, 120_000)
afterAll(async () => {
  await sandbox?.stop()
  await stopAnvil?.()
  rmSync(dir, { recursive: true, force: true })
})

describe('GET /openapi.json', () => {
  test('behavior: a valid OpenAPI 3.1 document (JSON Schema 2020-12), served at the api', async () => {
    expect(document.openapi).toBe('3.1.0')
    const result = await new Validator().validate(structuredClone(document))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })

  test('behavior: the document holds every route of the table, and the app every route of the document', () => {
    const inDocument = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    const inTable = Object.values(Api.table).map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    // Middleware (CORS) is registered for every method; the routes are what answers one method and path.
    const inApp = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`))
    expect(inDocument.sort()).toEqual(inTable.sort())
    expect([...inApp].sort()).toEqual(inTable.sort())
  })

  test('param: the table and the catalogue agree on wallet ids and the search bound', () => {
    expect(Api.catalogue.walletId.source).toBe(CatalogueData.idPattern.source)
    expect([Api.catalogue.maxSearch, Api.catalogue.maxEntries]).toEqual([CatalogueData.maxSearch, CatalogueData.maxEntries])
  })
})

type Call = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; status: number }

/** One real request per route of the table, and the status it answers here. */
function calls(): { [K in keyof Api.Table]: Call | (() => Promise<Call>) } {
  const address = me.address
  const eth = `${chainId}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`
  const dusd = `${chainId}:${config.networks[chainId]!.tokens!.find((t) => t.symbol === 'DUSD')!.address}`
  const swap = { userAddress: Tokens.holders[1]!, from: eth, to: dusd, amount: '1000000000000000' }
  const wallet = { address, blockchains: ['ethereum'] }
  return {
    supportedChains: { status: 200 },
    balance: { params: { address: Tokens.holders[0]! }, status: 200 },
    prices: { body: { projectId, currency: 'usd', addresses: [eth, dusd, `${chainId}:native`] }, status: 200 },
    identity: { params: { address }, status: 200 },
    history: { params: { account: Tokens.holders[0]! }, query: { chainId }, status: 200 },
    nfts: { params: { address }, query: { chainId }, status: 200 },
    nftImage: { params: { chain: chainId, ...nft }, status: 200 },
    swapTokens: { query: { chainId }, status: 200 },
    swapQuotes: { query: swap, status: 200 },
    swapAllowance: { query: { tokenAddress: dusd, userAddress: swap.userAddress }, status: 200 },
    gasPrice: { query: { chainId }, status: 200 },
    buildSwap: { body: { ...swap, projectId, eip155: { slippage: 1 } }, status: 200 },
    buildApprove: { query: { ...swap, from: dusd, to: eth }, status: 200 },
    onrampOptions: { status: 200 },
    onrampQuote: { body: { purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: chainId }, status: 200 },
    onrampUrl: { body: { destinationWallets: [wallet], partnerUserId: address, defaultNetwork: chainId, presetFiatAmount: 50 }, status: 200 },
    registerName: async () => ({ body: await registration(me, 'alice'), status: 200 }),
    profile: { params: { name: 'nobody' }, status: 404 },
    reverse: { params: { address }, status: 200 },
    suggestions: { params: { name: 'alice' }, status: 200 },
    sessions: { params: { address }, status: 200 },
    // No Delegation Framework runs on this chain: the call made is one the api refuses.
    createSession: { params: { address }, body: { chainId, delegation: { delegate: address } }, status: 400 },
    revokeSession: { params: { address }, body: { pci: 'pci-1', signature: '0x1234' }, status: 401 },
    smartAccounts: { params: { chainId }, status: 200 },
    wallets: { query: { entries: '2', search: 'a' }, status: 200 },
    walletImage: { params: { id: 'metamask' }, status: 200 },
    tokenImage: { params: { id: 'ETH' }, status: 200 },
    currencyImage: { params: { id: 'USD' }, status: 200 },
    assetImage: { params: { id: 'x' }, status: 200 },
    analyticsConfig: { status: 200 },
    event: {
      body: { eventId: Ids.random(), url: 'http://localhost:5173', domain: 'http://localhost:5173', timestamp: Date.now(), props: { event: 'MODAL_OPEN' } },
      status: 202,
    },
    openApi: { status: 200 },
  }
}

async function registration(account: PrivateKeyAccount, label: string) {
  const message = Name.registrationMessage({ name: `${label}.${Name.defaultZone}`, attributes: {}, timestamp: Math.floor(Date.now() / 1000), nonce: Ids.random() })
  return { coin_type: Name.ensip11CoinType(chain.id), address: account.address, message, signature: await account.signMessage({ message }) }
}

/** The document's schema of an answer: its own, or the shared error schema it refers to. */
function answerSchema(route: Contract.Route, status: number) {
  const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!
  const response = operation.responses[String(status)]
  if (!response) return undefined
  const [[media, { schema }]] = Object.entries(response.content) as [[string, { schema: { $ref?: string } }]]
  return { media, schema: schema.$ref === '#/components/schemas/Error' ? document.components.schemas.Error! : schema }
}

describe('every route answers as the document says', () => {
  const ajv = new Ajv2020({ strict: true, validateFormats: false })

  test.each(Object.keys(Api.table) as (keyof Api.Table)[])('behavior: %s', async (name) => {
    const route: Contract.Route = Api.table[name]
    const planned = calls()[name]
    const call = typeof planned === 'function' ? await planned() : planned
    const withProject = route.query && Object.hasOwn(route.query, 'projectId')
    const query = new URLSearchParams({ ...(withProject && { projectId, st: 'appkit', sv: 'html-doorway-0.1.0' }), ...call.query })
    const init = call.body === undefined ? {} : { method: route.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) }
    const res = await app.request(`${Contract.path(route.path, call.params)}?${query}`, init)
    const text = await res.text()
    expect([res.status, res.status === call.status ? '' : text]).toEqual([call.status, ''])
    const expected = answerSchema(route, res.status)
    expect(expected, `status ${res.status} is in the document`).toBeDefined()
    if (expected!.media === 'application/json') {
      const validate = ajv.compile(expected!.schema)
      expect([validate(JSON.parse(text)), validate.errors ?? []]).toEqual([true, []])
    } else expect(res.headers.get('content-type')!.startsWith(expected!.media.replace('*', ''))).toBe(true)
  })
})
