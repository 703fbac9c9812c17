/**
 * Extension wallets through the host page (issue 3), against real anvil chains and the dev wallet,
 * which announces itself by EIP-6963 and asks in its own prompt, as an extension does.
 */
import * as Anvil from '@doorway/devnet/anvil'
import * as Format from '@doorway/shared/Format'
import {
  connectDevWallet,
  dapp,
  devAccount,
  eventLog,
  expect,
  expectClosed,
  modalFrame,
  ready,
  rpc,
  rpcUrl,
  test,
  walletPrompt,
} from './fixtures.js'

const demoValue = (page: import('@playwright/test').Page, term: string) =>
  page.locator('dl dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')

test('behavior: connect with the dev wallet; the modal and the dapp show the account and balance', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /Doorway Dev Wallet.*Installed/ }).click()
  await expect(frame.getByRole('dialog', { name: 'Connecting' })).toContainText('Continue in Doorway Dev Wallet')
  // The wallet's own prompt names the dapp's origin, not a claimed name.
  await expect(walletPrompt(page)).toContainText('Connect to http://localhost:5173')
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()

  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByText('0xf39F…2266')).toBeVisible()
  const balance = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [devAccount, 'latest']))
  // spec §9: 3 decimals, rounded (a spent 10,000 ETH shows as 10,000.000 ETH).
  await expect(frame.getByLabel('Balance')).toHaveText(`${Format.formatQuantity(Format.formatUnits(balance, 18))} ETH`)

  await expect(demoValue(page, 'Status')).toHaveText('connected')
  await expect(demoValue(page, 'Address')).toHaveText(devAccount)
  await expect(demoValue(page, 'Chain')).toHaveText('eip155:31337')
  await expect(demoValue(page, 'Balance')).toContainText(`${balance / 10n ** 18n}.`)

  const log = await eventLog(page).getByRole('listitem').allTextContents()
  const caip = `eip155:31337:${devAccount}`
  expect(log.slice(0, 3)).toEqual([
    'open {"view":"Connect"}',
    `connect {"address":"${devAccount}","caipAddress":"${caip}","chainId":"eip155:31337"}`,
    `open() resolved {"status":"connected","address":"${devAccount}","caipAddress":"${caip}","chainId":"eip155:31337"}`,
  ])
  expect(await dapp(page, (modal) => modal.getState())).toMatchObject({ status: 'connected', address: devAccount })
})

test('behavior: rejecting in the wallet shows the declined state; retry connects', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /Doorway Dev Wallet/ }).click()
  await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
  await expect(frame.getByRole('alert')).toContainText('Connection declined')
  await frame.getByRole('button', { name: 'Try again' }).click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
})

test('behavior: a transaction sent through getProvider() is mined and the balance drops', async ({ page }) => {
  await ready(page)
  await connectDevWallet(page)
  await page.keyboard.press('Escape')
  await expectClosed(page)
  const before = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [devAccount, 'latest']))

  await page.getByRole('button', { name: 'Send 0.001 ETH to yourself' }).click()
  await expect(walletPrompt(page)).toContainText('Send 0.001 ETH')
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Sent:' })).toBeVisible()
  const hash = (await page.getByRole('status').filter({ hasText: 'Sent:' }).textContent())!.replace('Sent: ', '')

  const receipt = () => rpc<{ status: string; from: string } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash])
  await expect.poll(receipt).toMatchObject({ status: '0x1', from: devAccount.toLowerCase() })
  const after = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [devAccount, 'latest']))
  expect(after).toBeLessThan(before)
})

test.describe('chains', () => {
  let extra: Awaited<ReturnType<typeof Anvil.start>> | undefined
  test.beforeAll(async () => {
    // A third chain the dev wallet does not know: switching to it goes through add-chain.
    extra = await Anvil.start({ chains: [{ id: 31339, port: 8547, rpcUrl: 'http://127.0.0.1:8547' }] })
  })
  test.afterAll(async () => extra?.stop())

  test('behavior: switching from the Networks view; the dapp hears chainChanged', async ({ page }) => {
    await ready(page)
    await connectDevWallet(page)
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /Network.*Anvil 31337/ }).click()
    await frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Anvil 31338/ }).click()
    await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
    await expect(frame.getByRole('button', { name: /Network.*Anvil 31338/ })).toBeVisible()
    await expect(eventLog(page)).toContainText('chainChanged {"chainId":"eip155:31338"}')
    await expect(demoValue(page, 'Chain')).toHaveText('eip155:31338')
  })

  test('behavior: a chain the wallet does not know is added, then switched to', async ({ page }) => {
    await ready(page, '?chains=31337,31339')
    await connectDevWallet(page)
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /Network/ }).click()
    await frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Anvil 31339/ }).click()
    await expect(walletPrompt(page)).toContainText('31339')
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect(eventLog(page)).toContainText('chainChanged {"chainId":"eip155:31339"}')
    await expect(frame.getByRole('button', { name: /Network.*Anvil 31339/ })).toBeVisible()
  })

  test("error: when adding fails, the Networks view says 'Chain is not supported'", async ({ page }) => {
    await ready(page, '?chains=31337,31339')
    await connectDevWallet(page)
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /Network/ }).click()
    await frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Anvil 31339/ }).click()
    await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
    await expect(frame.getByRole('alert').filter({ hasText: 'Chain is not supported' })).toBeVisible()
    await expect(frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Anvil 31337.*Active/ })).toBeVisible()
  })

  test('behavior: the wallet moving to an unconfigured chain shows UnsupportedChain; back closes', async ({ page }) => {
    await ready(page, '?chains=31337')
    await connectDevWallet(page)
    const frame = modalFrame(page)
    // The person moves the wallet's own network menu while the modal is open.
    await page.evaluate(() => (window as unknown as { doorwayDevWallet: { setChain(id: number): void } }).doorwayDevWallet.setChain(31338))
    await expect(frame.getByRole('dialog', { name: 'Switch Network' })).toBeVisible()
    await frame.getByRole('button', { name: 'Back' }).click()
    await expectClosed(page)
  })

  test('behavior: with the modal closed, an unsupported chain opens UnsupportedChain; switching back closes it', async ({ page }) => {
    await ready(page, '?chains=31337')
    await connectDevWallet(page)
    await page.keyboard.press('Escape')
    await expectClosed(page)
    await page.getByRole('combobox', { name: 'Wallet network' }).selectOption('31338')
    const frame = modalFrame(page)
    await expect(frame.getByRole('dialog', { name: 'Switch Network' })).toBeVisible()
    await frame.getByRole('list', { name: 'Networks' }).getByRole('button', { name: /Anvil 31337/ }).click()
    await expectClosed(page)
    await expect(demoValue(page, 'Chain')).toHaveText('eip155:31337')
  })
})

