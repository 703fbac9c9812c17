/**
 * One WalletConnect session in four namespaces (issue 23): the frame's UniversalProvider and the devnet's
 * @reown/walletkit test wallet over the local relay, with the devnet's Solana chain, its Bitcoin
 * stand-in (Esplora over a regtest UTXO set that checks signatures) and Polkadot ids. The Networks view
 * moves between the session's accounts without a new pairing.
 */
import type { FrameLocator, Page } from '@playwright/test'
import * as BitcoinKeys from '@doorway/devnet/bitcoin/keys'
import { chains, polkadotChainId, urls } from '@doorway/devnet/stack'
import * as TestWallet from '@doorway/devnet/testWallet'
import { expect, expectAccessible, expectClosed, modalFrame, ready, test } from './fixtures.js'
import { pairByQr, scanQr } from './walletConnect.js'

/** The devnet Solana chain's CAIP-2 id: its genesis hash is the same on every start. */
const solanaChainId = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' as const
const bitcoinChainId = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' as const

let wallet: TestWallet.TestWallet
test.beforeEach(async ({}, info) => {
  wallet = await TestWallet.create({
    relayUrl: urls.relay,
    chains,
    accountIndex: 1,
    storagePrefix: `e2e-${info.testId}-${Date.now()}`,
    solana: { rpcUrl: urls.solana, chainId: solanaChainId },
    bitcoin: { esploraUrl: urls.esplora, chainId: bitcoinChainId },
    polkadot: { chainId: polkadotChainId },
  })
})
test.afterEach(() => wallet.stop())

const accountOf = (namespace: string) => wallet.otherAccounts().find((a) => a.namespace === namespace)!.address

async function switchTo(frame: FrameLocator, network: RegExp) {
  await frame.getByRole('button', { name: /^Network/ }).click()
  await frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: network }).click()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
}

/** Esplora's confirmed balance of an address, in sats. */
async function sats(address: string): Promise<bigint> {
  const response = await fetch(`${urls.esplora}/address/${address}`)
  const { chain_stats: c } = (await response.json()) as { chain_stats: { funded_txo_sum: number; spent_txo_sum: number } }
  return BigInt(c.funded_txo_sum - c.spent_txo_sum)
}

async function connect(page: Page) {
  await ready(page)
  await pairByQr(page, wallet)
  return modalFrame(page)
}

test('behavior: one pairing connects eip155, solana, bip122 and polkadot; the Networks view switches between their accounts', async ({ page }) => {
  const frame = await connect(page)
  await expect(frame.getByTitle('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeVisible()

  await switchTo(frame, /Solana Local/)
  await expect(frame.getByTitle(accountOf('solana'))).toBeVisible()
  await expect(frame.getByLabel('Balance')).toHaveText(/^[\d,]+\.\d{3} SOL$/)

  await switchTo(frame, /Bitcoin Regtest/)
  await expect(frame.getByTitle(accountOf('bip122'))).toBeVisible()
  await expect(frame.getByLabel('Balance')).toHaveText(/^[\d,]+\.\d{3} BTC$/)
  await expectAccessible(page)

  // No Polkadot chain runs locally: the account shows, and the balance says it is not read.
  await switchTo(frame, /Polkadot/)
  await expect(frame.getByTitle(accountOf('polkadot'))).toBeVisible()
  await expect(frame.getByLabel('Balance')).toHaveText('Balances are not shown for Polkadot yet.')
  await expect(frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' })).toHaveCount(0)

  await switchTo(frame, /Anvil 31337/)
  await expect(frame.getByTitle('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeVisible()
  const state = await page.evaluate(() => (window as unknown as { modal: { getState(): { chainId: string } } }).modal.getState().chainId)
  expect(state).toBe('eip155:31337')
})

test('behavior: a Bitcoin payment through the wallet (sendTransfer) is accepted by the Esplora server and the balances move', async ({ page }) => {
  const frame = await connect(page)
  await switchTo(frame, /Bitcoin Regtest/)
  const to = BitcoinKeys.payment(100 + Math.floor(Math.random() * 100_000)).address
  const from = accountOf('bip122')
  const before = await sats(from)

  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
  await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /^Bitcoin/ }).click()
  await frame.getByLabel(/^Amount/).fill('0.001')
  await frame.getByRole('button', { name: 'Continue' }).click()
  await frame.getByLabel('Address or name').fill(to)
  await frame.getByRole('button', { name: 'Continue' }).click()
  const review = frame.getByRole('dialog', { name: 'Review Send' })
  await expect(review).toContainText('Bitcoin Regtest')
  await expect(review).toContainText(/Network fee.*BTC/)
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByRole('dialog', { name: 'Transaction' })).toContainText('Confirmed')

  expect(await sats(to)).toBe(100_000n)
  const spent = before - (await sats(from))
  expect(spent > 100_000n && spent < 110_000n).toBe(true)
  expect(wallet.requests().some((r) => r.method === 'sendTransfer' && r.chainId === bitcoinChainId && !r.error)).toBe(true)
})

test('error: a Solana address is refused for a Bitcoin payment', async ({ page }) => {
  const frame = await connect(page)
  await switchTo(frame, /Bitcoin Regtest/)
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
  await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /^Bitcoin/ }).click()
  await frame.getByLabel(/^Amount/).fill('0.001')
  await frame.getByRole('button', { name: 'Continue' }).click()
  await frame.getByLabel('Address or name').fill(accountOf('solana'))
  await frame.getByRole('button', { name: 'Continue' }).click()
  await expect(frame.getByText('Enter a valid Bitcoin address.')).toBeVisible()
})

test('behavior: a Polkadot account signs in over WalletConnect (polkadot_signMessage) and the example server verifies the sr25519 signature', async ({ page }) => {
  await page.goto('/wagmi/?network=polkadot')
  const app = page.getByRole('main')
  await expect(app.getByLabel('sign-in status')).toHaveText('Not signed in')
  await app.getByRole('button', { name: 'Open the modal' }).click()
  const frame = modalFrame(page)
  // Only WalletConnect holds Polkadot accounts here: the dev wallet and the email wallet are not offered.
  await expect(frame.getByRole('button', { name: /Doorway Dev Wallet/ })).toHaveCount(0)
  await expect(frame.getByRole('button', { name: 'Continue with email' })).toHaveCount(0)
  await frame.getByRole('button', { name: /^WalletConnect/ }).click()
  expect(await wallet.pair(await scanQr(frame))).toBeDefined()
  const signView = frame.getByRole('dialog', { name: 'Sign In' })
  await expect(signView).toContainText(`Signing in as ${accountOf('polkadot').slice(0, 4)}`)
  await signView.getByRole('button', { name: 'Sign in' }).click()
  await expectClosed(page)
  await expect(app.getByLabel('sign-in status')).toHaveText(`Signed in as ${accountOf('polkadot')} on ${polkadotChainId} (verified by the server)`)
  expect(wallet.requests().filter((r) => r.method === 'polkadot_signMessage').map((r) => [r.chainId, r.error])).toEqual([[polkadotChainId, undefined]])
})
