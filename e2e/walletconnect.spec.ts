/**
 * WalletConnect (issue 5) with the real clients: the frame's UniversalProvider and a @reown/walletkit
 * test wallet in this worker, both over the devnet relay, signing and sending on the anvil chains.
 * The test wallet plays the phone: it reads the QR the modal shows (decoded from the screenshot).
 */
import { type Page, devices } from '@playwright/test'
import { type Hex, hashMessage, recoverAddress, toHex } from 'viem'
import { chains, urls } from '@doorway/devnet/stack'
import * as TestWallet from '@doorway/devnet/testWallet'
import { dapp, eventLog, expect, hostOrigin, modalFrame, ready, rpc, test } from './fixtures.js'
import { pairByQr, scanQr } from './walletConnect.js'

// Account 1 of the test mnemonic: not the dev wallet's, so the two are never confused.
const walletAccount = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let wallet: TestWallet.TestWallet
test.beforeEach(async ({}, info) => {
  wallet = await TestWallet.create({ relayUrl: urls.relay, chains, accountIndex: 1, storagePrefix: `e2e-${info.testId}-${Date.now()}` })
})
test.afterEach(() => wallet.stop())

const connectByQr = (page: Page) => pairByQr(page, wallet)

const provider = <T,>(page: Page, method: string, params: unknown[]) =>
  page.evaluate(
    ([m, p]) => (window as unknown as { modal: { getProvider(): { request(r: unknown): Promise<unknown> } } }).modal.getProvider().request({ method: m, params: p }),
    [method, params] as const,
  ) as Promise<T>

const demoValue = (page: Page, term: string) => page.locator('dl dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')

test('behavior: the QR and the copied link carry the same URI; the wallet pairs; sign and send work', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hostOrigin })
  await context.grantPermissions(['clipboard-write'], { origin: 'http://127.0.0.1:5174' })
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /^WalletConnect/ }).click()
  await expect(frame.getByRole('dialog', { name: 'WalletConnect' })).toBeVisible()
  const uri = await scanQr(frame)
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await frame.getByRole('button', { name: 'Copy link' }).click()
  await expect(frame.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(uri)

  expect(await wallet.pair(uri)).toBeDefined()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByText('0x7099…79C8')).toBeVisible()
  await expect(demoValue(page, 'Address')).toHaveText(walletAccount)
  await expect(demoValue(page, 'Status')).toHaveText('connected')

  // personal_sign from the dapp's provider: the signature recovers to the wallet's account.
  const message = 'Sign in to the Doorway demo'
  const signature = await provider<Hex>(page, 'personal_sign', [toHex(message), walletAccount])
  expect(await recoverAddress({ hash: hashMessage(message), signature })).toBe(walletAccount)

  // A transaction through the dapp's provider is mined on anvil.
  const hash = await provider<Hex>(page, 'eth_sendTransaction', [{ from: walletAccount, to: '0x000000000000000000000000000000000000dEaD', value: '0x2386f26fc10000' }])
  await expect.poll(() => rpc<{ status: string } | null>(chains[0]!.rpcUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' })
  expect(wallet.requests().map((r) => r.method)).toEqual(expect.arrayContaining(['personal_sign', 'eth_sendTransaction']))
})

test('error: the wallet rejects the proposal: the view says so and retry shows a fresh URI', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /^WalletConnect/ }).click()
  const first = await scanQr(frame)
  wallet.onProposal('reject')
  expect(await wallet.pair(first)).toBeUndefined()
  const alert = frame.getByRole('alert').filter({ hasText: 'Connection declined' })
  await expect(alert).toBeVisible()
  await frame.getByRole('button', { name: 'Try again' }).click()
  const second = await scanQr(frame)
  expect(second).not.toBe(first)
  wallet.onProposal('approve')
  expect(await wallet.pair(second)).toBeDefined()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
})

test('behavior: the wallet switching chain reaches the dapp as chainChanged', async ({ page }) => {
  await ready(page)
  await connectByQr(page)
  await wallet.switchChain(31338)
  await expect(demoValue(page, 'Chain')).toHaveText('eip155:31338')
  await expect(eventLog(page).getByRole('listitem').filter({ hasText: 'chainChanged {"chainId":"eip155:31338"}' })).toHaveCount(1)
})

test('behavior: the wallet changing account resyncs: the dapp hears accountChanged', async ({ page }) => {
  await ready(page)
  await connectByQr(page)
  await wallet.changeAccount(2)
  const next = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
  await expect(demoValue(page, 'Address')).toHaveText(next)
  await expect(eventLog(page).getByRole('listitem').filter({ hasText: `accountChanged {"address":"${next}"` })).toHaveCount(1)
})

test('behavior: a catalogue wallet shows its logo and tabs; once connected it is listed as recent', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /^All Wallets/ }).click()
  await frame.getByRole('searchbox', { name: 'Search wallets' }).fill('Rainbow')
  await frame.getByRole('button', { name: 'Rainbow' }).click()
  await expect(frame.getByRole('tablist', { name: 'Ways to connect' }).getByRole('tab')).toHaveText(['QR Code', 'Browser'])
  await expect(frame.getByRole('img', { name: 'QR code to connect Rainbow' })).toBeVisible()
  await frame.getByRole('tab', { name: 'Browser' }).click()
  await expect(frame.getByRole('button', { name: 'Get the extension' })).toBeVisible()
  await frame.getByRole('tab', { name: 'QR Code' }).click()
  expect(await wallet.pair(await scanQr(frame))).toBeDefined()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await frame.getByRole('button', { name: 'Disconnect' }).click()
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const recent = frame.getByRole('list', { name: 'Recent' })
  await expect(recent.getByRole('button')).toHaveText(['RainbowRecent'])
})

