/**
 * Swap (issue 11) against the devnet's real Uniswap V2: quotes from the api over the router, the dev
 * wallet (an extension on the host page) or a WalletConnect wallet approving each transaction, and
 * balances read straight from the chain.
 */
import type { FrameLocator, Page } from '@playwright/test'
import { type Address, type Hex, encodeFunctionData, erc20Abi, formatUnits, parseEther } from 'viem'
import * as Exchange from '@doorway/devnet/exchange'
import { chains, urls } from '@doorway/devnet/stack'
import * as TestWallet from '@doorway/devnet/testWallet'
import * as Tokens from '@doorway/devnet/tokens'
import * as Format from '@doorway/shared/Format'
import { connectDevWallet, dapp, devAccount, expect, expectAccessible, explorerOptions, modalFrame, ready, rpc, test, walletPrompt } from './fixtures.js'
import { pairByQr } from './walletConnect.js'

const home = chains[0]!
const token = (symbol: string) => Tokens.readManifest()!.tokens[`eip155:${home.id}`]!.find((t) => t.symbol === symbol)!
const exchange = () => Tokens.readManifest()!.exchange![`eip155:${home.id}`]!
const ethBalance = async (address: string) => BigInt(await rpc<Hex>(home.rpcUrl, 'eth_getBalance', [address, 'latest']))
const tokenBalance = async (symbol: string, address: string) =>
  BigInt(await rpc<Hex>(home.rpcUrl, 'eth_call', [{ to: token(symbol).address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] }) }, 'latest']))
const receipt = async (hash: Hex) => {
  await expect.poll(() => rpc(home.rpcUrl, 'eth_getTransactionReceipt', [hash])).not.toBeNull()
  return rpc<{ status: Hex; gasUsed: Hex; effectiveGasPrice: Hex }>(home.rpcUrl, 'eth_getTransactionReceipt', [hash])
}
const gasOf = async (hash: Hex) => {
  const r = await receipt(hash)
  return BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice)
}

/** Account → Swap → the two tokens → the amount, then waits for the quote; returns the quoted receive amount as shown. */
async function fillSwap(frame: FrameLocator, options: { from: string; to: string; amount: string }) {
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Swap' }).click()
  await expect(frame.getByRole('dialog', { name: 'Swap' })).toBeVisible()
  await chooseToken(frame, 'pay', options.from)
  await chooseToken(frame, 'receive', options.to)
  await frame.getByRole('textbox', { name: `Amount to pay (${options.from})` }).fill(options.amount)
  return quoted(frame, options)
}

async function chooseToken(frame: FrameLocator, side: 'pay' | 'receive', symbol: string) {
  await frame.getByRole('button', { name: new RegExp(`^Token to ${side}:`) }).click()
  await expect(frame.getByRole('dialog', { name: 'Select Token' })).toBeVisible()
  await frame.getByRole('searchbox', { name: 'Search by name or symbol' }).fill(symbol)
  await frame.getByRole('button', { name: new RegExp(`^${symbol}\\b`) }).first().click()
  await expect(frame.getByRole('dialog', { name: 'Swap' })).toBeVisible()
}

/** The receive amount once the quote for `amount` is on screen (3 decimals, as shown). */
async function quoted(frame: FrameLocator, options: { from: string; to: string; amount: string }) {
  const field = frame.getByRole('textbox', { name: `Amount to receive (${options.to})` })
  await expect(frame.getByText(new RegExp(`^Quote: [\\d,.]+ ${options.to} for ${Format.formatQuantity(options.amount).replace('.', '\\.')} ${options.from}$`))).toBeAttached()
  await expect(field).toHaveValue(/^[\d,.]+$/)
  return (await field.inputValue()).replaceAll(',', '')
}

/** Approve in the dev wallet's own prompt. */
const approveInWallet = (page: Page) => walletPrompt(page).getByRole('button', { name: 'Approve' }).click()

/** The swap's hash from the result view once it is confirmed. */
async function confirmed(frame: FrameLocator): Promise<Hex> {
  await expect(frame.getByRole('heading', { name: 'Swap confirmed' })).toBeVisible()
  return (await frame.getByLabel('Transaction hash', { exact: true }).getAttribute('title')) as Hex
}

