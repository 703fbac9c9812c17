/**
 * Solana through the modal (issue 23): the dev wallet's Wallet Standard face on the demo page, the
 * devnet's Solana chain (JSON-RPC over litesvm) and its DUSD mint. Balances are read straight from the
 * chain, as a block explorer would; the receivers are fresh addresses of the test mnemonic.
 */
import type { FrameLocator, Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import * as SolanaKeys from '@doorway/devnet/solana/keys'
import * as SolanaTokens from '@doorway/devnet/solana/tokens'
import { urls } from '@doorway/devnet/stack'
import { approve as approveInSecureSite, loginByEmail, newEmail, secureFrame } from './embedded.js'
import { connectDevWallet, dapp, expect, expectAccessible, expectClosed, modalFrame, openView, ready, rpc, test, walletPrompt } from './fixtures.js'

const devSolana = SolanaKeys.address(0)
/** A receiver no test used before: an account of the test mnemonic far from the funded ones. */
const freshAddress = () => SolanaKeys.address(1_000 + Math.floor(Math.random() * 1_000_000))

/** Base58, as Solana writes signatures. */
function base58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let text = ''
  for (; n > 0n; n /= 58n) text = alphabet[Number(n % 58n)] + text
  return '1'.repeat(bytes.findIndex((b) => b !== 0)) + text
}
const lamports = async (address: string) => BigInt((await rpc<{ value: number }>(urls.solana, 'getBalance', [address])).value)
/** The receiver's DUSD in base units, from its token accounts for the mint. */
async function dusdUnits(owner: string): Promise<bigint> {
  const mint = SolanaTokens.mintAddress()
  const { value } = await rpc<{ value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[] }>(
    urls.solana,
    'getTokenAccountsByOwner',
    [owner, { mint }, { encoding: 'jsonParsed' }],
  )
  return value.reduce((sum, a) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n)
}

/** Connected with the dev wallet on EVM, the person picks Solana Local: the modal asks for a Solana wallet. */
async function connectSolana(page: Page): Promise<FrameLocator> {
  await ready(page)
  await connectDevWallet(page)
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /^Network/ }).click()
  await frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Solana Local/ }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await frame.getByRole('button', { name: /Doorway Dev Wallet/ }).click()
  await expect(walletPrompt(page)).toContainText('solana')
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByText(`${devSolana.slice(0, 4)}…${devSolana.slice(-4)}`)).toBeVisible()
  return frame
}

async function send(page: Page, frame: FrameLocator, options: { token: RegExp; amount: string; to: string }) {
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
  await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: options.token }).click()
  await frame.getByLabel(/^Amount/).fill(options.amount)
  await frame.getByRole('button', { name: 'Continue' }).click()
  await frame.getByLabel('Address or name').fill(options.to)
  await frame.getByRole('button', { name: 'Continue' }).click()
  const review = frame.getByRole('dialog', { name: 'Review Send' })
  await expect(review).toContainText('Solana Local')
  await expect(review).toContainText(/Network fee.*SOL/)
  return review
}

async function approve(page: Page, frame: FrameLocator) {
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByRole('dialog', { name: 'Confirm Send' })).toContainText('Confirm in Doorway Dev Wallet')
  await expect(walletPrompt(page)).toContainText('Sign a transaction on solana:localnet')
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(frame.getByRole('dialog', { name: 'Transaction' })).toBeVisible()
  await expect(frame.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(frame.getByRole('dialog', { name: 'Transaction' })).toContainText('Confirmed')
}

