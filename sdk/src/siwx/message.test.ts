import { createSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import type { SiwxData } from '../types.js'
import { SiwxError } from './errors.js'
import { formatMessage, parseMessage, registerNamespace } from './message.js'

// EIP-4361's own example, with every optional field.
const full: SiwxData = {
  domain: 'example.com',
  accountAddress: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  statement: 'I accept the ExampleOrg Terms of Service: https://example.com/tos',
  uri: 'https://example.com/login',
  version: '1',
  chainId: 'eip155:1',
  nonce: '32891756',
  issuedAt: '2021-09-30T16:25:24Z',
  expirationTime: '2021-10-01T16:25:24Z',
  notBefore: '2021-09-30T16:00:00Z',
  requestId: 'request-7',
  resources: ['ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/', 'https://example.com/my-web2-claim.json'],
}
const minimal: SiwxData = {
  domain: 'localhost:5173',
  accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  uri: 'http://localhost:5173/wagmi/',
  version: '1',
  chainId: 'eip155:31337',
  nonce: 'a1b2c3d4e5f6a7b8',
  issuedAt: '2026-01-01T00:00:00.000Z',
}

const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return error instanceof SiwxError ? { code: error.code, message: error.message } : error
  }
  return 'not refused'
}

describe('formatMessage', () => {
  test('behavior: eip155 is EIP-4361, field for field', () => {
    expect(formatMessage(full)).toMatchInlineSnapshot(`
      "example.com wants you to sign in with your Ethereum account:
      0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

      I accept the ExampleOrg Terms of Service: https://example.com/tos

      URI: https://example.com/login
      Version: 1
      Chain ID: 1
      Nonce: 32891756
      Issued At: 2021-09-30T16:25:24Z
      Expiration Time: 2021-10-01T16:25:24Z
      Not Before: 2021-09-30T16:00:00Z
      Request ID: request-7
      Resources:
      - ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
      - https://example.com/my-web2-claim.json"
    `)
  })

  test('behavior: without a statement its line goes and both empty lines stay (EIP-4361 ABNF)', () => {
    expect(formatMessage(minimal)).toBe(
      'localhost:5173 wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\n\n' +
        'URI: http://localhost:5173/wagmi/\nVersion: 1\nChain ID: 31337\nNonce: a1b2c3d4e5f6a7b8\nIssued At: 2026-01-01T00:00:00.000Z',
    )
  })

  test.each([
    ['every field', full],
    ['no statement', minimal],
  ])('behavior: the same text as viem’s createSiweMessage (%s)', (_, data) => {
    const viem = createSiweMessage({
      domain: data.domain,
      address: data.accountAddress as `0x${string}`,
      statement: data.statement,
      uri: data.uri,
      version: '1',
      chainId: Number(data.chainId.split(':')[1]),
      nonce: data.nonce,
      issuedAt: new Date(data.issuedAt!),
      expirationTime: data.expirationTime ? new Date(data.expirationTime) : undefined,
      notBefore: data.notBefore ? new Date(data.notBefore) : undefined,
      requestId: data.requestId,
      resources: data.resources,
    })
    // viem writes times as toISOString() does: compare with our text in that form
    const iso = (time?: string) => (time ? new Date(time).toISOString() : undefined)
    expect(formatMessage({ ...data, issuedAt: iso(data.issuedAt), expirationTime: iso(data.expirationTime), notBefore: iso(data.notBefore) })).toBe(viem)
  })

  test('behavior: solana through the namespace hook: its account name and the CAIP-2 reference as Chain ID', () => {
    const solana: SiwxData = {
      ...minimal,
      domain: 'service.org',
      accountAddress: 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1',
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      statement: 'I accept the ServiceOrg Terms of Service: https://service.org/tos',
    }
    expect(formatMessage(solana)).toMatchInlineSnapshot(`
      "service.org wants you to sign in with your Solana account:
      GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1

      I accept the ServiceOrg Terms of Service: https://service.org/tos

      URI: http://localhost:5173/wagmi/
      Version: 1
      Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp
      Nonce: a1b2c3d4e5f6a7b8
      Issued At: 2026-01-01T00:00:00.000Z"
    `)
  })

  test('behavior: a namespace registered later gets its account name', () => {
    const bitcoin: SiwxData = { ...minimal, accountAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', chainId: 'bip122:000000000019d6689c085ae165831e93' }
    expect(refusal(() => formatMessage(bitcoin))).toMatchObject({ code: 'UnsupportedNamespace', message: expect.stringContaining("registerNamespace('bip122'") })
    registerNamespace('bip122', 'Bitcoin')
    expect(formatMessage(bitcoin).split('\n')[0]).toBe('localhost:5173 wants you to sign in with your Bitcoin account:')
  })

  test.each([
    ['a line break in the statement (it could forge fields)', { statement: 'Sign in\nNonce: 00000000' }, 'InvalidMessage'],
    ['a line break in a resource', { resources: ['https://a.example\nURI: https://b.example'] }, 'InvalidMessage'],
    ['no nonce', { nonce: '' }, 'InvalidMessage'],
    ['no Issued At', { issuedAt: undefined }, 'InvalidMessage'],
    ['a chain id that is not CAIP-2', { chainId: '31337' }, 'InvalidMessage'],
    ['a lowercase eip155 address (EIP-55)', { accountAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }, 'InvalidMessage'],
    ['a nonce with a dash (EIP-4361: letters and digits)', { nonce: 'a1b2c3d4-e5f6' }, 'InvalidMessage'],
    ['a version other than 1', { version: '2' }, 'InvalidMessage'],
    ['a domain with a path', { domain: 'example.com/login' }, 'InvalidMessage'],
    ['a time that is not RFC 3339', { expirationTime: 'tomorrow' }, 'InvalidMessage'],
    ['resources that are not a list (JSON from anyone)', { resources: 'https://a.example' }, 'InvalidMessage'],
    ['a statement that is not text', { statement: 42 }, 'InvalidMessage'],
  ])('error: %s', (_, change, code) => {
    expect(refusal(() => formatMessage({ ...minimal, ...change } as SiwxData))).toMatchObject({ code })
  })
})

describe('parseMessage', () => {
  test.each([
    ['every field', full],
    ['no statement', minimal],
  ])('behavior: reads back what formatMessage wrote (%s)', (_, data) => {
    expect(parseMessage(formatMessage(data))).toEqual(data)
  })

  const text = formatMessage(full)
  test.each([
    ['CRLF line endings', text.replaceAll('\n', '\r\n')],
    ['a trailing line break', `${text}\n`],
    ['the address without its checksum', text.replace(full.accountAddress, full.accountAddress.toLowerCase())],
    ['two spaces after a label', text.replace('Nonce: ', 'Nonce:  ')],
    ['fields out of order', text.replace('Version: 1\nChain ID: 1', 'Chain ID: 1\nVersion: 1')],
    ['a field EIP-4361 does not have', text.replace('Version: 1', 'Version: 1\nPurpose: login')],
    ['a missing nonce', text.replace('Nonce: 32891756\n', '')],
    ['one empty line too few', formatMessage(minimal).replace('\n\n\n', '\n\n')],
    ['another chain’s header', text.replace('Ethereum account', 'Solana account')],
    ['a Chain ID with a leading zero', text.replace('Chain ID: 1', 'Chain ID: 01')],
    ['a resource not in a "- " line', text.replace('- https', '* https')],
    ['an empty text', ''],
  ])('error: refuses %s', (_, tampered) => {
    expect(refusal(() => parseMessage(tampered))).toMatchObject({ code: 'InvalidMessage', message: expect.stringMatching(/^Not an EIP-4361 message: /) })
  })
})
