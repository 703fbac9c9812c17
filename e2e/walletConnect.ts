/** WalletConnect steps shared by the e2e specs: the QR read as a phone camera would, and pairing the test wallet. */
import type { FrameLocator, Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import type * as TestWallet from '@doorway/devnet/testWallet'
import { expect, modalFrame } from './fixtures.js'

/**
 * What the QR code encodes, read from its pixels as a phone camera would: a camera keeps looking until
 * it can read it (a view still moving in, on a loaded machine, is not readable yet).
 */
export async function scanQr(frame: FrameLocator, name: string | RegExp = /^QR code to connect/): Promise<string> {
  const qr = frame.getByRole('img', { name })
  await expect(qr).toBeVisible()
  let data: string | undefined
  await expect
    .poll(
      async () => {
        const image = PNG.sync.read(await qr.screenshot())
        data = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
        return data
      },
      { message: 'a readable QR code' },
    )
    .toBeTruthy()
  return data!
}

/** Connect Wallet → WalletConnect → the test wallet scans and approves; resolves on the Account view. */
export async function pairByQr(page: Page, wallet: TestWallet.TestWallet) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: /^WalletConnect/ }).click()
  const uri = await scanQr(frame)
  expect(await wallet.pair(uri)).toBeDefined()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  return uri
}
