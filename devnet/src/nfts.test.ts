import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Address,
  type Hex,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  erc1155Abi,
  erc721Abi,
  getContractAddress,
  http,
  pad,
  parseAbi,
  parseEventLogs,
  toEventSelector,
  toEventSignature,
  toFunctionSignature,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from './anvil.js'
import * as Nfts from './nfts.js'
import * as Tokens from './tokens.js'

// One chain, on a port apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chain = { id: 31337, port: 18631, rpcUrl: 'http://127.0.0.1:18631' }
const chains = [chain]
// Never the developer's .doorway/devnet.json: a running stack reads it.
const dir = mkdtempSync(join(tmpdir(), 'doorway-nfts-'))
const manifest = join(dir, 'devnet.json')
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'))

const client = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 })
const walletOf = (account: Address) => createWalletClient({ transport: http(chain.rpcUrl), account })
const [account0, account1, account2] = Tokens.holders as [Address, Address, Address]
const supportsInterfaceAbi = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)'])

// What the definitions promise: DOOR, CLAIM and DITEM at the deployer's nonces 0, 1 and 2.
const door = getContractAddress({ from: Nfts.deployer.address, nonce: 0n })
const claim = getContractAddress({ from: Nfts.deployer.address, nonce: 1n })
const ditem = getContractAddress({ from: Nfts.deployer.address, nonce: 2n })
const expected: Nfts.Collection[] = [
  { address: door, name: 'Doorway Doors', symbol: 'DOOR', standard: 'erc721', spam: false },
  { address: claim, name: 'Claim Your Rewards', symbol: 'CLAIM', standard: 'erc721', spam: true },
  { address: ditem, name: 'Doorway Items', symbol: 'DITEM', standard: 'erc1155', spam: false },
]

/** The text of a `data:<mime>;base64,` URL, checking its Base64 is canonical (padding included). */
function decode(url: string, mime: string): string {
  const prefix = `data:${mime};base64,`
  expect(url.startsWith(prefix)).toBe(true)
  const payload = url.slice(prefix.length)
  const text = Buffer.from(payload, 'base64').toString('utf8')
  expect(Buffer.from(text, 'utf8').toString('base64')).toBe(payload)
  return text
}
type Metadata = { name: string; description: string; image: string }
const metadata = (url: string) => JSON.parse(decode(url, 'application/json')) as Metadata

async function mined(hash: Promise<Hex>) {
  const receipt = await client.waitForTransactionReceipt({ hash: await hash })
  expect(receipt.status).toBe('success')
  return receipt
}