test.describe('a Wallet Standard wallet', () => {
  test('behavior: from the Networks view, Solana connects a Solana wallet; its SOL and DUSD show; the state and events carry the Solana CAIP ids', async ({ page }) => {
    const frame = await connectSolana(page)
    await expect(frame.getByLabel('Balance')).toHaveText(/^[\d,]+\.\d{3} SOL$/)
    const tokens = frame.getByRole('tabpanel')
    await expect(tokens).toContainText('SOL')
    await expect(tokens).toContainText('DUSD')
    // Swaps, buying and names are EVM's: a Solana account has Receive and Send.
    await expect(frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button')).toHaveText(['Receive', 'Send'])
    await expect(frame.getByRole('button', { name: 'Choose a name' })).toHaveCount(0)
    await expectAccessible(page)
    const state = await dapp(page, (modal) => modal.getState() as unknown as { chainId: string; caipAddress: string })
    expect(state.chainId).toMatch(/^solana:/)
    expect(state.caipAddress).toBe(`${state.chainId}:${devSolana}`)
    // The EIP-1193 provider stays EVM: it still names the EVM account.
    expect(await page.evaluate(() => (window as unknown as { modal: { getProvider(): { request(a: { method: string }): Promise<string[]> } } }).modal.getProvider().request({ method: 'eth_accounts' }))).toEqual([
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    ])
  })

  test('behavior: a SOL send to a fresh address lands with exactly that amount and shows in Activity', async ({ page }) => {
    const frame = await connectSolana(page)
    const to = freshAddress()
    await send(page, frame, { token: /^Solana/, amount: '0.25', to })
    await approve(page, frame)
    await expect.poll(() => lamports(to)).toBe(250_000_000n)
    // The api indexes the local Solana chain as it does anvil: the send is in the account's Activity.
    await openView(page, 'Account')
    await frame.getByRole('tablist', { name: 'Account sections' }).getByRole('tab', { name: 'Activity' }).click()
    // The local Solana network names no explorer, so its entries are list items rather than links.
    const sent = frame.getByRole('listitem').filter({ hasText: `To ${to.slice(0, 4)}…${to.slice(-4)}` })
    await expect(sent).toContainText('Sent')
    await expect(sent).toContainText('-0.250 SOL')
  })

  test('behavior: Receive shows the Solana address as a QR that decodes to it, on the Solana networks only', async ({ page }) => {
    const frame = await connectSolana(page)
    await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Receive' }).click()
    const qr = frame.getByRole('img', { name: 'QR code of your address' })
    await expect(qr).toBeVisible()
    const image = PNG.sync.read(await qr.screenshot())
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(devSolana)
    await expect(frame.getByLabel('Your address', { exact: true })).toHaveText(devSolana)
    const networks = frame.getByRole('region', { name: 'Networks this address receives on' })
    await expect(networks).toContainText('Solana Local')
    await expect(networks).not.toContainText('Anvil')
    await expectAccessible(page)
  })

  test('behavior: a DUSD send to a fresh address opens its token account, says so in the preview, and lands', async ({ page }) => {
    const frame = await connectSolana(page)
    const to = freshAddress()
    const review = await send(page, frame, { token: /^Doorway USD/, amount: '12.5', to })
    await expect(review.getByRole('note').filter({ hasText: /rent to open the receiver's token account/ })).toBeVisible()
    await approve(page, frame)
    await expect.poll(() => dusdUnits(to)).toBe(12_500_000n)
  })

  test('error: an EVM address is refused for Solana with the Solana address rule', async ({ page }) => {
    const frame = await connectSolana(page)
    await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
    await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /^Solana/ }).click()
    await frame.getByLabel(/^Amount/).fill('0.1')
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByLabel('Address or name').fill('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    await frame.getByRole('button', { name: 'Continue' }).click()
    await expect(frame.getByText('Enter a valid Solana address (32 to 44 base58 characters).')).toBeVisible()
    await expect(frame.getByRole('dialog', { name: 'Review Send' })).toHaveCount(0)
  })

  test('error: with the Solana RPC unreachable the send fails with the spec §8 message and keeps the form; once it is back, Send again lands', async ({ page }) => {
    const frame = await connectSolana(page)
    const to = freshAddress()
    const review = await send(page, frame, { token: /^Solana/, amount: '0.05', to })
    // The node goes away after the preview was made: every call to it fails at the network level.
    const down = /^http:\/\/127\.0\.0\.1:8899\/?/
    await page.context().route(down, (route) => route.abort('connectionrefused'))
    await review.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(frame.getByText('Failed to send transaction. Please try again.').first()).toBeVisible()
    // Nothing is lost: the same review, its amount and receiver, and its Send.
    await expect(review).toContainText('0.05')
    await expect(review).toContainText(to.slice(0, 4))
    expect(await lamports(to)).toBe(0n)
    await page.context().unroute(down)
    await approve(page, frame)
    await expect.poll(() => lamports(to)).toBe(50_000_000n)
  })

  test('error: a transfer the node dropped until its blockhash expired says so, and Try again sends it anew to the same receiver', async ({ page }) => {
    const frame = await connectSolana(page)
    const to = freshAddress()
    await send(page, frame, { token: /^Solana/, amount: '0.07', to })
    // The node takes the transaction but drops it, and the chain moves past its blockhash's last valid height.
    let dropped = false
    const node = /^http:\/\/127\.0\.0\.1:8899\/?$/
    await page.context().route(node, async (route) => {
      const body = route.request().postDataJSON() as { id: number; method: string; params: unknown[] } | null
      if (body?.method === 'sendTransaction') {
        dropped = true
        const wire = Buffer.from(body.params[0] as string, 'base64')
        return route.fulfill({ json: { jsonrpc: '2.0', id: body.id, result: base58(wire.subarray(1, 65)) } })
      }
      if (dropped && body?.method === 'getBlockHeight') return route.fulfill({ json: { jsonrpc: '2.0', id: body.id, result: 1_000_000_000 } })
      return route.fallback()
    })
    await frame.getByRole('button', { name: 'Send', exact: true }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    const result = frame.getByRole('dialog', { name: 'Transaction' })
    const outcome = result.getByRole('status').filter({ hasText: 'Expired' })
    await expect(outcome).toContainText('nothing was sent')
    expect(await lamports(to)).toBe(0n)
    await page.context().unroute(node)
    await result.getByRole('button', { name: 'Try again' }).click()
    const review = frame.getByRole('dialog', { name: 'Review Send' })
    await expect(review).toContainText('0.07')
    await expect(review).toContainText(to.slice(0, 4))
    await approve(page, frame)
    await expect.poll(() => lamports(to)).toBe(70_000_000n)
  })

  test('error: a new account sent less than the rent-exempt minimum is explained before the wallet asks', async ({ page }) => {
    const frame = await connectSolana(page)
    await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
    await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /^Solana/ }).click()
    await frame.getByLabel(/^Amount/).fill('0.0001')
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByLabel('Address or name').fill(freshAddress())
    await frame.getByRole('button', { name: 'Continue' }).click()
    const review = frame.getByRole('dialog', { name: 'Review Send' })
    await expect(review.getByRole('alert')).toContainText('rent-exempt minimum')
    await expect(review.getByRole('button', { name: 'Send', exact: true })).toBeDisabled()
  })
})

test.describe('the email wallet', () => {
  test('behavior: its seed holds a Solana account; a SOL send is approved in the secure-site, described in words, and lands', async ({ page }) => {
    await ready(page)
    // The person picks Solana first; then the email wallet connects there.
    await openView(page, 'Networks')
    await modalFrame(page).getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Solana Local/ }).click()
    await expectClosed(page)
    await loginByEmail(page, newEmail())
    const frame = modalFrame(page)
    const address = await dapp(page, (modal) => (modal.getState() as unknown as { address: string }).address)
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    await expect(frame.getByText(`${address.slice(0, 4)}…${address.slice(-4)}`)).toBeVisible()
    // A faucet gives the new account 2 SOL (the send view reads balances fresh).
    await rpc(urls.solana, 'requestAirdrop', [address, 2_000_000_000])
    await expect.poll(() => lamports(address)).toBe(2_000_000_000n)

    const to = freshAddress()
    await send(page, frame, { token: /^Solana/, amount: '0.5', to })
    await frame.getByRole('button', { name: 'Send', exact: true }).click()
    // The secure-site says what is signed, in words, and decides it on its own origin.
    const approval = secureFrame(page).getByRole('region').or(secureFrame(page).locator('body'))
    await expect(approval.first()).toContainText('0.5 SOL')
    await expect(approval.first()).toContainText(to.slice(0, 4))
    await approveInSecureSite(page)
    await expect(frame.getByRole('dialog', { name: 'Transaction' })).toContainText('Confirmed')
    await expect.poll(() => lamports(to)).toBe(500_000_000n)
  })
})