test('behavior: ETH → DUSD with the dev wallet: one step, no approval; DUSD arrives exactly as quoted, within the slippage bound', async ({ page }) => {
  await ready(page)
  await connectDevWallet(page)
  const frame = modalFrame(page)
  const [eth, dusd] = [await ethBalance(devAccount), await tokenBalance('DUSD', devAccount)]
  const shown = await fillSwap(frame, { from: 'ETH', to: 'DUSD', amount: '0.5' })
  await expectAccessible(page)
  await frame.getByRole('button', { name: 'Review swap' }).click()
  const preview = frame.getByRole('dialog', { name: 'Review Swap' })
  await expect(preview).toBeVisible()
  await expect(preview.getByRole('button', { name: /^Approve/ })).toHaveCount(0)
  const least = Number((await preview.getByText(/^[\d,.]+ DUSD$/).last().textContent())!.replace(/[, DUSD]/g, ''))
  await expectAccessible(page)
  await preview.getByRole('button', { name: 'Swap', exact: true }).click()
  await approveInWallet(page)
  const hash = await confirmed(frame)
  expect((await receipt(hash)).status).toBe('0x1')
  const received = (await tokenBalance('DUSD', devAccount)) - dusd
  // Nobody else traded in between: exactly the quote (shown at 3 decimals), and never below the bound.
  expect(Format.formatQuantity(formatUnits(received, 6)).replaceAll(',', '')).toBe(shown)
  expect(Number(formatUnits(received, 6))).toBeGreaterThanOrEqual(least)
  expect(await ethBalance(devAccount)).toBe(eth - parseEther('0.5') - (await gasOf(hash)))
  await expect(frame.getByRole('dialog', { name: 'Swap' })).toContainText(`${Format.formatQuantity(formatUnits(received, 6))} DUSD`)
  await expectAccessible(page)
})

test('behavior: DUSD → DWT: approve, then swap, each with its own wallet prompt; a rejected swap does not ask for the approval again; it shows in Activity as a trade with two images', async ({ page }) => {
  // With an explorer, each Activity entry is a link named by its summary.
  await ready(page, explorerOptions())
  await connectDevWallet(page)
  const frame = modalFrame(page)
  const [dusd, dwt] = [await tokenBalance('DUSD', devAccount), await tokenBalance('DWT', devAccount)]
  const shown = await fillSwap(frame, { from: 'DUSD', to: 'DWT', amount: '25' })
  await frame.getByRole('button', { name: 'Review swap' }).click()
  const preview = frame.getByRole('dialog', { name: 'Review Swap' })
  const steps = preview.getByRole('list', { name: 'Review swap' })
  await expect(steps).toContainText('Step 1 of 2')
  await expect(steps).toContainText('Approve DUSD')
  await expect(steps).toContainText('Step 2 of 2')
  await preview.getByRole('button', { name: 'Approve DUSD' }).click()
  await approveInWallet(page)
  await expect(frame.getByRole('status').filter({ hasText: 'DUSD approved' })).toBeVisible()
  // The person changes their mind in the wallet: nothing is swapped, and the approval stands.
  await preview.getByRole('button', { name: 'Swap', exact: true }).click()
  await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
  await expect(frame.getByRole('status').filter({ hasText: 'You cancelled the request in your wallet. Nothing was swapped.' })).toBeVisible()
  await expect(preview.getByRole('button', { name: 'Approve DUSD' })).toHaveCount(0)
  await preview.getByRole('button', { name: 'Swap', exact: true }).click()
  await approveInWallet(page)
  const hash = await confirmed(frame)
  expect((await receipt(hash)).status).toBe('0x1')
  expect(await tokenBalance('DUSD', devAccount)).toBe(dusd - 25_000_000n)
  const received = (await tokenBalance('DWT', devAccount)) - dwt
  expect(Format.formatQuantity(formatUnits(received, 18)).replaceAll(',', '')).toBe(shown)

  // spec §2: a two-token swap shows two images in Activity.
  await frame.getByRole('button', { name: 'Done' }).click()
  await frame.getByRole('tablist', { name: 'Account sections' }).getByRole('tab', { name: 'Activity' }).click()
  const trade = frame.getByRole('link', { name: new RegExp(`^Swapped, DUSD → DWT, -25\\.000 DUSD, \\+${Format.formatQuantity(formatUnits(received, 18)).replace('.', '\\.')} DWT, `) })
  await expect(trade).toBeVisible()
  await expect(trade.locator('img')).toHaveCount(2)
})

