import { describe, expect, test, vi } from 'vitest'
import * as Client from './client.js'

function setup(answer: (url: URL, init: RequestInit) => Response | Promise<Response>) {
  const fetch = vi.fn((input: URL | RequestInfo, init?: RequestInit) => Promise.resolve(answer(input as URL, init ?? {})))
  const client = Client.create({ baseUrl: 'http://api.test', projectId: 'p1', sdkType: 'appkit', sdkVersion: 'html-doorway-0.1.0', fetch: fetch as typeof globalThis.fetch })
  return { client, fetch, url: () => fetch.mock.calls[0]![0] as URL, init: () => fetch.mock.calls[0]![1]! }
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 3000, quantity: { decimals: '18', numeric: '1' }, iconUrl: 'http://api.test/i' }

describe('create', () => {
  test('behavior: every call carries projectId, st and sv (spec §7)', async () => {
    const { client, url } = setup(() => json({ balances: [eth] }))
    await client.balances('0xabc', { chainId: 'eip155:31337' })
    expect(url().pathname).toBe('/v1/account/0xabc/balance')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', currency: 'usd', chainId: 'eip155:31337' })
  })

  test('param: forceUpdate and clientId are sent only when given', async () => {
    const { client, fetch } = setup(() => json({ balances: [] }))
    await client.balances('0xabc', { forceUpdate: true })
    await client.http('DELETE', '/x', (_: unknown): _ is unknown => true, { clientId: 'c1' })
    const [first, second] = fetch.mock.calls.map(([u]) => (u as URL).searchParams)
    expect(first!.get('forceUpdate')).toBe('true')
    expect(second!.get('clientId')).toBe('c1')
  })

  test('behavior: JSON bodies for POST', async () => {
    const { client, init } = setup(() => json({ success: true }, 202))
    await client.sendEvent({ eventId: 'e', url: 'http://a', domain: 'http://a', timestamp: 1, props: { event: 'MODAL_OPEN' } })
    expect(init()).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } })
    expect(JSON.parse(init().body as string)).toMatchObject({ props: { event: 'MODAL_OPEN' } })
  })

  test('error: a non-OK answer throws an error carrying the HTTP status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Origin http://x not found on Allowlist - update configuration' }, 403))
    const error = await client.analyticsConfig().catch((e) => e)
    expect(error).toBeInstanceOf(Client.ApiError)
    expect([error.status, error.message]).toEqual([403, 'Origin http://x not found on Allowlist - update configuration'])
  })

  test('error: an answer of the wrong shape is refused', async () => {
    const { client } = setup(() => json({ balances: [{ ...eth, price: 'free' }] }))
    await expect(client.balances('0xabc', {})).rejects.toThrow('Unexpected answer from /v1/account/0xabc/balance')
  })

  test('error: a call that never answers times out', async () => {
    vi.useFakeTimers()
    const { client } = setup((_, init) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))))
    const pending = client.analyticsConfig().catch((e: Error) => e.name)
    await vi.advanceTimersByTimeAsync(Client.timeoutMs)
    await expect(pending).resolves.toBe('TimeoutError')
    vi.useRealTimers()
  })
})

