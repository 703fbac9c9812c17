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

// SIWS: the address is the base58 of a 32-byte ed25519 key (Keypair.fromSeed(32 × 7).publicKey)
const solanaAddress = 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB'
const solanaFull: SiwxData = {
  ...full,
  domain: 'service.org',
  accountAddress: solanaAddress,
  statement: 'I accept the ServiceOrg Terms of Service: https://service.org/tos',
  uri: 'https://service.org/login',
  chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
}
const solanaMinimal: SiwxData = { ...minimal, accountAddress: solanaAddress, chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }

// Polkadot: //Alice's sr25519 account in SS58 (generic substrate prefix 42), on the Polkadot relay chain
const polkadotAddress = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPGNoHGKutQY'
const polkadotFull: SiwxData = { ...full, accountAddress: polkadotAddress, chainId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182' }
const polkadotMinimal: SiwxData = { ...minimal, accountAddress: polkadotAddress, chainId: 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e' }

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

  // The SIWS text as @solana/wallet-standard-util's createSignInMessageText (which solana:signIn wallets use)
  // writes it: a statement between two empty lines, and one empty line without one.
  test('behavior: solana is Sign In With Solana: its header, one empty line per part, the cluster as Chain ID', () => {
    expect(formatMessage(solanaFull)).toMatchInlineSnapshot(`
      "service.org wants you to sign in with your Solana account:
      GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB

      I accept the ServiceOrg Terms of Service: https://service.org/tos

      URI: https://service.org/login
      Version: 1
      Chain ID: solana:mainnet
      Nonce: 32891756
      Issued At: 2021-09-30T16:25:24Z
      Expiration Time: 2021-10-01T16:25:24Z
      Not Before: 2021-09-30T16:00:00Z
      Request ID: request-7
      Resources:
      - ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
      - https://example.com/my-web2-claim.json"
    `)
    expect(formatMessage(solanaMinimal)).toMatchInlineSnapshot(`
      "localhost:5173 wants you to sign in with your Solana account:
      GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB

      URI: http://localhost:5173/wagmi/
      Version: 1
      Chain ID: solana:devnet
      Nonce: a1b2c3d4e5f6a7b8
      Issued At: 2026-01-01T00:00:00.000Z"
    `)
  })

  test.each([
    ['mainnet', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana:mainnet'],
    ['mainnet by its deprecated reference', 'solana:4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ', 'solana:mainnet'],
    ['devnet', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'solana:devnet'],
    ['testnet', 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', 'solana:testnet'],
    ['a local cluster (its genesis hash)', 'solana:7nVa4rHmbU4grY2ZbR3Z5ZJ8wKk7uqLS', 'localnet'],
  ] as const)('param: solana Chain ID for %s is %s', (_, chainId, line) => {
    expect(formatMessage({ ...solanaMinimal, chainId }).split('\n')).toContain(`Chain ID: ${line}`)
  })

  test('param: an empty resource list is still a "Resources:" line in SIWS, and none in EIP-4361', () => {
    expect(formatMessage({ ...solanaMinimal, resources: [] }).endsWith('\nResources:')).toBe(true)
    expect(formatMessage({ ...minimal, resources: [] })).toBe(formatMessage(minimal))
  })

  test('behavior: polkadot is CAIP-122 on EIP-4361’s layout: its header, the SS58 address, the genesis-hash prefix as Chain ID', () => {
    expect(formatMessage(polkadotFull)).toMatchInlineSnapshot(`
      "example.com wants you to sign in with your Polkadot account:
      5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPGNoHGKutQY

      I accept the ExampleOrg Terms of Service: https://example.com/tos

      URI: https://example.com/login
      Version: 1
      Chain ID: 91b171bb158e2d3848fa23a9f1c25182
      Nonce: 32891756
      Issued At: 2021-09-30T16:25:24Z
      Expiration Time: 2021-10-01T16:25:24Z
      Not Before: 2021-09-30T16:00:00Z
      Request ID: request-7
      Resources:
      - ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
      - https://example.com/my-web2-claim.json"
    `)
    expect(formatMessage(polkadotMinimal)).toMatchInlineSnapshot(`
      "localhost:5173 wants you to sign in with your Polkadot account:
      5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPGNoHGKutQY


      URI: http://localhost:5173/wagmi/
      Version: 1
      Chain ID: e143f23803ac50e8f6f8e62695d1ce9e
      Nonce: a1b2c3d4e5f6a7b8
      Issued At: 2026-01-01T00:00:00.000Z"
    `)
  })

  test('param: an empty resource list is no "Resources:" line for polkadot (EIP-4361’s rule)', () => {
    expect(formatMessage({ ...polkadotMinimal, resources: [] })).toBe(formatMessage(polkadotMinimal))
  })

  test.each([
    ['an EVM address', { accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, 'the address 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 is not a Polkadot address (SS58)'],
    ['a letter base58 does not have (l)', { accountAddress: `${polkadotAddress.slice(0, -1)}l` }, `the address ${polkadotAddress.slice(0, -1)}l is not a Polkadot address (SS58)`],
    ['an address too short for SS58 (34 digits)', { accountAddress: polkadotAddress.slice(0, 34) }, `the address ${polkadotAddress.slice(0, 34)} is not a Polkadot address (SS58)`],
    ['an address too long for SS58 (61 digits)', { accountAddress: polkadotAddress + polkadotAddress.slice(0, 13) }, `the address ${polkadotAddress + polkadotAddress.slice(0, 13)} is not a Polkadot address (SS58)`],
    ['a chain that is not a genesis-hash prefix', { chainId: 'polkadot:Polkadot' }, 'the chain polkadot:Polkadot is not a polkadot genesis-hash prefix (32 lowercase hex digits)'],
    ['a genesis-hash prefix in capitals', { chainId: 'polkadot:91B171BB158E2D3848FA23A9F1C25182' }, 'the chain polkadot:91B171BB158E2D3848FA23A9F1C25182 is not a polkadot genesis-hash prefix (32 lowercase hex digits)'],
    ['a nonce with a dash (EIP-4361’s rules)', { nonce: 'a1b2c3d4-e5f6' }, 'the nonce is not 8 or more letters and digits'],
  ])('error: a polkadot message with %s', (_, change, why) => {
    expect(refusal(() => formatMessage({ ...polkadotMinimal, ...change } as SiwxData))).toEqual({ code: 'InvalidMessage', message: `Not a Polkadot sign-in message: ${why}` })
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

  test.each([
    ['an EVM address', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'the address 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 is not a Solana address (base58, 32 bytes)'],
    ['a letter base58 does not have (0)', 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEG0', 'the address GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEG0 is not a Solana address (base58, 32 bytes)'],
    ['base58 of 31 bytes', '44aLB2AXRPXCkyeVpyU8kHr4p56Vhwfy8cdz1unGjHR', 'the address 44aLB2AXRPXCkyeVpyU8kHr4p56Vhwfy8cdz1unGjHR is not a Solana address (base58, 32 bytes)'],
  ])('error: a solana message with %s', (_, accountAddress, why) => {
    expect(refusal(() => formatMessage({ ...solanaMinimal, accountAddress }))).toEqual({ code: 'InvalidMessage', message: `Not a Sign In With Solana message: ${why}` })
  })

  test('error: a solana message keeps EIP-4361’s field rules (nonce)', () => {
    expect(refusal(() => formatMessage({ ...solanaMinimal, nonce: 'short' }))).toEqual({
      code: 'InvalidMessage',
      message: 'Not a Sign In With Solana message: the nonce is not 8 or more letters and digits',
    })
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
    ['a Chain ID with a leading zero', text.replace('Chain ID: 1', 'Chain ID: 01')],
    ['a resource not in a "- " line', text.replace('- https', '* https')],
    ['an empty text', ''],
  ])('error: refuses %s', (_, tampered) => {
    expect(refusal(() => parseMessage(tampered))).toMatchObject({ code: 'InvalidMessage', message: expect.stringMatching(/^Not an EIP-4361 message: /) })
  })

  test.each<[string, SiwxData, SiwxData['chainId'] | undefined]>([
    ['every field', solanaFull, undefined],
    ['no statement', solanaMinimal, undefined],
    ['a statement that looks like a field', { ...solanaMinimal, statement: 'URI: https://evil.example' }, undefined],
    ['an empty resource list', { ...solanaMinimal, resources: [] }, undefined],
    ['a local cluster, given the session’s chain', { ...solanaMinimal, chainId: 'solana:7nVa4rHmbU4grY2ZbR3Z5ZJ8wKk7uqLS' }, 'solana:7nVa4rHmbU4grY2ZbR3Z5ZJ8wKk7uqLS'],
    ['mainnet by its deprecated reference, given the session’s chain', { ...solanaMinimal, chainId: 'solana:4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ' }, 'solana:4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ'],
  ])('behavior: reads back a Sign In With Solana message (%s)', (_, data, chainId) => {
    expect(parseMessage(formatMessage(data), { chainId })).toEqual(data)
  })

  test('behavior: the text as a solana:signIn wallet writes it (wallet-standard-util’s createSignInMessageText) reads as solana', () => {
    const wallet = 'service.org wants you to sign in with your Solana account:\nGmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB\n\nURI: https://service.org/login\nVersion: 1\nChain ID: solana:mainnet\nNonce: a1b2c3d4e5f6a7b8\nIssued At: 2026-01-01T00:00:00.000Z'
    expect(parseMessage(wallet)).toEqual({
      domain: 'service.org',
      accountAddress: solanaAddress,
      uri: 'https://service.org/login',
      version: '1',
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      nonce: 'a1b2c3d4e5f6a7b8',
      issuedAt: '2026-01-01T00:00:00.000Z',
    })
  })

  const siws = formatMessage(solanaFull)
  test.each([
    ['CRLF line endings', siws.replaceAll('\n', '\r\n')],
    ['a trailing line break', `${siws}\n`],
    ['EIP-4361’s two empty lines where there is no statement', formatMessage(solanaMinimal).replace('\n\n', '\n\n\n')],
    ['no empty line after the statement', siws.replace('/tos\n\n', '/tos\n')],
    ['the CAIP-2 reference as Chain ID', siws.replace('Chain ID: solana:mainnet', 'Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')],
    ['an EVM address', siws.replace(solanaAddress, full.accountAddress)],
    ['an address that is not base58', siws.replace(solanaAddress, `${solanaAddress.slice(0, -1)}0`)],
    ['a local cluster without the session’s chain', formatMessage({ ...solanaMinimal, chainId: 'solana:7nVa4rHmbU4grY2ZbR3Z5ZJ8wKk7uqLS' })],
  ])('error: refuses a Sign In With Solana message with %s', (_, tampered) => {
    expect(refusal(() => parseMessage(tampered))).toMatchObject({ code: 'InvalidMessage', message: expect.stringMatching(/^Not a Sign In With Solana message: /) })
  })

  test.each([
    ['a solana message as an eip155 session', siws, 'eip155:1', 'Not an EIP-4361 message: the first line is not "… wants you to sign in with your Ethereum account:"'],
    ['an eip155 message as a solana session', text, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'Not a Sign In With Solana message: the first line is not "… wants you to sign in with your Solana account:"'],
    ['a solana message of mainnet as a devnet session', siws, 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'Not a Sign In With Solana message: the Chain ID solana:mainnet is not solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1\'s'],
    ['an eip155 message of chain 1 as a chain 10 session', text, 'eip155:10', 'Not an EIP-4361 message: the Chain ID 1 is not eip155:10\'s'],
  ] as const)('error: the wrong namespace or chain: %s', (_, message, chainId, why) => {
    expect(refusal(() => parseMessage(message, { chainId }))).toEqual({ code: 'InvalidMessage', message: why })
  })

  test('error: a namespace with no parser', () => {
    expect(refusal(() => parseMessage(text, { chainId: 'bip122:000000000019d6689c085ae165831e93' }))).toEqual({
      code: 'UnsupportedNamespace',
      message: 'No sign-in message parser for bip122 accounts',
    })
  })

  test.each<[string, SiwxData, SiwxData['chainId'] | undefined]>([
    ['every field', polkadotFull, undefined],
    ['no statement', polkadotMinimal, undefined],
    ['a statement that looks like a field', { ...polkadotMinimal, statement: 'URI: https://evil.example' }, undefined],
    ['given the session’s chain', polkadotFull, polkadotFull.chainId],
  ])('behavior: reads back a Polkadot sign-in message (%s)', (_, data, chainId) => {
    expect(parseMessage(formatMessage(data), { chainId })).toEqual(data)
  })

  const polkadot = formatMessage(polkadotFull)
  test.each([
    ['CRLF line endings', polkadot.replaceAll('\n', '\r\n')],
    ['a trailing line break', `${polkadot}\n`],
    ['SIWS’s one empty line where there is no statement', formatMessage(polkadotMinimal).replace('\n\n\n', '\n\n')],
    ['the Chain ID with 0x', polkadot.replace('Chain ID: 91b1', 'Chain ID: 0x91b1')],
    ['the whole genesis hash as Chain ID', polkadot.replace('Chain ID: 91b171bb158e2d3848fa23a9f1c25182', 'Chain ID: 91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3')],
    ['the network name as Chain ID', polkadot.replace('Chain ID: 91b171bb158e2d3848fa23a9f1c25182', 'Chain ID: polkadot')],
    ['an EVM address', polkadot.replace(polkadotAddress, full.accountAddress)],
    ['a Solana address (too short for SS58)', polkadot.replace(polkadotAddress, solanaAddress.slice(0, 34))],
    ['a field EIP-4361 does not have', polkadot.replace('Version: 1', 'Version: 1\nPurpose: login')],
  ])('error: refuses a Polkadot sign-in message with %s', (_, tampered) => {
    expect(refusal(() => parseMessage(tampered))).toMatchObject({ code: 'InvalidMessage', message: expect.stringMatching(/^Not a Polkadot sign-in message: /) })
  })

  test.each([
    ['a polkadot message as an eip155 session', polkadot, 'eip155:1', 'Not an EIP-4361 message: the first line is not "… wants you to sign in with your Ethereum account:"'],
    ['an eip155 message as a polkadot session', text, polkadotFull.chainId, 'Not a Polkadot sign-in message: the first line is not "… wants you to sign in with your Polkadot account:"'],
    ['a Polkadot relay chain message as a Westend session', polkadot, 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e', 'Not a Polkadot sign-in message: the Chain ID 91b171bb158e2d3848fa23a9f1c25182 is not polkadot:e143f23803ac50e8f6f8e62695d1ce9e\'s'],
  ] as const)('error: the wrong namespace or chain: %s', (_, message, chainId, why) => {
    expect(refusal(() => parseMessage(message, { chainId }))).toEqual({ code: 'InvalidMessage', message: why })
  })

  test('error: the local cluster names no chain by itself', () => {
    expect(refusal(() => parseMessage(formatMessage({ ...solanaMinimal, chainId: 'solana:7nVa4rHmbU4grY2ZbR3Z5ZJ8wKk7uqLS' })))).toEqual({
      code: 'InvalidMessage',
      message: 'Not a Sign In With Solana message: Chain ID localnet names no chain: pass the session’s chainId',
    })
  })
})
