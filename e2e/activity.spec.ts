/**
 * The Activity and NFTs tabs (issue 10) over the api's indexer of the real anvil chains. A fresh email
 * wallet gives each test an account with no history; the test then makes real transactions on anvil
 * (funding and token transfers from the test accounts, its own sends and mints by anvil's
 * impersonation, the devnet's NFT helpers) and reads them back through the modal as a person would.
 */
import type { Page } from '@playwright/test'
import { type Address, encodeFunctionData, erc20Abi, parseAbi, parseEther, parseUnits, toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { chains } from '@doorway/devnet/stack'
import * as Nfts from '@doorway/devnet/nfts'
import * as Tokens from '@doorway/devnet/tokens'
import { loginByEmail, newEmail, demoAddress } from './embedded.js'
import { apiOrigin, connectDevWallet, dapp, devAccount, expect, expectAccessible, explorerOptions, hostOrigin, modalFrame, ready, rpc, test, walletPrompt } from './fixtures.js'

const [home, other] = chains as [(typeof chains)[number], (typeof chains)[number]]
const friend = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 1 }).address
const stranger = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 2 }).address
const manifest = () => Tokens.readManifest()!
const token = (symbol: string) => manifest().tokens[`eip155:${home.id}`]!.find((t) => t.symbol === symbol)!
const collection = (symbol: string) => manifest().nfts![`eip155:${home.id}`]!.find((c) => c.symbol === symbol)!

/** A mined transaction sent through anvil: from a test account, or from any address by impersonation. */
async function send(chain: (typeof chains)[number], transaction: { from: Address; to: Address; value?: bigint; data?: `0x${string}` }) {
  const impersonated = ![friend, devAccount].includes(transaction.from)
  if (impersonated) await rpc(chain.rpcUrl, 'anvil_impersonateAccount', [transaction.from])
  try {
    const hash = await rpc<`0x${string}`>(chain.rpcUrl, 'eth_sendTransaction', [
      { from: transaction.from, to: transaction.to, value: toHex(transaction.value ?? 0n), ...(transaction.data && { data: transaction.data }) },
    ])
    await expect.poll(() => rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [hash])).not.toBeNull()
    return hash
  } finally {
    if (impersonated) await rpc(chain.rpcUrl, 'anvil_stopImpersonatingAccount', [transaction.from])
  }
}

/** A new email wallet on the demo (with explorers configured): its address, with no history yet. */
async function freshAccount(page: Page): Promise<Address> {
  await ready(page, explorerOptions())
  await loginByEmail(page, newEmail())
  const address = (await demoAddress(page)) as Address
  await modalFrame(page).getByRole('button', { name: 'Close' }).click()
  return address
}

async function openTab(page: Page, tab: 'Activity' | 'NFTs') {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await frame.getByRole('tablist', { name: 'Account sections' }).getByRole('tab', { name: tab }).click()
  return frame
}

const month = new Intl.DateTimeFormat('en-US', { month: 'long' }).format(new Date())