test('behavior: a reload restores the connection without a prompt; disconnect clears both sides', async ({ page }) => {
  await ready(page)
  await connectDevWallet(page)
  await page.reload()
  await expect(demoValue(page, 'Status')).toHaveText('connected')
  await expect(demoValue(page, 'Address')).toHaveText(devAccount)
  await expect(walletPrompt(page)).toBeHidden()

  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await frame.getByRole('button', { name: 'Disconnect' }).click()
  await expectClosed(page)
  await expect(demoValue(page, 'Status')).toHaveText('disconnected')
  await expect(eventLog(page)).toContainText('disconnect {}')

  await page.reload()
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(demoValue(page, 'Status')).toHaveText('disconnected')
})

test.describe("the dapp's provider while disconnected", () => {
  test('error: account methods fail with 4100, others with 4900; eth_accounts is empty', async ({ page }) => {
    await ready(page)
    const results = await page.evaluate(async () => {
      const provider = (window as unknown as { modal: { getProvider(): { request(a: object): Promise<unknown> } } }).modal.getProvider()
      const attempt = (method: string, params: unknown[] = []) =>
        provider.request({ method, params }).then(
          (value) => ({ value }),
          (error: { code: number }) => ({ code: error.code }),
        )
      return {
        accounts: await attempt('eth_accounts'),
        chainId: await attempt('eth_chainId'),
        sign: await attempt('personal_sign', ['0x68656c6c6f', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266']),
        send: await attempt('eth_sendTransaction', [{}]),
        blockNumber: await attempt('eth_blockNumber'),
      }
    })
    expect(results).toEqual({
      accounts: { value: [] },
      chainId: { value: '0x7a69' },
      sign: { code: 4100 },
      send: { code: 4100 },
      blockNumber: { code: 4900 },
    })
  })

  test('behavior: eth_requestAccounts opens the modal; closing it rejects with 4001, connecting resolves', async ({ page }) => {
    await ready(page)
    const request = () =>
      page.evaluate(() =>
        (window as unknown as { modal: { getProvider(): { request(a: object): Promise<unknown> } } }).modal
          .getProvider()
          .request({ method: 'eth_requestAccounts' })
          .then((accounts) => ({ accounts }), (error: { code: number }) => ({ code: error.code })),
      )
    const frame = modalFrame(page)
    const rejected = request()
    await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await page.keyboard.press('Escape')
    expect(await rejected).toEqual({ code: 4001 })

    const connected = request()
    await frame.getByRole('button', { name: /Doorway Dev Wallet/ }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    expect(await connected).toEqual({ accounts: [devAccount] })
  })
})

test('behavior: a wallet announced late reaches the open modal', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await expect(frame.getByRole('button', { name: /Doorway Dev Wallet/ })).toBeVisible()
  await page.evaluate(() => {
    const info = { uuid: crypto.randomUUID(), name: 'Late Wallet', icon: 'data:image/svg+xml,', rdns: 'example.late' }
    const provider = { request: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })) }
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
  })
  await expect(frame.getByRole('button', { name: /Late Wallet/ })).toBeVisible()
  await expect(frame.getByRole('list', { name: 'Installed' }).getByRole('button')).toHaveCount(2)
})


test.describe('network options', () => {
  test('behavior: enableNetworkSwitch false hides switching', async ({ page }) => {
    await ready(page, '?options={"enableNetworkSwitch":false}')
    await connectDevWallet(page)
    const frame = modalFrame(page)
    await expect(frame.getByText('0xf39F…2266')).toBeVisible()
    await expect(frame.getByRole('button', { name: /Network/ })).toHaveCount(0)
  })

  test('behavior: allowUnsupportedChain keeps the account view when the wallet moves off the networks', async ({ page }) => {
    await ready(page, '?chains=31337&options={"allowUnsupportedChain":true}')
    await connectDevWallet(page)
    await page.evaluate(() => (window as unknown as { doorwayDevWallet: { setChain(id: number): void } }).doorwayDevWallet.setChain(31338))
    await expect(eventLog(page)).toContainText('chainChanged {"chainId":"eip155:31338"}')
    const frame = modalFrame(page)
    await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
    await expect(frame.getByRole('button', { name: /Network.*Unsupported network/ })).toBeVisible()
  })
})