let anvil: Anvil.start.ReturnType
let deployed: Nfts.deploy.ReturnType
beforeAll(async () => {
  anvil = await Anvil.start({ chains })
  // as tokens.ts leaves it: the nfts join its tokens in the same file
  writeFileSync(manifest, JSON.stringify({ tokens: { 'eip155:31337': [] } }))
  deployed = await Nfts.deploy({ chains, manifest })
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('deploy', () => {
  test('behavior: DOOR, CLAIM and DITEM at the deployer nonce 0, 1 and 2 addresses', () => {
    expect(deployed).toEqual({ nfts: { 'eip155:31337': expected } })
    expect([door, claim, ditem]).toMatchInlineSnapshot(`
      [
        "0x95bD8D42f30351685e96C62EDdc0d0613bf9a87A",
        "0x98eDDadCfde04dC22a0e62119617e74a6Bc77313",
        "0x2B574555158337Cd46d47c2Ca57E4698A1f04e70",
      ]
    `)
  })

  test('behavior: writes `nfts` into the manifest and keeps its `tokens`', () => {
    expect(read(manifest)).toEqual({ tokens: { 'eip155:31337': [] }, ...deployed })
  })

  test('behavior: accounts 0 and 1 own DOOR 1–3 and 4–5', async () => {
    const owners = await Promise.all([1n, 2n, 3n, 4n, 5n].map((id) => client.readContract({ address: door, abi: erc721Abi, functionName: 'ownerOf', args: [id] })))
    expect(owners).toEqual([account0, account0, account0, account1, account1])
    expect(await client.readContract({ address: door, abi: erc721Abi, functionName: 'balanceOf', args: [account0] })).toBe(3n)
    expect(await client.readContract({ address: door, abi: erc721Abi, functionName: 'totalSupply' })).toBe(5n)
  })

  test('behavior: account 0 holds 5 DITEM 1 and 1 DITEM 2, account 1 holds 2 DITEM 1', async () => {
    const balances = await client.readContract({
      address: ditem,
      abi: erc1155Abi,
      functionName: 'balanceOfBatch',
      args: [
        [account0, account0, account1, account1],
        [1n, 2n, 1n, 2n],
      ],
    })
    expect(balances).toEqual([5n, 1n, 2n, 0n])
  })

  test('behavior: one transaction the deployer sent airdropped a CLAIM to each of accounts 0–4', async () => {
    const logs = await client.getContractEvents({ address: claim, abi: erc721Abi, eventName: 'Transfer', fromBlock: 0n })
    expect(logs.map(({ args }) => [args.from, args.to, args.tokenId])).toEqual(Tokens.holders.map((to, i) => [zeroAddress, to, BigInt(i + 1)]))
    const hashes = new Set(logs.map((log) => log.transactionHash))
    expect(hashes.size).toBe(1)
    const transaction = await client.getTransaction({ hash: [...hashes][0]! })
    expect(transaction.from).toBe(Nfts.deployer.address.toLowerCase())
  })

  test('behavior: a second deploy reuses the collections and mints nothing', async () => {
    const nonce = await client.getTransactionCount({ address: Nfts.deployer.address })
    expect(await Nfts.deploy({ chains, manifest })).toEqual(deployed)
    expect(await client.getTransactionCount({ address: Nfts.deployer.address })).toBe(nonce)
    expect(await client.readContract({ address: door, abi: erc721Abi, functionName: 'totalSupply' })).toBe(5n)
  })
})

describe('tokenURI', () => {
  // ids 1–5 give JSON of three lengths mod 3, so every Base64 padding case is decoded
  test.each([1n, 2n, 3n, 4n, 5n])('behavior: DOOR %i is on-chain JSON with its name and an SVG image', async (id) => {
    const url = await client.readContract({ address: door, abi: erc721Abi, functionName: 'tokenURI', args: [id] })
    const { name, description, image } = metadata(url)
    expect(name).toBe(`Doorway Door #${id}`)
    expect(description).toBe('A door of the Doorway devnet, drawn on chain.')
    const svg = decode(image, 'image/svg+xml')
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/)
    expect(svg).toContain(`>#${id}</text>`)
  })

  test('behavior: the image differs from token to token', async () => {
    const image = async (id: bigint) =>
      metadata(await client.readContract({ address: door, abi: erc721Abi, functionName: 'tokenURI', args: [id] })).image
    const [one, two] = await Promise.all([image(1n), image(2n)])
    expect(decode(one, 'image/svg+xml').match(/fill="#(\w{6})"/)![1]).not.toBe(decode(two, 'image/svg+xml').match(/fill="#(\w{6})"/)![1])
  })

  test('behavior: CLAIM looks like spam', async () => {
    const { name, description, image } = metadata(await client.readContract({ address: claim, abi: erc721Abi, functionName: 'tokenURI', args: [1n] }))
    expect({ name, description }).toMatchInlineSnapshot(`
      {
        "description": "You have been selected! Visit claim-rewards.example to claim your reward.",
        "name": "Reward Pass #1",
      }
    `)
    expect(decode(image, 'image/svg+xml')).toContain('>FREE CLAIM</text>')
  })

  test('error: a token not minted has no URI', async () => {
    await expect(client.readContract({ address: door, abi: erc721Abi, functionName: 'tokenURI', args: [999n] })).rejects.toThrow(/ERC721: invalid token ID/)
  })
})

describe('uri', () => {
  test.each([
    [1n, 'Doorway Key'],
    [2n, 'Doorway Map'],
    [3n, 'Doorway Lantern'],
    [4n, 'Doorway Compass'],
    [77n, 'Doorway Item'],
  ])('behavior: DITEM %i is on-chain JSON named %s with an SVG image', async (id, expectedName) => {
    const { name, image } = metadata(await client.readContract({ address: ditem, abi: erc1155Abi, functionName: 'uri', args: [id] }))
    expect(name).toBe(expectedName)
    expect(decode(image, 'image/svg+xml')).toMatch(new RegExp(`^<svg .*>${expectedName}</text></svg>$`))
  })
})

describe('supportsInterface', () => {
  test.each([
    ['DOOR', door, '0x01ffc9a7', true],
    ['DOOR', door, '0x80ac58cd', true],
    ['DOOR', door, '0x5b5e139f', true],
    ['DOOR', door, '0xd9b67a26', false],
    ['DOOR', door, '0xffffffff', false],
    ['DITEM', ditem, '0x01ffc9a7', true],
    ['DITEM', ditem, '0xd9b67a26', true],
    ['DITEM', ditem, '0x0e89341c', true],
    ['DITEM', ditem, '0x80ac58cd', false],
    ['DITEM', ditem, '0xffffffff', false],
  ] as const)('behavior: %s answers %s with %s', async (_, address, interfaceId, answer) => {
    expect(await client.readContract({ address, abi: supportsInterfaceAbi, functionName: 'supportsInterface', args: [interfaceId] })).toBe(answer)
  })
})

describe('ERC-721 transfers', () => {
  test('behavior: approve, transferFrom by the approved and safeTransferFrom (both overloads) to an account', async () => {
    const common = { address: door, abi: erc721Abi, chain: null } as const
    await mined(walletOf(account0).writeContract({ ...common, functionName: 'approve', args: [account2, 1n] }))
    expect(await client.readContract({ ...common, functionName: 'getApproved', args: [1n] })).toBe(account2)
    await mined(walletOf(account2).writeContract({ ...common, functionName: 'transferFrom', args: [account0, account2, 1n] }))
    // the approval went with the transfer
    expect(await client.readContract({ ...common, functionName: 'getApproved', args: [1n] })).toBe(zeroAddress)
    await mined(walletOf(account2).writeContract({ ...common, functionName: 'safeTransferFrom', args: [account2, account1, 1n] }))
    await mined(walletOf(account0).writeContract({ ...common, functionName: 'setApprovalForAll', args: [account2, true] }))
    expect(await client.readContract({ ...common, functionName: 'isApprovedForAll', args: [account0, account2] })).toBe(true)
    await mined(walletOf(account2).writeContract({ ...common, functionName: 'safeTransferFrom', args: [account0, account1, 2n, '0x1234'] }))
    expect(await client.readContract({ ...common, functionName: 'ownerOf', args: [1n] })).toBe(account1)
    expect(await client.readContract({ ...common, functionName: 'ownerOf', args: [2n] })).toBe(account1)
    expect(await client.readContract({ ...common, functionName: 'balanceOf', args: [account0] })).toBe(1n)
  })

  test('behavior: Transfer has 4 topics: its signature, from, to and the token id', async () => {
    const receipt = await mined(walletOf(account1).writeContract({ address: door, abi: erc721Abi, functionName: 'transferFrom', args: [account1, account2, 4n], chain: null }))
    const [log] = receipt.logs
    expect(log!.topics).toEqual([toEventSelector('Transfer(address,address,uint256)'), pad(account1.toLowerCase() as Hex), pad(account2.toLowerCase() as Hex), pad('0x4')])
    expect(log!.data).toBe('0x')
  })

  test.each([
    ['safeTransferFrom(from, to, id)', [account2, ditem, 4n]],
    ['safeTransferFrom(from, to, id, data)', [account2, ditem, 4n, '0x']],
  ] as const)('error: %s to a contract without onERC721Received reverts', async (_, args) => {
    await expect(
      client.simulateContract({ address: door, abi: erc721Abi, functionName: 'safeTransferFrom', args, account: account2 }),
    ).rejects.toThrow(/ERC721: transfer to non ERC721Receiver implementer/)
  })

  test('error: transferFrom by an account neither owner nor approved reverts', async () => {
    await expect(
      client.simulateContract({ address: door, abi: erc721Abi, functionName: 'transferFrom', args: [account1, account0, 5n], account: account0 }),
    ).rejects.toThrow(/ERC721: caller is not token owner or approved/)
  })
})

describe('ERC-1155 transfers', () => {
  test('behavior: TransferSingle has topics signature, operator, from, to and data (id, value)', async () => {
    const receipt = await mined(
      walletOf(account0).writeContract({ address: ditem, abi: erc1155Abi, functionName: 'safeTransferFrom', args: [account0, account2, 1n, 2n, '0x'], chain: null }),
    )
    const [log] = receipt.logs
    const topic = (account: Address) => pad(account.toLowerCase() as Hex)
    expect(log!.topics).toEqual([toEventSelector('TransferSingle(address,address,address,uint256,uint256)'), topic(account0), topic(account0), topic(account2)])
    expect(log!.data).toBe(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 2n]))
  })

  test('behavior: safeBatchTransferFrom by an approved operator emits TransferBatch', async () => {
    await mined(walletOf(account0).writeContract({ address: ditem, abi: erc1155Abi, functionName: 'setApprovalForAll', args: [account1, true], chain: null }))
    const receipt = await mined(
      walletOf(account1).writeContract({ address: ditem, abi: erc1155Abi, functionName: 'safeBatchTransferFrom', args: [account0, account2, [1n, 2n], [1n, 1n], '0x'], chain: null }),
    )
    const [batch] = parseEventLogs({ abi: erc1155Abi, eventName: 'TransferBatch', logs: receipt.logs })
    expect(batch!.args).toEqual({ operator: account1, from: account0, to: account2, ids: [1n, 2n], values: [1n, 1n] })
    expect(await client.readContract({ address: ditem, abi: erc1155Abi, functionName: 'balanceOfBatch', args: [[account0, account2, account2], [1n, 1n, 2n]] })).toEqual([2n, 3n, 1n])
  })

  test.each([
    ['safeTransferFrom', [account2, door, 1n, 1n, '0x']],
    ['safeBatchTransferFrom', [account2, door, [1n], [1n], '0x']],
  ] as const)('error: %s to a contract without the receiver hook reverts', async (functionName, args) => {
    await expect(client.simulateContract({ address: ditem, abi: erc1155Abi, functionName, args, account: account2 } as never)).rejects.toThrow(
      /ERC1155: transfer to non-ERC1155Receiver implementer/,
    )
  })

  test('error: moving another account’s items without approval reverts', async () => {
    await expect(
      client.simulateContract({ address: ditem, abi: erc1155Abi, functionName: 'safeTransferFrom', args: [account1, account2, 1n, 1n, '0x'], account: account2 }),
    ).rejects.toThrow(/ERC1155: caller is not token owner or approved/)
  })
})