test.describe('Activity', () => {
  test('behavior: real transactions by month with signs and 3 decimals; the spam airdrop and the other chain hidden; scrolling loads the next page; the api failing gives the spec toast', async ({ page, context }) => {
    test.setTimeout(120_000)
    const me = await freshAccount(page)
    await rpc(home.rpcUrl, 'anvil_setBalance', [me, toHex(parseEther('10'))])
    // The oldest entries: 20 small receives, so the newest entries fill the first page and these go to the second.
    for (let i = 1; i <= 20; i++) await send(home, { from: friend, to: me, value: parseUnits(String(i), 15) })
    await send(home, { from: friend, to: me, value: parseEther('0.5') })
    await send(home, { from: friend, to: token('DUSD').address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [me, 7_000_000n] }) })
    await send(home, { from: me, to: stranger, value: parseEther('0.1') })
    await send(home, { from: me, to: token('DUSD').address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [stranger, 2_000_000n] }) })
    const door = collection('DOOR').address
    await send(home, { from: me, to: door, data: encodeFunctionData({ abi: parseAbi(['function mint(address to) returns (uint256)']), functionName: 'mint', args: [me] }) })
    await Nfts.airdrop({ chain: home, collection: collection('CLAIM').address, to: [me, stranger] })
    await send(other, { from: friend, to: me, value: parseEther('0.777') })

    const frame = await openTab(page, 'Activity')
    const list = frame.getByRole('list', { name: month, exact: true })
    await expect(frame.getByRole('heading', { name: month, exact: true })).toBeVisible()
    const entry = (name: RegExp) => list.getByRole('link', { name })
    await expect(entry(/^Minted, Doorway Door #\d+, \+1 NFT, /)).toBeVisible()
    await expect(entry(/^Sent, To 0x3C44…93BC, -0\.100 ETH, /)).toBeVisible()
    await expect(entry(/^Received, From 0x7099…79C8, \+7\.000 DUSD, /)).toBeVisible()
    // A token's receiver, not the token contract the transaction went to.
    await expect(entry(/^Sent, To 0x3C44…93BC, -2\.000 DUSD, /)).toBeVisible()
    await expect(entry(/^Received, From 0x7099…79C8, \+0\.500 ETH, /)).toBeVisible()
    const sent = entry(/^Sent, To 0x3C44…93BC, -0\.100 ETH/)
    expect(await sent.getAttribute('href')).toMatch(new RegExp(`^${hostOrigin}/explorer/tx/0x[0-9a-f]{64}$`))
    // Newest first: the mint above the send above the receives.
    const names = await list.getByRole('link').evaluateAll((links) => links.map((l) => l.getAttribute('aria-label') ?? ''))
    expect(names.findIndex((n) => n.startsWith('Minted'))).toBeLessThan(names.findIndex((n) => n.startsWith('Sent')))
    // spec §5: the spam-only airdrop is hidden, and the other chain's receive is not listed.
    await expect(frame.getByText(/Reward Pass|Claim Your Rewards/)).toHaveCount(0)
    await expect(frame.getByText(/0\.777/)).toHaveCount(0)
    // The first filler receive is on the second page: scrolling to the end loads it.
    const oldest = entry(/^Received, From 0x7099…79C8, \+0\.001 ETH, /)
    await expect(oldest).toHaveCount(0)
    await frame.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded()
    await expect(oldest).toBeVisible()
    await expect(list.getByRole('link', { name: /^Received, From 0x7099…79C8, \+0\.0\d\d ETH, / })).toHaveCount(20)
    await expect(frame.getByRole('button', { name: 'Load more' })).toHaveCount(0)
    await expectAccessible(page)

    // spec §8: the api failing gives 'Failed to fetch transactions' with the empty state and a retry.
    await context.route(`${apiOrigin}/v1/account/**`, (route) => route.abort('connectionrefused'))
    const tabs = frame.getByRole('tablist', { name: 'Account sections' })
    await tabs.getByRole('tab', { name: 'Tokens' }).click()
    await tabs.getByRole('tab', { name: 'Activity' }).click()
    await expect(frame.getByRole('status').filter({ hasText: 'Failed to fetch transactions' })).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Retry' })).toBeVisible()
    await context.unroute(`${apiOrigin}/v1/account/**`)
    await frame.getByRole('button', { name: 'Retry' }).click()
    await expect(entry(/^Minted, Doorway Door #\d+/)).toBeVisible()
  })

  test('behavior: a send from the modal shows at once as pending and turns confirmed when mined', async ({ page }) => {
    await ready(page, explorerOptions())
    await connectDevWallet(page)
    const frame = modalFrame(page)
    await rpc(home.rpcUrl, 'evm_setAutomine', [false])
    try {
      await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
      await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /Ether/ }).click()
      await frame.getByLabel(/^Amount/).fill('0.0042')
      await frame.getByRole('button', { name: 'Continue' }).click()
      await frame.getByLabel('Address or name').fill(stranger)
      await frame.getByRole('button', { name: 'Continue' }).click()
      await frame.getByRole('button', { name: 'Send', exact: true }).click()
      await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
      await expect(frame.getByRole('dialog', { name: 'Transaction' })).toBeVisible()
      await frame.getByRole('button', { name: 'Done' }).click()
      await frame.getByRole('tablist', { name: 'Account sections' }).getByRole('tab', { name: 'Activity' }).click()
      const pending = frame.getByRole('link', { name: /^Sent, To 0x3C44…93BC, -0\.004 ETH, Pending, / })
      await expect(pending).toBeVisible()
      await rpc(home.rpcUrl, 'evm_mine', [])
      await expect(pending).toHaveCount(0)
      await expect(frame.getByRole('link', { name: /^Sent, To 0x3C44…93BC, -0\.004 ETH, [A-Z][a-z]{2} \d/ }).first()).toBeVisible()
    } finally {
      await rpc(home.rpcUrl, 'evm_setAutomine', [true])
    }
  })

  test('behavior: wallet_getAssets answers the dapp for the connected account in ERC-7811 shape; another account is refused', async ({ page }) => {
    await ready(page)
    await connectDevWallet(page)
    const assets = await dapp(page, (modal) =>
      (modal as unknown as { getProvider(): { request(a: unknown): Promise<unknown> } })
        .getProvider()
        .request({ method: 'wallet_getAssets', params: [{ account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainFilter: ['0x7a69'] }] }),
    )
    const list = (assets as Record<string, { address: string; type: string; balance: string; metadata: { symbol: string } }[]>)['0x7a69']!
    expect(Object.keys(assets as object)).toEqual(['0x7a69'])
    expect(list.find((a) => a.type === 'native')).toMatchObject({ address: 'native', metadata: { symbol: 'ETH' } })
    const dusd = list.find((a) => a.metadata.symbol === 'DUSD')!
    expect(dusd).toMatchObject({ address: token('DUSD').address, type: 'erc20' })
    const onChain = await rpc<`0x${string}`>(home.rpcUrl, 'eth_call', [
      { to: token('DUSD').address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [devAccount] }) },
      'latest',
    ])
    expect(BigInt(dusd.balance)).toBe(BigInt(onChain))
    const refused = await dapp(page, (modal) =>
      (modal as unknown as { getProvider(): { request(a: unknown): Promise<unknown> } })
        .getProvider()
        .request({ method: 'wallet_getAssets', params: [{ account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }] })
        .then(
          () => 'answered',
          (error: { code: number }) => error.code,
        ),
    )
    expect(refused).toBe(4100)
  })
})

