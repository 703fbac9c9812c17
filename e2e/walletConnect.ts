/** WalletConnect steps shared by the e2e specs: the QR read as a phone camera would, and pairing the test wallet. */
import type { FrameLocator, Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import type * as TestWallet from '../devnet/src/testWallet.js'
import { expect, modalFrame } from './fixtures.js'

/** What the QR code encodes, read from its pixels as a phone camera would. */
export async function scanQr(frame: FrameLocator): Promise<string> {
  const qr = frame.getByRole('img', { name: /^QR code to connect/ })
  await expect(qr).toBeVisible()
  const image = PNG.sync.read(await qr.screenshot())
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)
  if (!code) throw new Error('The QR code could not be decoded')
  return code.data
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