test('error: the price moves beyond the slippage while the wallet asks: the swap reverts on chain, the modal says so and keeps the form, nothing is swapped; moved before the swap is sent, nothing is asked; a fresh quote works', async ({ page }) => {
  test.setTimeout(60_000)
  await ready(page)
  await connectDevWallet(page)
  const frame = modalFrame(page)
  const { weth } = exchange()
  // Someone else buys DWT with 10 ETH: the pool's price moves about 30 %, far beyond 1 %.
  const moves: bigint[] = []
  const movePrice = async () => moves.push((await Exchange.swapExact({ chain: home, from: 5, path: [weth, token('DWT').address], amountIn: parseEther('10'), exchange: exchange() })).amountOut)
  try {
    const dwt = await tokenBalance('DWT', devAccount)
    await fillSwap(frame, { from: 'ETH', to: 'DWT', amount: '1' })
    await frame.getByRole('button', { name: 'Review swap' }).click()
    const preview = frame.getByRole('dialog', { name: 'Review Swap' })
    await preview.getByRole('button', { name: 'Swap', exact: true }).click()
    await expect(walletPrompt(page)).toBeVisible()
    await movePrice()
    const eth = await ethBalance(devAccount)
    await approveInWallet(page)
    const moved = 'The price moved more than your 1 % slippage; nothing was swapped.'
    await expect(frame.getByRole('heading', { name: 'Swap failed' })).toBeVisible()
    await expect(frame.getByRole('alert').filter({ hasText: moved })).toBeVisible()
    expect(await tokenBalance('DWT', devAccount)).toBe(dwt)
    // Only the reverted transaction's gas was spent.
    expect(eth - (await ethBalance(devAccount))).toBeLessThan(parseEther('0.01'))
    await frame.getByRole('button', { name: 'Back to the swap' }).click()
    await expect(frame.getByRole('textbox', { name: 'Amount to pay (ETH)' })).toHaveValue('1')
    await expect(frame.getByRole('alert').filter({ hasText: moved })).toBeVisible()
    await quoted(frame, { from: 'ETH', to: 'DWT', amount: '1' })

    // The price moves again while the person reads the preview: the modal sees it before the wallet asks.
    await frame.getByRole('button', { name: 'Review swap' }).click()
    await movePrice()
    await preview.getByRole('button', { name: 'Swap', exact: true }).click()
    await expect(preview.getByRole('alert').filter({ hasText: moved })).toBeVisible()
    await expect(walletPrompt(page)).toBeHidden()
    // The preview has quoted again: now the swap goes through at the new price.
    await preview.getByRole('button', { name: 'Swap', exact: true }).click()
    await approveInWallet(page)
    await confirmed(frame)
    expect(await tokenBalance('DWT', devAccount)).toBeGreaterThan(dwt)
  } finally {
    // Put the pool back roughly where it was for the tests that follow.
    for (const amountIn of moves) await Exchange.swapExact({ chain: home, from: 5, path: [token('DWT').address, weth], amountIn, exchange: exchange() })
  }
})

test('behavior: open({ view: "Swap", arguments }) prefills the form and settles with the hash; bad arguments are refused naming the argument', async ({ page }) => {
  await ready(page)
  await connectDevWallet(page)
  await page.keyboard.press('Escape')
  const frame = modalFrame(page)
  const settled = dapp(page, (modal) => (modal.open as (o: object) => Promise<unknown>)({ view: 'Swap', arguments: { fromToken: 'ETH', toToken: 'DUSD', amount: '0.05' } }))
  await expect(frame.getByRole('textbox', { name: 'Amount to pay (ETH)' })).toHaveValue('0.05')
  await quoted(frame, { from: 'ETH', to: 'DUSD', amount: '0.05' })
  await frame.getByRole('button', { name: 'Review swap' }).click()
  await frame.getByRole('dialog', { name: 'Review Swap' }).getByRole('button', { name: 'Swap', exact: true }).click()
  await approveInWallet(page)
  const hash = await confirmed(frame)
  await expect(settled).resolves.toEqual({ status: 'swapped', hash, chainId: `eip155:${home.id}` })

  await page.keyboard.press('Escape')
  const error = await dapp(page, (modal) =>
    (modal.open as (o: object) => Promise<unknown>)({ view: 'Swap', arguments: { fromToken: 'ETH', amount: 'lots' } }).catch((e: Error) => e.message),
  )
  expect(error).toMatch(/^Invalid Swap argument `amount`/)
})

test.describe('over WalletConnect', () => {
  let wallet: TestWallet.TestWallet
  test.beforeEach(async ({}, info) => {
    wallet = await TestWallet.create({ relayUrl: urls.relay, chains, accountIndex: 1, storagePrefix: `e2e-swap-${info.testId}-${Date.now()}` })
  })
  test.afterEach(() => wallet.stop())

  test('behavior: a swap is approved by the wallet over the session and mined', async ({ page }) => {
    const account = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const dusd = await tokenBalance('DUSD', account)
    await ready(page)
    await pairByQr(page, wallet)
    const frame = modalFrame(page)
    await fillSwap(frame, { from: 'ETH', to: 'DUSD', amount: '0.2' })
    await frame.getByRole('button', { name: 'Review swap' }).click()
    await frame.getByRole('dialog', { name: 'Review Swap' }).getByRole('button', { name: 'Swap', exact: true }).click()
    const hash = await confirmed(frame)
    expect((await receipt(hash)).status).toBe('0x1')
    expect(await tokenBalance('DUSD', account)).toBeGreaterThan(dusd)
    expect(wallet.requests().filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)
  })
})