test.describe('NFTs', () => {
  test('behavior: the NFTs the account holds, with their images and ERC-1155 counts; the spam collection hidden', async ({ page }) => {
    test.setTimeout(90_000)
    const me = await freshAccount(page)
    const doors = [await Nfts.mint({ chain: home, collection: collection('DOOR').address, to: me }), await Nfts.mint({ chain: home, collection: collection('DOOR').address, to: me })]
    await Nfts.mintItems({ chain: home, collection: collection('DITEM').address, to: me, id: 3n, amount: 4n })
    await Nfts.airdrop({ chain: home, collection: collection('CLAIM').address, to: [me] })
    // Another chain's NFT is not this chain's.
    await Nfts.mintItems({ chain: other, collection: manifest().nfts![`eip155:${other.id}`]!.find((c) => c.symbol === 'DITEM')!.address, to: me, id: 4n, amount: 1n })

    const frame = await openTab(page, 'NFTs')
    const grid = frame.getByRole('list', { name: 'NFTs' })
    await expect(grid.getByRole('listitem')).toHaveCount(3)
    for (const { tokenId } of doors) await expect(grid.getByRole('img', { name: `Doorway Door #${tokenId}` })).toBeVisible()
    await expect(grid.getByRole('img', { name: 'Doorway Lantern' })).toBeVisible()
    await expect(grid.getByRole('listitem').filter({ hasText: 'Doorway Lantern' })).toContainText('×4')
    await expect(grid.getByText(/Reward Pass|Claim Your Rewards|Compass/)).toHaveCount(0)
    // The images are the collections' own on-chain artwork, served by the api and really drawn once a
    // person scrolls to them (they load lazily).
    for (const image of await grid.getByRole('img').all()) await image.scrollIntoViewIfNeeded()
    const drawn = () => grid.getByRole('img').evaluateAll((images) => images.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))
    await expect.poll(drawn).toEqual([true, true, true])
    await expectAccessible(page)
  })
})
