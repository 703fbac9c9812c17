import '../approval/approval.css'
import './export.css'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { exportKeyText } from '@doorway/shared/texts/exportKey'
import { emailText } from '@doorway/shared/texts/email'
import { Aborted } from '../approval/Approval.js'
import { element, holdToConfirm, type Listen, observesVisibility, type Visibility, watchIntersection, watchPage } from '../approval/guard.js'
import * as Shares from '../custody/Shares.js'
import type { Wallet } from '../wallet/Wallet.js'

// Key export (notes/embedded-wallet.md §4.8), rendered by the secure-site in its own frame: a fresh
// code to the wallet's email, then a hold-to-reveal on a screen that has stayed visible (guard.ts),
// then the recovery phrase and the private key, in this DOM only, copied through this origin's own
// clipboard. The frame learns only that the person is done. A screen that gets covered or hidden
// takes the secret off the page again.

export declare namespace show {
  type Options = {
    wallet: Pick<Wallet, 'exportCode' | 'exportSecret'>
    /** The dapp's origin, named in the code mail and the audit log. */
    host: string
    /** Aborts when the modal closes or the view goes away. */
    signal: AbortSignal
    window?: Window
    /** Which events the person made. Tests replace it, as jsdom cannot make trusted events. */
    isTrusted?: (event: Event) => boolean
  }
}

type Step = 'confirm' | 'code' | 'reveal' | 'shown'

/** Shows the export in `root` until the person is done or cancels; rejects with Aborted on `signal`. */
export function show(root: HTMLElement, options: show.Options): Promise<void> {
  const { wallet, host, signal, isTrusted = (event: Event) => event.isTrusted } = options
  const doc = root.ownerDocument
  const win = options.window ?? doc.defaultView ?? window
  if (signal.aborted) return Promise.reject(new Aborted())
  return new Promise((resolve, reject) => {
    const listeners = new AbortController()
    const listen: Listen = (target, type, handler) =>
      target.addEventListener(type, (event) => isTrusted(event) && handler(event as never), { signal: listeners.signal })
    const screen = render(doc)
    let step: Step = 'confirm'
    let busy = false
    let visibility: Visibility = 'waiting'
    let secret: { mnemonic: string; privateKey: string } | undefined
    let request: AbortController | undefined

    const say = (text: string, alert = false) => {
      screen.status.setAttribute('role', alert ? 'alert' : 'status')
      screen.status.textContent = text
    }
    const go = (next: Step) => {
      step = next
      screen.section.dataset.step = next
      screen.confirm.hidden = next !== 'confirm'
      screen.code.hidden = next !== 'code'
      screen.reveal.hidden = next !== 'reveal'
      screen.secret.hidden = next !== 'shown'
      screen.cancel.textContent = next === 'shown' ? exportKeyText.done : exportKeyText.cancel
      if (next !== 'shown') screen.secret.replaceChildren()
    }
    const settle = (outcome: 'done' | 'aborted') => {
      listeners.abort()
      request?.abort()
      stopWatching()
      cancelHold()
      secret = undefined
      screen.section.remove()
      if (outcome === 'aborted') reject(new Aborted())
      else resolve()
    }
    /** One server step under a 30 s bound (spec §7); its refusal is said on the screen, nothing is lost. */
    const run = async (working: string, work: (signal: AbortSignal) => Promise<void>) => {
      if (busy) return
      busy = true
      say(working)
      const current = (request = new AbortController())
      let timedOut = false
      const timer = win.setTimeout(() => ((timedOut = true), current.abort()), Constants.embeddedRequestTimeoutMs)
      try {
        await work(current.signal)
        say('')
      } catch (error) {
        if (signal.aborted) return
        say(timedOut ? emailText.timedOut : error instanceof Errors.DoorwayError ? error.message : emailText.unavailable, true)
      } finally {
        win.clearTimeout(timer)
        busy = false
      }
    }

    const stopWatching = (observesVisibility(win) ? watchIntersection : watchPage)(win, screen.section, (next) => {
      visibility = next
      screen.section.dataset.visibility = next
      screen.hold.setAttribute('aria-disabled', String(next !== 'ready'))
      if (next !== 'hidden') {
        if (screen.status.textContent === exportKeyText.hidden) say('')
        return
      }
      cancelHold()
      // Covered or hidden: the secret leaves the page until the person holds to reveal it again.
      if (step === 'shown') go('reveal')
      if (step === 'reveal') say(exportKeyText.hidden, true)
    })
    const cancelHold = holdToConfirm(win, screen.hold, {
      listen,
      signal: listeners.signal,
      ready: () => visibility === 'ready' && step === 'reveal',
      done: () => {
        if (!secret) return
        screen.secret.replaceChildren(...secretView(doc, secret, listen, say))
        go('shown')
        say('')
      },
    })

    signal.addEventListener('abort', () => settle('aborted'), { signal: listeners.signal })
    listen(screen.cancel, 'click', () => settle('done'))
    listen(doc, 'keydown', (event) => event.key === 'Escape' && settle('done'))
    /** The entropy released for this export, as the phrase and key; the bytes are zeroed at once. */
    const unlock = async (code: string | undefined, signal: AbortSignal) => {
      const entropy = await wallet.exportSecret(host, code, signal)
      try {
        secret = Shares.exportable(entropy)
      } finally {
        entropy.fill(0)
      }
      screen.input.value = ''
      go('reveal')
      screen.hold.focus()
    }
    // A sign-in of the last 5 minutes is fresh enough (notes §4.3); otherwise a code is mailed first.
    listen(screen.start, 'click', () =>
      run(exportKeyText.starting, async (signal) => {
        const { email, sent } = await wallet.exportCode(host, signal)
        if (!sent) return unlock(undefined, signal)
        screen.sent.textContent = format(exportKeyText.codeSent, { email })
        go('code')
        screen.input.focus()
      }),
    )
    listen(screen.code, 'submit', (event) => {
      event.preventDefault()
      const code = screen.input.value.replace(/\s/g, '')
      if (!/^\d{6}$/.test(code)) return say(emailText.codeInvalid, true)
      void run(exportKeyText.verifying, (signal) => unlock(code, signal))
    })

    go('confirm')
    root.append(screen.section)
    screen.start.focus({ preventScroll: true })
  })
}

