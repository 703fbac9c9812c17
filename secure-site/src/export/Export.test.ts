// @vitest-environment jsdom
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { exportKeyText } from '@doorway/shared/texts/exportKey'
import { base58 } from '@scure/base'
import { Keypair } from '@solana/web3.js'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { Aborted } from '../approval/Approval.js'
import { holdMs, visibleMs } from '../approval/guard.js'
import { VisibilityObserver, withVisibilityObserver } from '../approval/testing.js'
import * as Export from './Export.js'

// BIP-39's "abandon … about" entropy: sixteen zero bytes.
const entropy = () => new Uint8Array(16)
const { mnemonic, privateKey } = Shares.exportable(entropy())
const email = 'person@example.com'
const host = 'https://dapp.example'
// jsdom cannot make trusted events: tests that play the person say every event is theirs.
const person = () => true

function setup(options: { wallet?: Partial<Export.show.Options['wallet']>; isTrusted?: (event: Event) => boolean } = {}) {
  const root = document.body.appendChild(document.createElement('div'))
  const controller = new AbortController()
  const calls = { codes: [] as string[], hosts: [] as string[], secrets: [] as Uint8Array[] }
  const wallet: Export.show.Options['wallet'] = {
    exportCode: async (host) => (calls.hosts.push(host), { email, sent: true }),
    exportSecret: async (_host, code) => {
      calls.codes.push(code ?? 'none')
      if (code !== '123456' && code !== undefined) throw new Errors.DoorwayError(format(emailText.wrong, { n: 4 }))
      const secret = entropy()
      calls.secrets.push(secret)
      return secret
    },
    ...options.wallet,
  }
  const outcome = { done: false, error: undefined as unknown }
  const promise = Export.show(root, { wallet, host, signal: controller.signal, isTrusted: options.isTrusted ?? person })
  promise.then(
    () => (outcome.done = true),
    (error: unknown) => (outcome.error = error),
  )
  const button = (name: string) => [...root.querySelectorAll('button')].find((b) => b.textContent === name && !b.closest('[hidden]'))
  const status = () => root.querySelector('.approval-status')!
  const input = () => root.querySelector('input')!
  const submit = async (code: string) => {
    input().value = code
    root.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }))
    await vi.advanceTimersByTimeAsync(0)
  }
  /** Seen for visibleMs, then held for holdMs. */
  const reveal = async () => {
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(visibleMs)
    button(exportKeyText.holdReveal)!.dispatchEvent(new MouseEvent('pointerdown', { button: 0 }))
    await vi.advanceTimersByTimeAsync(holdMs)
  }
  return { root, controller, calls, outcome, promise, button, status, input, submit, reveal }
}