describe('mint', () => {
  test('behavior: mints the next DOOR to `to` in a transaction from the deployer', async () => {
    const { hash, tokenId } = await Nfts.mint({ chain, collection: door, to: account2 })
    expect(tokenId).toBe(6n)
    expect(await client.readContract({ address: door, abi: erc721Abi, functionName: 'ownerOf', args: [6n] })).toBe(account2)
    expect((await client.getTransaction({ hash })).from).toBe(Nfts.deployer.address.toLowerCase())
  })

  test('error: throws with the revert reason', async () => {
    await expect(Nfts.mint({ chain, collection: door, to: zeroAddress })).rejects.toThrow(/ERC721: mint to the zero address/)
  })
})

describe('mintItems', () => {
  test('behavior: mints an amount of an item; its first mint announces its URI', async () => {
    const { hash } = await Nfts.mintItems({ chain, collection: ditem, to: account2, id: 3n, amount: 4n })
    const receipt = await client.getTransactionReceipt({ hash })
    const [announced] = parseEventLogs({ abi: erc1155Abi, eventName: 'URI', logs: receipt.logs })
    expect(announced!.args).toEqual({ id: 3n, value: await client.readContract({ address: ditem, abi: erc1155Abi, functionName: 'uri', args: [3n] }) })
    expect(await client.readContract({ address: ditem, abi: erc1155Abi, functionName: 'balanceOf', args: [account2, 3n] })).toBe(4n)
  })

  test('error: throws when a contract receiver does not accept', async () => {
    await expect(Nfts.mintItems({ chain, collection: ditem, to: door, id: 1n, amount: 1n })).rejects.toThrow(/non-ERC1155Receiver/)
  })
})