type Screen = {
  section: HTMLElement
  status: HTMLElement
  confirm: HTMLElement
  start: HTMLButtonElement
  code: HTMLFormElement
  sent: HTMLElement
  input: HTMLInputElement
  reveal: HTMLElement
  hold: HTMLButtonElement
  secret: HTMLElement
  cancel: HTMLButtonElement
}

let screens = 0

function render(doc: Document): Screen {
  const id = `doorway-export-${++screens}`
  const section = element(doc, 'section', 'approval export')
  section.setAttribute('aria-labelledby', `${id}-title`)
  const title = element(doc, 'h1', 'approval-title', exportKeyText.title)
  title.id = `${id}-title`
  const warning = element(doc, 'p', 'export-warning', exportKeyText.warning)

  const start = button(doc, 'approval-approve', exportKeyText.start)
  const confirm = element(doc, 'div', 'export-step')
  confirm.append(element(doc, 'p', 'approval-summary', exportKeyText.confirm), start)

  const code = element(doc, 'form', 'export-step')
  code.noValidate = true
  const sent = element(doc, 'p', 'approval-summary')
  const label = element(doc, 'label', 'approval-label', exportKeyText.codeLabel)
  const input = element(doc, 'input', 'export-code')
  input.id = label.htmlFor = `${id}-code`
  Object.assign(input, { inputMode: 'numeric', autocomplete: 'one-time-code', maxLength: 6, spellcheck: false })
  const verify = button(doc, 'approval-approve', exportKeyText.verify)
  verify.type = 'submit'
  code.append(sent, label, input, verify)

  const hold = button(doc, 'approval-approve', exportKeyText.holdReveal)
  hold.setAttribute('aria-disabled', 'true')
  hold.append(element(doc, 'span', 'approval-progress'))
  const reveal = element(doc, 'div', 'export-step')
  reveal.append(element(doc, 'p', 'approval-summary', exportKeyText.revealHint), hold)

  const secret = element(doc, 'div', 'export-step')
  const status = element(doc, 'p', 'approval-status')
  status.id = `${id}-status`
  hold.setAttribute('aria-describedby', status.id)
  const cancel = button(doc, 'approval-reject', exportKeyText.cancel)
  const actions = element(doc, 'div', 'export-actions')
  actions.append(cancel)
  section.append(title, warning, confirm, code, reveal, secret, status, actions)
  return { section, status, confirm, start, code, sent, input, reveal, hold, secret, cancel }
}

/** The phrase as numbered words and the key as hex, each with its own copy button. */
function secretView(doc: Document, secret: { mnemonic: string; privateKey: string }, listen: Listen, say: (text: string, alert?: boolean) => void) {
  const words = element(doc, 'ol', 'export-words')
  words.setAttribute('aria-label', exportKeyText.phrase)
  for (const word of secret.mnemonic.split(' ')) words.append(element(doc, 'li', '', word))
  const key = element(doc, 'p', 'approval-value export-key', secret.privateKey)
  key.dataset.mono = ''
  key.setAttribute('aria-label', exportKeyText.privateKey)
  const copy = (text: string) => () =>
    navigator.clipboard.writeText(text).then(
      () => say(exportKeyText.copied),
      () => say(exportKeyText.copyFailed, true),
    )
  const copyPhrase = button(doc, 'approval-reject', exportKeyText.copyPhrase)
  const copyKey = button(doc, 'approval-reject', exportKeyText.copyKey)
  listen(copyPhrase, 'click', copy(secret.mnemonic))
  listen(copyKey, 'click', copy(secret.privateKey))
  return [
    element(doc, 'h2', 'approval-label', exportKeyText.phrase),
    words,
    copyPhrase,
    element(doc, 'h2', 'approval-label', exportKeyText.privateKey),
    key,
    copyKey,
  ]
}

function button(doc: Document, className: string, text: string): HTMLButtonElement {
  const node = element(doc, 'button', className, text)
  node.type = 'button'
  return node
}
