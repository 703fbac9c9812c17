import { describe, expect, test } from 'vitest'
import * as Siws from './Siws.js'

const address = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'

describe('message', () => {
  test('behavior: every field, in the order and words of @solana/wallet-standard-util', () => {
    const text = Siws.message({
      domain: 'dapp.example',
      address,
      statement: 'Sign in',
      uri: 'https://dapp.example/login',
      version: '1',
      chainId: 'solana:localnet',
      nonce: 'n0nce123',
      issuedAt: '2026-01-01T00:00:00Z',
      expirationTime: '2026-01-02T00:00:00Z',
      notBefore: '2026-01-01T00:00:00Z',
      requestId: 'r1',
      resources: ['https://dapp.example/a', 'ipfs://b'],
    })
    expect(text).toMatchInlineSnapshot(`
      "dapp.example wants you to sign in with your Solana account:
      4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T

      Sign in

      URI: https://dapp.example/login
      Version: 1
      Chain ID: solana:localnet
      Nonce: n0nce123
      Issued At: 2026-01-01T00:00:00Z
      Expiration Time: 2026-01-02T00:00:00Z
      Not Before: 2026-01-01T00:00:00Z
      Request ID: r1
      Resources:
      - https://dapp.example/a
      - ipfs://b"
    `)
  })

  test('param: only domain and address: two lines', () => {
    expect(Siws.message({ domain: 'dapp.example', address })).toBe(`dapp.example wants you to sign in with your Solana account:\n${address}`)
  })

  test('param: an empty resource list still writes its heading, as the reference does', () => {
    expect(Siws.message({ domain: 'd.example', address, resources: [] })).toBe(`d.example wants you to sign in with your Solana account:\n${address}\n\nResources:`)
  })
})