describe('gasPrice', () => {
  const prices = { standard: '1000000000', fast: '1500000000', instant: '2000000000' }

  test('behavior: GET /v1/convert/gas-price with the chainId (spec §7)', async () => {
    const { client, url, init } = setup(() => json(prices))
    await expect(client.gasPrice('eip155:31337')).resolves.toEqual(prices)
    expect(init().method).toBe('GET')
    expect(url().pathname).toBe('/v1/convert/gas-price')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', chainId: 'eip155:31337' })
  })

  test.each<[string, unknown]>([
    ['a tier missing', { standard: '1', fast: '2' }],
    ['a number instead of a decimal string', { ...prices, standard: 1000000000 }],
    ['a decimal fraction', { ...prices, fast: '1.5' }],
    ['a hex string', { ...prices, instant: '0x77359400' }],
    ['a negative price', { ...prices, standard: '-1' }],
    ['an empty string', { ...prices, standard: '' }],
    ['more than 78 digits (above uint256)', { ...prices, standard: '1'.repeat(79) }],
    ['no object', null],
  ])('error: an answer with %s is refused', async (_, body) => {
    const { client } = setup(() => json(body))
    await expect(client.gasPrice('eip155:31337')).rejects.toThrow('Unexpected answer from /v1/convert/gas-price')
  })

  test('error: a non-OK answer carries the status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Network not supported for Gas Price' }, 400))
    await expect(client.gasPrice('eip155:1')).rejects.toMatchObject({ status: 400, message: 'Network not supported for Gas Price' })
  })

  test('param: the signal aborts the call', async () => {
    const { client } = setup((_, init) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))))
    const controller = new AbortController()
    const pending = client.gasPrice('eip155:31337', controller.signal)
    controller.abort(new DOMException('left', 'AbortError'))
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('profile', () => {
  const alice = {
    name: 'alice.doorway.id',
    addresses: { '60': { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }, '2147514985': { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } },
    attributes: { avatar: 'https://images.doorway.id/alice.png' },
  }

  test('behavior: GET /v1/profile/account/{name} with apiVersion=2 (spec §7)', async () => {
    const { client, url, init } = setup(() => json(alice))
    await expect(client.profile('alice.doorway.id')).resolves.toEqual(alice)
    expect(init().method).toBe('GET')
    expect(url().pathname).toBe('/v1/profile/account/alice.doorway.id')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', apiVersion: '2' })
  })

  test.each([
    ['a space', 'alice bob', '/v1/profile/account/alice%20bob'],
    ['a slash (no other path)', '../balance', '/v1/profile/account/..%2Fbalance'],
    ['a question mark (no other query)', 'alice?apiVersion=1', '/v1/profile/account/alice%3FapiVersion%3D1'],
    ['a hash', 'alice#x', '/v1/profile/account/alice%23x'],
  ])('param: the name is URL-encoded: %s', async (_, name, pathname) => {
    const { client, url } = setup(() => json(alice))
    await client.profile(name)
    expect(url().pathname).toBe(pathname)
    expect(url().searchParams.get('apiVersion')).toBe('2')
    expect(url().hash).toBe('')
  })

  test('behavior: no addresses and no attributes is a valid answer', async () => {
    const { client } = setup(() => json({ name: 'bob.doorway.id', addresses: {}, attributes: {} }))
    await expect(client.profile('bob.doorway.id')).resolves.toEqual({ name: 'bob.doorway.id', addresses: {}, attributes: {} })
  })

  test.each<[string, unknown]>([
    ['no name', { addresses: alice.addresses, attributes: {} }],
    ['no addresses', { name: alice.name, attributes: {} }],
    ['no attributes', { name: alice.name, addresses: {} }],
    ['a coin type that is not a number', { ...alice, addresses: { eth: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } } }],
    ['an address that is not a string', { ...alice, addresses: { '60': { address: 42 } } }],
    ['an address entry without address', { ...alice, addresses: { '60': {} } }],
    ['an attribute that is not a string', { ...alice, attributes: { avatar: { url: 'https://x' } } }],
    ['addresses as an array', { ...alice, addresses: [{ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }] }],
  ])('error: an answer with %s is refused', async (_, body) => {
    const { client } = setup(() => json(body))
    await expect(client.profile('alice.doorway.id')).rejects.toThrow('Unexpected answer from /v1/profile/account/alice.doorway.id')
  })

  test('error: an unknown name carries the status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Name not found' }, 404))
    await expect(client.profile('nobody.doorway.id')).rejects.toMatchObject({ status: 404, message: 'Name not found' })
  })
})

