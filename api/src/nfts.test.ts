import { describe, expect, test } from 'vitest'
import * as Nfts from './nfts.js'

describe('parseDataUri', () => {
  test.each([
    ['base64 JSON', 'data:application/json;base64,eyJhIjoxfQ==', 'application/json', '{"a":1}'],
    ['percent-encoded JSON', 'data:application/json,%7B%22a%22%3A1%7D', 'application/json', '{"a":1}'],
    ['a charset parameter', 'data:application/json;charset=utf-8,{}', 'application/json', '{}'],
    ['an upper-case type', 'data:IMAGE/PNG;base64,AA==', 'image/png', '\u0000'],
  ])('behavior: %s', (_, uri, type, text) => {
    const parsed = Nfts.parseDataUri(uri)
    expect(parsed?.type).toBe(type)
    expect(Buffer.from(parsed!.bytes).toString('utf8')).toBe(text)
  })

  test.each([['https://x.test/a.json'], ['ipfs://bafy/1'], ['data:application/json,%E0%A4%A']])('behavior: %s is not a (valid) data URI', (uri) => {
    expect(Nfts.parseDataUri(uri)).toBeUndefined()
  })
})

describe('hasImage', () => {
  test.each([
    ['data:image/svg+xml;base64,PHN2Zy8+', true],
    ['data:image/png;base64,AA==', true],
    ['https://img.test/a.png', true],
    ['data:text/html,<script>alert(1)</script>', false],
    ['ipfs://bafy/1.png', false],
    ['javascript:alert(1)', false],
    [null, false],
  ])('behavior: %s is %s', (image, served) => {
    expect(Nfts.hasImage(image)).toBe(served)
  })
})

describe('display', () => {
  const network = { rpcUrl: '', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true, tokens: [] }
  const key = { chainId: 'eip155:31337' as const, contract: `0x${'ab'.repeat(20)}`, tokenId: '5' }

  test('behavior: without a metadata name, the collection name and the id; spam by the network list in any case', () => {
    expect(Nfts.display(key, { ...key, name: null, collection: 'Doors', image: null }, { publicUrl: 'http://api.test', network })).toEqual({
      name: 'Doors #5',
      collection: { name: 'Doors' },
      flags: { is_spam: false },
    })
    expect(Nfts.display(key, undefined, { publicUrl: 'http://api.test', network: { ...network, spamNfts: [key.contract.toUpperCase().replace('0X', '0x')] } }).flags.is_spam).toBe(true)
  })
})

describe('isPublicHost', () => {
  test.each([
    ['8.8.8.8', true],
    ['2001:4860:4860::8888', true],
    ['[2001:4860:4860::8888]', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['[::1]', false],
    ['::ffff:127.0.0.1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['localhost', false],
    ['does-not-exist.invalid', false],
  ])('param: %s is public: %s', async (host, expected) => {
    expect(await Nfts.isPublicHost(host)).toBe(expected)
  })
})