test.describe('sign-in', () => {
  test('behavior: a Solana wallet signs in with Sign In With Solana and the example server verifies it', async ({ page }) => {
    await page.goto('/wagmi/?network=solana')
    const app = page.getByRole('main')
    await expect(app.getByLabel('sign-in status')).toHaveText('Not signed in')
    await app.getByRole('button', { name: 'Open the modal' }).click()
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /Doorway Dev Wallet/ }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    const signView = frame.getByRole('dialog', { name: 'Sign In' })
    await expect(signView).toBeVisible()
    await signView.getByRole('button', { name: 'Sign in' }).click()
    await expect(walletPrompt(page)).toContainText('localhost:5173 wants you to sign in with your Solana account')
    await expect(walletPrompt(page)).toContainText(devSolana)
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expectClosed(page)
    await expect(app.getByLabel('sign-in status')).toHaveText(`Signed in as ${devSolana} on solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3 (verified by the server)`)
  })
})

test.describe('networks at runtime', () => {
  test('behavior: addNetwork and removeNetwork change the open Networks view; the last network of a namespace cannot go', async ({ page }) => {
    await ready(page, '?chains=31337')
    await page.evaluate(() => void (window as unknown as { modal: { open(o: object): unknown } }).modal.open({ view: 'Networks' }))
    const networks = modalFrame(page).getByRole('list', { name: 'Networks' })
    await expect(networks.getByRole('button', { name: /Anvil 31337/ })).toBeVisible()
    await expect(networks.getByRole('button', { name: /Anvil 31338/ })).toHaveCount(0)

    type Modal = { addNetwork(ns: string, n: object): Promise<void>; removeNetwork(ns: string, id: string | number): Promise<void> }
    await page.evaluate(() =>
      (window as unknown as { modal: Modal }).modal.addNetwork('eip155', {
        id: 31338,
        name: 'Anvil 31338',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: ['http://127.0.0.1:8546'] } },
      }),
    )
    await expect(networks.getByRole('button', { name: /Anvil 31338/ })).toBeVisible()

    await page.evaluate(() => (window as unknown as { modal: Modal }).modal.removeNetwork('eip155', 31338))
    await expect(networks.getByRole('button', { name: /Anvil 31338/ })).toHaveCount(0)

    const refused = await page.evaluate(() =>
      (window as unknown as { modal: Modal }).modal.removeNetwork('eip155', 31337).then(
        () => 'removed',
        (error: Error) => error.message,
      ),
    )
    expect(refused).toBe('Cannot remove last network for a namespace')
    const missing = await page.evaluate(() =>
      (window as unknown as { modal: Modal }).modal.removeNetwork('eip155', 1).then(
        () => 'removed',
        (error: Error) => error.message,
      ),
    )
    expect(missing).toBe('Network with ID 1 not found')
    await expect(networks.getByRole('button', { name: /Anvil 31337/ })).toBeVisible()
  })
})