const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const common = { projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', chainId: 'eip155:31337' }

describe('history', () => {
  const sent = {
    id: 'eip155:31337:0xaa',
    metadata: {
      operationType: 'send',
      hash: `0x${'aa'.repeat(32)}`,
      minedAt: '2025-01-05T10:00:00.000Z',
      sentFrom: alice,
      sentTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      status: 'confirmed',
      nonce: 3,
      chain: 'eip155:31337',
    },
    transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: 'http://api.test/public/getTokenImage/ETH' } }, direction: 'out', quantity: { numeric: '1.5' }, value: 4500, price: 3000 }],
  }
  const spamNft = {
    nft_info: { name: 'Free Prize', content: { preview: { url: 'http://api.test/nft/1.png' } }, flags: { is_spam: true }, collection: { name: 'Prizes' }, token_id: '1', contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3', standard: 'erc721' },
    direction: 'in',
    quantity: { numeric: '1' },
  }

  test('behavior: GET /v1/account/{address}/history with chainId, and the cursor when given (spec §7)', async () => {
    const { client, fetch } = setup(() => json({ data: [sent, { ...sent, id: 'x', transfers: [spamNft] }], next: 'c2' }))
    await expect(client.history(alice, { chainId: 'eip155:31337' })).resolves.toEqual({ data: [sent, { ...sent, id: 'x', transfers: [spamNft] }], next: 'c2' })
    await client.history(alice, { chainId: 'eip155:31337', cursor: 'c2' })
    const [first, second] = fetch.mock.calls.map(([u]) => u as URL)
    expect(first!.pathname).toBe(`/v1/account/${alice}/history`)
    expect(Object.fromEntries(first!.searchParams)).toEqual(common)
    expect(Object.fromEntries(second!.searchParams)).toEqual({ ...common, cursor: 'c2' })
  })

  test('behavior: an empty last page', async () => {
    const { client } = setup(() => json({ data: [], next: null }))
    await expect(client.history(alice, { chainId: 'eip155:31337' })).resolves.toEqual({ data: [], next: null })
  })

  test('param: the address is URL-encoded (no other path)', async () => {
    const { client, url } = setup(() => json({ data: [], next: null }))
    await client.history('../balance?x', { chainId: 'eip155:31337' })
    expect(url().pathname).toBe('/v1/account/..%2Fbalance%3Fx/history')
  })

  const withMetadata = (metadata: object) => ({ data: [{ ...sent, metadata: { ...sent.metadata, ...metadata } }], next: null })
  const withTransfer = (transfer: object) => ({ data: [{ ...sent, transfers: [transfer] }], next: null })
  test.each<[string, unknown]>([
    ['no next', { data: [sent] }],
    ['an empty cursor', { data: [sent], next: '' }],
    ['data that is not a list', { data: sent, next: null }],
    ['more than 100 entries', { data: Array.from({ length: 101 }, () => sent), next: null }],
    ['an unknown operation type', withMetadata({ operationType: 'rug' })],
    ['an unknown status', withMetadata({ status: 'lost' })],
    ['a time Date cannot read', withMetadata({ minedAt: 'yesterday' })],
    ['a nonce that is a string', withMetadata({ nonce: '3' })],
    ['no chain', withMetadata({ chain: undefined })],
    ['an unknown direction', withTransfer({ ...sent.transfers[0], direction: 'sideways' })],
    ['a quantity that is a number', withTransfer({ ...sent.transfers[0], quantity: { numeric: 1.5 } })],
    ['a javascript: icon', withTransfer({ ...sent.transfers[0], fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: 'javascript:alert(1)' } } })],
    ['a data: NFT preview', withTransfer({ ...spamNft, nft_info: { ...spamNft.nft_info, content: { preview: { url: 'data:image/png;base64,AA' } } } })],
    ['an NFT without its spam flag', withTransfer({ ...spamNft, nft_info: { name: 'Prize' } })],
    ['an unknown key', withTransfer({ ...sent.transfers[0], extra: true })],
    ['a symbol above 64 characters', withTransfer({ ...sent.transfers[0], fungible_info: { name: 'x', symbol: 'X'.repeat(65) } })],
    ['no object', null],
  ])('error: an answer with %s is refused', async (_, body) => {
    const { client } = setup(() => json(body))
    await expect(client.history(alice, { chainId: 'eip155:31337' })).rejects.toThrow(`Unexpected answer from /v1/account/${alice}/history`)
  })

  // issue 12: the onramp orders (onramp=coinbase) are 'buy' entries with the provider's status.
  const bought = {
    id: 'onramp:o1',
    metadata: {
      ...sent.metadata,
      operationType: 'buy',
      nonce: 0,
      status: 'failed',
      onrampStatus: 'ONRAMP_TRANSACTION_STATUS_FAILED',
      failureReason: 'The card was declined',
    },
    transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '0.0328' }, recipient: alice }],
  }
  test.each<[string, object]>([
    ['a failed order with its reason', bought],
    ['an order in progress without a transaction yet', { ...bought, metadata: { ...bought.metadata, hash: '', status: 'pending', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS', failureReason: undefined } }],
    ['a completed order', { ...bought, metadata: { ...bought.metadata, status: 'confirmed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS', failureReason: undefined } }],
  ])('behavior: an onramp entry is read: %s', async (_, entry) => {
    const { client } = setup(() => json({ data: [entry], next: null }))
    await expect(client.history(alice, { chainId: 'eip155:31337', onramp: 'coinbase' })).resolves.toEqual({ data: [entry], next: null })
  })

  test.each<[string, object]>([
    ['an unknown onramp status', { onrampStatus: 'ONRAMP_TRANSACTION_STATUS_LOST' }],
    ['a reason that is not text', { failureReason: { code: 1 } }],
    ['a reason above 512 characters', { failureReason: 'x'.repeat(513) }],
  ])('error: an onramp entry with %s is refused', async (_, metadata) => {
    const { client } = setup(() => json({ data: [{ ...bought, metadata: { ...bought.metadata, ...metadata } }], next: null }))
    await expect(client.history(alice, { chainId: 'eip155:31337', onramp: 'coinbase' })).rejects.toThrow('Unexpected answer')
  })

  test('error: a 400 carries the status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Invalid cursor' }, 400))
    await expect(client.history(alice, { chainId: 'eip155:31337', cursor: 'bad' })).rejects.toMatchObject({ status: 400, message: 'Invalid cursor', reason: 'Invalid cursor' })
  })
})