test('behavior: WalletConnect-only mode (spec §2 rule 1) opens on the QR, with the wallets below', async ({ page }) => {
  await ready(page, `?options=${encodeURIComponent(JSON.stringify({ basic: true }))}`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'WalletConnect' })).toBeVisible()
  await expect(frame.getByRole('button', { name: /^All Wallets/ })).toBeVisible()
  expect(await wallet.pair(await scanQr(frame))).toBeDefined()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
})

test('behavior: the wallet moving to a chain the dapp did not configure shows UnsupportedChain', async ({ page }) => {
  await ready(page, '?chains=31337')
  await connectByQr(page)
  await dapp(page, (modal) => modal.close())
  await wallet.switchChain(31338)
  await expect(modalFrame(page).getByRole('dialog', { name: 'Switch Network' })).toBeVisible()
})

test('behavior: a reload restores the session without a new pairing; the wallet disconnecting reaches both sides', async ({ page }) => {
  await ready(page)
  await connectByQr(page)
  expect(wallet.sessions()).toHaveLength(1)
  await page.reload()
  await expect(demoValue(page, 'Status')).toHaveText('connected')
  await expect(demoValue(page, 'Address')).toHaveText(walletAccount)
  expect(wallet.sessions()).toHaveLength(1)
  // The restored session still carries requests.
  const signature = await provider<Hex>(page, 'personal_sign', [toHex('after reload'), walletAccount])
  expect(await recoverAddress({ hash: hashMessage('after reload'), signature })).toBe(walletAccount)

  await wallet.disconnect()
  await expect(demoValue(page, 'Status')).toHaveText('disconnected')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
})

test('behavior: disconnecting in the modal ends the session in the wallet too', async ({ page }) => {
  await ready(page)
  await connectByQr(page)
  await modalFrame(page).getByRole('button', { name: 'Disconnect' }).click()
  await expect(demoValue(page, 'Status')).toHaveText('disconnected')
  await expect.poll(() => wallet.sessions().length).toBe(0)
})

test.describe('on a phone', () => {
  const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']
  test.use(pixel)

  test('behavior: a wallet opens by its app link from the top window; the link pairs', async ({ page, context }) => {
    // A wallet whose app link is a universal link on this machine, so the browser can follow it.
    const mobileLink = `${hostOrigin}/mobile-wallet/`
    const options = { customWallets: [{ id: 'phone-wallet', name: 'Phone Wallet', mobileLink }] }
    await ready(page, `?options=${encodeURIComponent(JSON.stringify(options))}`)
    await page.getByRole('button', { name: 'Connect Wallet' }).tap()
    const frame = modalFrame(page)
    // No second screen to scan with: a phone gets no QR entry, it browses the wallets.
    await expect(frame.getByRole('button', { name: /^WalletConnect/ })).toHaveCount(0)
    await frame.getByRole('button', { name: /^All Wallets/ }).tap()
    await frame.getByRole('button', { name: 'Phone Wallet' }).tap()
    const open = frame.getByRole('button', { name: 'Open Phone Wallet' })
    await expect(open).toBeEnabled()
    const [opened] = await Promise.all([context.waitForEvent('page'), open.tap()])
    const link = new URL(opened.url())
    expect(`${link.origin}${link.pathname}`).toBe(`${mobileLink}wc`)
    const uri = link.searchParams.get('uri') ?? ''
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    await opened.close()
    expect(await wallet.pair(uri)).toBeDefined()
    await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
    await expect(demoValue(page, 'Address')).toHaveText(walletAccount)
  })
})

test('behavior: an ERC-20 send from the modal goes through the WalletConnect session and is mined', async ({ page }) => {
  const { readManifest } = await import('@doorway/devnet/tokens')
  const dusd = readManifest()!.tokens['eip155:31337']!.find((t) => t.symbol === 'DUSD')!.address
  const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
  const balanceOf = async (address: string) =>
    BigInt(await rpc<Hex>(chains[0]!.rpcUrl, 'eth_call', [{ to: dusd, data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}` }, 'latest']))
  const [from, to] = [await balanceOf(walletAccount), await balanceOf(receiver)]
  await ready(page)
  await connectByQr(page)
  const frame = modalFrame(page)
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
  await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /Doorway USD\b/ }).click()
  await frame.getByLabel(/^Amount/).fill('2')
  await frame.getByRole('button', { name: 'Continue' }).click()
  await frame.getByLabel('Address or name').fill(receiver)
  await frame.getByRole('button', { name: 'Continue' }).click()
  // The fee estimate and the token simulation are reads over the session's RPC map (the dapp's anvil).
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByRole('status').filter({ hasText: 'Confirmed' })).toBeVisible()
  const hash = (await frame.getByLabel('Transaction hash', { exact: true }).getAttribute('title')) as Hex
  expect(await rpc<{ status: string }>(chains[0]!.rpcUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' })
  expect(await balanceOf(receiver)).toBe(to + 2_000_000n)
  expect(await balanceOf(walletAccount)).toBe(from - 2_000_000n)
  expect(wallet.requests().filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)
})