beforeEach(() => {
  vi.useFakeTimers()
  withVisibilityObserver()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe('show', () => {
  test('behavior: a fresh code, then hold to reveal on a visible screen: the phrase and key show only here, and are gone when done', async () => {
    const { root, calls, outcome, button, status, input, submit, reveal } = setup()
    expect(root.querySelector('h1')?.textContent).toBe(exportKeyText.title)
    expect(root.textContent).toContain(exportKeyText.warning)
    expect(document.activeElement).toBe(button(exportKeyText.start))
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.hosts).toEqual([host])
    expect(root.textContent).toContain(format(exportKeyText.codeSent, { email }))
    expect(document.activeElement).toBe(input())
    expect(input().autocomplete).toBe('one-time-code')

    await submit('12 34')
    expect(status().textContent).toBe(emailText.codeInvalid)
    expect(status().getAttribute('role')).toBe('alert')
    await submit('000000')
    expect(status().textContent).toBe(format(emailText.wrong, { n: 4 }))
    expect(input().value).toBe('000000') // nothing lost: the person corrects it
    await submit('123456')
    expect(calls.codes).toEqual(['000000', '123456'])
    // The entropy is zeroed once the phrase is made; nothing is shown before the hold.
    expect(calls.secrets[0]).toEqual(new Uint8Array(16))
    expect(root.textContent).not.toContain(privateKey)
    expect(root.querySelector(`[aria-label="${exportKeyText.solanaKey}"]`)).toBeNull()

    await reveal()
    const words = [...root.querySelectorAll('ol li')].map((li) => li.textContent)
    expect(words).toEqual(mnemonic.split(' '))
    expect(root.querySelector(`[aria-label="${exportKeyText.privateKey}"]`)?.textContent).toBe(privateKey)
    // The Solana key as Phantom and Solflare import it: web3.js takes it as the wallet's keypair.
    const solanaKey = root.querySelector(`[aria-label="${exportKeyText.solanaKey}"]`)!.textContent!
    expect(Keypair.fromSecretKey(base58.decode(solanaKey)).publicKey.toBase58()).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')
    button(exportKeyText.done)!.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.done).toBe(true)
    expect(root.textContent).toBe('')
  })

  test('behavior: a sign-in of the last 5 minutes is fresh enough: no code, straight to hold to reveal', async () => {
    const { root, calls, button, reveal } = setup({ wallet: { exportCode: async () => ({ email, sent: false }) } })
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.codes).toEqual(['none'])
    expect(root.querySelector('form')?.hidden).toBe(true)
    await reveal()
    expect(root.textContent).toContain(privateKey)
  })

  test('behavior: each key has its own copy button, through this origin\'s clipboard', async () => {
    const copied: string[] = []
    vi.stubGlobal('navigator', { clipboard: { writeText: async (text: string) => void copied.push(text) } })
    const { root, button, reveal, status } = setup({ wallet: { exportCode: async () => ({ email, sent: false }) } })
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(0)
    await reveal()
    for (const name of [exportKeyText.copyPhrase, exportKeyText.copyKey, exportKeyText.copySolanaKey]) button(name)!.click()
    await vi.advanceTimersByTimeAsync(0)
    const solanaKey = root.querySelector(`[aria-label="${exportKeyText.solanaKey}"]`)!.textContent!
    expect(copied).toEqual([mnemonic, privateKey, solanaKey])
    expect(status().textContent).toBe(exportKeyText.copied)
  })

  test('error: nothing is revealed before the screen has been seen for 500 ms, and a covered screen takes the secret off the page', async () => {
    const { root, button, submit, reveal } = setup()
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(0)
    await submit('123456')
    const hold = button(exportKeyText.holdReveal)!
    expect(hold.getAttribute('aria-disabled')).toBe('true')
    hold.dispatchEvent(new MouseEvent('pointerdown', { button: 0 }))
    await vi.advanceTimersByTimeAsync(holdMs * 2)
    expect(root.querySelector('ol')).toBeNull()

    await reveal()
    expect(root.textContent).toContain(privateKey)
    VisibilityObserver.last!.report(false)
    expect(root.textContent).not.toContain(privateKey)
    expect(root.querySelector('ol')).toBeNull()
    expect(root.querySelector('[role="alert"]')?.textContent).toBe(exportKeyText.hidden)
    await reveal()
    expect(root.textContent).toContain(privateKey)
  })

  test('error: events the person did not make (a script\'s clicks) do nothing', async () => {
    const { calls, button } = setup({ isTrusted: () => false })
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.hosts).toEqual([])
  })

  test('error: a server that does not answer is a 30 s timeout with its message, and Send code works again', async () => {
    let calls = 0
    const { button, status } = setup({ wallet: { exportCode: (_host, signal) => (calls++, new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)))) } })
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(29_999)
    expect(status().textContent).toBe(exportKeyText.starting)
    await vi.advanceTimersByTimeAsync(1)
    expect(status().textContent).toBe(emailText.timedOut)
    button(exportKeyText.start)!.click()
    expect(calls).toBe(2)
  })

  test('behavior: the modal closing aborts the export: it rejects with 4001 and leaves nothing on the page', async () => {
    const { root, controller, outcome, button, submit, reveal } = setup()
    button(exportKeyText.start)!.click()
    await vi.advanceTimersByTimeAsync(0)
    await submit('123456')
    await reveal()
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.error).toBeInstanceOf(Aborted)
    expect(root.textContent).toBe('')
  })
})