describe('nfts', () => {
  const punk = {
    id: 'eip155:31337:0x5fbdb2315678afecb367f032d93f642f64180aa3:7',
    chain: 'eip155:31337',
    contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    tokenId: '7',
    standard: 'erc721',
    name: 'Door #7',
    collection: { name: 'Doors' },
    amount: '1',
    content: { preview: { url: 'http://api.test/nft/7.png' } },
    flags: { is_spam: false },
  }

  test('behavior: GET /v1/account/{address}/nfts with chainId and cursor', async () => {
    const { client, url } = setup(() => json({ data: [punk], next: null }))
    await expect(client.nfts(alice, { chainId: 'eip155:31337', cursor: 'n2' })).resolves.toEqual({ data: [punk], next: null })
    expect(url().pathname).toBe(`/v1/account/${alice}/nfts`)
    expect(Object.fromEntries(url().searchParams)).toEqual({ ...common, cursor: 'n2' })
  })

  test('behavior: an amount given as a number reads as a decimal string; content is optional', async () => {
    const { content: _, ...bare } = punk
    const { client } = setup(() => json({ data: [{ ...bare, standard: 'erc1155', amount: 12 }], next: 'n2' }))
    await expect(client.nfts(alice, { chainId: 'eip155:31337' })).resolves.toEqual({ data: [{ ...bare, standard: 'erc1155', amount: '12' }], next: 'n2' })
  })

  test.each<[string, unknown]>([
    ['an unknown standard', { ...punk, standard: 'erc20' }],
    ['a negative amount', { ...punk, amount: -1 }],
    ['a fractional amount', { ...punk, amount: '1.5' }],
    ['no collection', { ...punk, collection: undefined }],
    ['no spam flag', { ...punk, flags: {} }],
    ['a javascript: preview', { ...punk, content: { preview: { url: 'javascript:alert(1)' } } }],
    ['a name above 1024 characters', { ...punk, name: 'x'.repeat(1025) }],
  ])('error: an answer with %s is refused', async (_, item) => {
    const { client } = setup(() => json({ data: [item], next: null }))
    await expect(client.nfts(alice, { chainId: 'eip155:31337' })).rejects.toThrow(`Unexpected answer from /v1/account/${alice}/nfts`)
  })

  test('error: a non-OK answer carries the status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Invalid chainId' }, 400))
    await expect(client.nfts(alice, { chainId: 'eip155:1' })).rejects.toMatchObject({ status: 400, message: 'Invalid chainId' })
  })
})