describe('airdrop', () => {
  test('behavior: one token to each address, in one transaction', async () => {
    const { hash } = await Nfts.airdrop({ chain, collection: claim, to: [account1, account2] })
    const receipt = await client.getTransactionReceipt({ hash })
    const transfers = parseEventLogs({ abi: erc721Abi, eventName: 'Transfer', logs: receipt.logs })
    expect(transfers.map(({ args }) => [args.to, args.tokenId])).toEqual([
      [account1, 6n],
      [account2, 7n],
    ])
  })
})

describe('artifact', () => {
  test('behavior: compiles both contracts into their own cache, with every function and event of the standards', () => {
    const path = join(dir, 'artifact.json')
    const compiled = Nfts.artifact({ path })
    expect(Object.keys(compiled.contracts).sort()).toEqual(['DoorwayCollectible', 'DoorwayItems'])
    expect(read(path)).toEqual(compiled)
    const signatures = (abi: readonly { type: string }[]) =>
      abi.flatMap((item) => (item.type === 'function' ? [toFunctionSignature(item as never)] : item.type === 'event' ? [toEventSignature(item as never)] : []))
    const standard721 = signatures(erc721Abi).filter((signature) => !signature.startsWith('tokenByIndex'))
    const standard1155 = signatures(erc1155Abi)
    expect(signatures(compiled.contracts.DoorwayCollectible.abi)).toEqual(expect.arrayContaining([...standard721, 'supportsInterface(bytes4)']))
    expect(signatures(compiled.contracts.DoorwayItems.abi)).toEqual(expect.arrayContaining([...standard1155, 'name()', 'symbol()']))
  }, 30_000)
})

// Last: it wipes the chain the tests above use.
describe('deploy on a fresh chain', () => {
  test('behavior: the same addresses and the initial mints again', async () => {
    await client.request({ method: 'anvil_reset' as never, params: [] as never })
    expect(await client.getCode({ address: door })).toBeUndefined()
    expect(await Nfts.deploy({ chains, manifest })).toEqual(deployed)
    expect(await client.readContract({ address: door, abi: erc721Abi, functionName: 'totalSupply' })).toBe(5n)
    expect(await client.readContract({ address: claim, abi: erc721Abi, functionName: 'totalSupply' })).toBe(5n)
  })
})