describe('swap calls (issue 11)', () => {
  const native = 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
  const dusd = 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3'
  const user = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
  const token = { name: 'Ether', symbol: 'ETH', address: native, decimals: 18, logoUri: 'http://api.test/i/eth.svg', eip2612: false }
  const quote = {
    id: null,
    fromAccount: native,
    toAccount: dusd,
    fromAmount: '1000000000000000000',
    toAmount: '2990120000000000000000',
    route: [native, dusd],
    priceImpact: 0.25,
    fee: { percent: 0.3, amount: '3000000000000000', token: native },
    networkFee: { gas: '120000', gasPrice: '2000000000', amount: '240000000000000' },
  }
  const tx = { from: user, to: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0', data: '0x38ed1739', eip155: { gas: '150000', gasPrice: '2000000000' } }

  test('behavior: GET /v1/convert/tokens with the chain, and projectId, st, sv', async () => {
    const { client, url } = setup(() => json({ tokens: [token] }))
    await expect(client.swapTokens('eip155:31337')).resolves.toEqual([token])
    expect(url().pathname).toBe('/v1/convert/tokens')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', chainId: 'eip155:31337' })
  })

  test('error: a token that is not CAIP-10, or an image that could run script, is refused', async () => {
    for (const bad of [{ ...token, address: '0xeeee' }, { ...token, logoUri: 'javascript:alert(1)' }, { ...token, decimals: 1.5 }]) {
      const { client } = setup(() => json({ tokens: [bad] }))
      await expect(client.swapTokens('eip155:31337')).rejects.toThrow('Unexpected answer from /v1/convert/tokens')
    }
  })

  test('behavior: GET /v1/convert/quotes with base units and the gas price in wei', async () => {
    const { client, url } = setup(() => json({ quotes: [quote] }))
    await expect(client.swapQuotes({ amount: 10n ** 18n, userAddress: user, from: native, to: dusd, gasPrice: 2_000_000_000n })).resolves.toEqual([quote])
    expect(url().pathname).toBe('/v1/convert/quotes')
    expect(Object.fromEntries(url().searchParams)).toMatchObject({ amount: '1000000000000000000', userAddress: user, from: native, to: dusd, gasPrice: '2000000000', projectId: 'p1' })
  })

  test('behavior: a quote without a network fee is valid', async () => {
    const { networkFee: _, ...bare } = quote
    const { client } = setup(() => json({ quotes: [bare] }))
    await expect(client.swapQuotes({ amount: 1n, userAddress: user, from: native, to: dusd })).resolves.toEqual([bare])
  })

  test('error: a quote with an amount that is no integer, or too many quotes, is refused', async () => {
    for (const body of [{ quotes: [{ ...quote, toAmount: '1.5' }] }, { quotes: Array(9).fill(quote) }, { quotes: [{ ...quote, extra: 1 }] }]) {
      const { client } = setup(() => json(body))
      await expect(client.swapQuotes({ amount: 1n, userAddress: user, from: native, to: dusd })).rejects.toThrow('Unexpected answer from /v1/convert/quotes')
    }
  })

  test('error: a 400 carries the api message (no liquidity)', async () => {
    const { client } = setup(() => json({ message: 'No liquidity for this pair' }, 400))
    const error = await client.swapQuotes({ amount: 1n, userAddress: user, from: native, to: dusd }).catch((e) => e)
    expect([error.status, error.reason]).toEqual([400, 'No liquidity for this pair'])
  })

  test('behavior: GET /v1/convert/allowance as a bigint', async () => {
    const { client, url } = setup(() => json({ allowance: '115792089237316195423570985008687907853269984665640564039457584007913129639935' }))
    await expect(client.swapAllowance({ tokenAddress: dusd, userAddress: user })).resolves.toBe(2n ** 256n - 1n)
    expect(Object.fromEntries(url().searchParams)).toMatchObject({ tokenAddress: dusd, userAddress: user })
  })

  test('behavior: GET /v1/convert/build-approve with the amount', async () => {
    const { client, url } = setup(() => json({ tx: { ...tx, value: '0' } }))
    await expect(client.buildApprove({ userAddress: user, from: dusd, to: native, amount: 5n })).resolves.toEqual({ ...tx, value: '0' })
    expect(Object.fromEntries(url().searchParams)).toMatchObject({ userAddress: user, from: dusd, to: native, amount: '5' })
  })

  test('behavior: POST /v1/convert/build-transaction with the slippage and the project id in the body', async () => {
    const { client, init, url } = setup(() => json({ tx: { ...tx, amount: '1000' } }))
    await expect(client.buildSwap({ amount: 1000n, slippage: 0.5, from: native, to: dusd, userAddress: user })).resolves.toEqual({ ...tx, amount: '1000' })
    expect(url().pathname).toBe('/v1/convert/build-transaction')
    expect(JSON.parse(init().body as string)).toEqual({ amount: '1000', eip155: { slippage: 0.5 }, projectId: 'p1', from: native, to: dusd, userAddress: user })
  })

  test('behavior: the api\'s additions (toAmount, amountOutMin, deadline) and spec §7\'s empty answer', async () => {
    const built = setup(() => json({ tx: { ...tx, amount: '1' }, toAmount: '10', amountOutMin: '9', deadline: 1_700_000_000 }))
    await expect(built.client.buildSwap({ amount: 1n, slippage: 1, from: native, to: dusd, userAddress: user })).resolves.toEqual({ ...tx, amount: '1' })
    const empty = setup(() => json({ tx: null }))
    await expect(empty.client.buildApprove({ userAddress: user, from: dusd, to: native, amount: 1n })).resolves.toBeNull()
  })

  test('error: a transaction with data that is not hex is refused', async () => {
    const { client } = setup(() => json({ tx: { ...tx, amount: '1', data: 'not hex' } }))
    await expect(client.buildSwap({ amount: 1n, slippage: 1, from: native, to: dusd, userAddress: user })).rejects.toThrow('Unexpected answer from /v1/convert/build-transaction')
  })

  test('behavior: POST /v1/fungible/price in US dollars', async () => {
    const fungible = { name: 'Ether', symbol: 'ETH', iconUrl: 'http://api.test/i', price: 3000, address: 'eip155:31337:native' }
    const { client, init } = setup(() => json({ fungibles: [fungible] }))
    await expect(client.prices(['eip155:31337:native'])).resolves.toEqual([fungible])
    expect(JSON.parse(init().body as string)).toEqual({ currency: 'usd', addresses: ['eip155:31337:native'], projectId: 'p1' })
  })
})

describe('onramp calls (issue 12)', () => {
  const liveOptions = {
    purchaseCurrencies: [{ id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [{ name: 'eip155:31337', display_name: 'Anvil', chain_id: '31337', contract_address: '' }] }],
    paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'card', min: '20.00', max: '500.00' }] }],
  }
  const quote = {
    coinbaseFee: { amount: '1.00', currency: 'USD' },
    networkFee: { amount: '0.50', currency: 'USD' },
    paymentSubtotal: { amount: '98.50', currency: 'USD' },
    paymentTotal: { amount: '100.00', currency: 'USD' },
    purchaseAmount: { amount: '0.03283333', currency: 'ETH' },
    quoteId: 'q1',
  }
  const request = { purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100.00', network: 'eip155:31337', paymentMethod: 'card' as const }

  test('behavior: GET /v1/onramp/options: the live options, not marked as the fallback', async () => {
    const { client, url } = setup(() => json(liveOptions))
    await expect(client.onrampOptions()).resolves.toEqual({ options: liveOptions, fallback: false })
    expect(url().pathname).toBe('/v1/onramp/options')
    expect(url().searchParams.get('projectId')).toBe('p1')
  })

  test.each([
    ['a server error', () => json({ message: 'down' }, 500)],
    ['a network failure', () => Promise.reject(new TypeError('network down'))],
    ['an answer of the wrong shape', () => json({ purchaseCurrencies: 'none' })],
  ])('behavior: on %s, the built-in sample options, marked as the fallback (spec §8)', async (_, answer) => {
    const { client } = setup(answer)
    const { options, fallback } = await client.onrampOptions()
    expect(fallback).toBe(true)
    expect(options.paymentCurrencies.map((c) => [c.id, c.payment_method_limits])).toEqual([
      ['USD', [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }]],
      ['EUR', [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }]],
    ])
  })

  test('behavior: POST /v1/onramp/quote with the payment method', async () => {
    const { client, url, init } = setup(() => json(quote))
    await expect(client.onrampQuote(request)).resolves.toEqual(quote)
    expect([init().method, url().pathname, url().searchParams.get('projectId')]).toEqual(['POST', '/v1/onramp/quote', 'p1'])
    expect(JSON.parse(init().body as string)).toEqual(request)
  })

  test('behavior: a failed quote falls back to the mocked quote (spec §8)', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('network down')))
    const mocked = await client.onrampQuote(request)
    expect(mocked.quoteId).toBe('mocked-quote-id')
    expect(mocked.paymentTotal).toEqual({ amount: '100.00', currency: 'USD' })
  })

  test('behavior: a cancelled quote rejects rather than falling back', async () => {
    const { client } = setup((_, init) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))))
    const controller = new AbortController()
    const pending = client.onrampQuote(request, controller.signal)
    controller.abort(new DOMException('newer quote', 'AbortError'))
    await expect(pending).rejects.toThrow('newer quote')
  })

  test('behavior: POST /v1/generators/onrampurl sends the body and gives the url', async () => {
    const body = {
      destinationWallets: [{ address: '0xabc', blockchains: ['eip155:31337'], assets: ['ETH'] }],
      defaultNetwork: 'eip155:31337',
      partnerUserId: '0xabc',
      defaultExperience: 'buy' as const,
      presetFiatAmount: 100,
    }
    const { client, url, init } = setup(() => json({ url: 'http://127.0.0.1:8793/buy?session=1' }))
    await expect(client.onrampUrl(body)).resolves.toBe('http://127.0.0.1:8793/buy?session=1')
    expect([init().method, url().pathname]).toEqual(['POST', '/v1/generators/onrampurl'])
    expect(JSON.parse(init().body as string)).toEqual(body)
  })

  test.each([
    ['an empty url (unsupported network, spec §7)', { url: '' }, ''],
  ])('behavior: %s is given as it is', async (_, answer, expected) => {
    const { client } = setup(() => json(answer))
    await expect(client.onrampUrl({ destinationWallets: [], defaultNetwork: 'eip155:1', partnerUserId: 'x', defaultExperience: 'buy' })).resolves.toBe(expected)
  })

  test.each([['javascript:alert(1)'], ['data:text/html,hi']])('error: a url that is not http(s) is refused: %s', async (bad) => {
    const { client } = setup(() => json({ url: bad }))
    await expect(client.onrampUrl({ destinationWallets: [], defaultNetwork: 'eip155:1', partnerUserId: 'x', defaultExperience: 'buy' })).rejects.toThrow('Unexpected answer')
  })

  test('param: history asks for the onramp orders with onramp=coinbase', async () => {
    const { client, url } = setup(() => json({ data: [], next: null }))
    await client.history('0xabc', { chainId: 'eip155:31337', onramp: 'coinbase' })
    expect(Object.fromEntries(url().searchParams)).toMatchObject({ onramp: 'coinbase', chainId: 'eip155:31337' })
  })
})
