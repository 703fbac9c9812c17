import '../approval/approval.css'
import './export.css'
import * as Shares from '@doorway/secure-site/common/Shares'
import { format } from '@doorway/shared/Texts'
import { secureText } from '@doorway/shared/texts/email'
import { exportKeyText } from '@doorway/shared/texts/exportKey'
import { Aborted } from '../approval/Approval.js'
import * as Solana from '../wallet/Solana.js'
import { run, say } from '../approval/steps.js'
import { element, holdToConfirm, type Listen, observesVisibility, type Visibility, watchIntersection, watchPage } from '../approval/guard.js'

// Key export (docs/embedded-wallet.md §8), rendered by the secure-site in its own frame: a fresh
// code to the wallet's email, then a hold-to-reveal on a screen that has stayed visible (guard.ts),
// then the recovery phrase, the EVM private key and the Solana secret key, in this DOM only, copied through this origin's own
// clipboard. The frame learns only that the person is done. A screen that gets covered or hidden
// takes the secret off the page again.

export declare namespace show {
  type Options = {
    /** Wallet.exportCode and Wallet.exportSecret, bound to the wallet (main.ts). */
    wallet: {
      exportCode(host: string, signal?: AbortSignal): Promise<{ email: string; sent: boolean }>
      exportSecret(host: string, code?: string, signal?: AbortSignal): Promise<Uint8Array>
    }
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

/** What the export shows: the 12 words, the EVM key as hex, the Solana keypair as base58. */
type Secret = { mnemonic: string; privateKey: string; solanaKey: string }

/** One export on the page: what `show` was given, its elements, and where the person is in it. */
type View = {
  readonly wallet: show.Options['wallet']
  readonly host: string
  /** The caller's: aborted when the modal closes. */
  readonly signal: AbortSignal
  readonly win: Window
  readonly doc: Document
  readonly screen: Screen
  /** Listens for the person's own events until the export ends. */
  readonly listen: Listen
  readonly listeners: AbortController
  /** Ends the promise `show` returned. */
  readonly finish: (outcome: 'done' | 'aborted') => void
  step: Step
  busy: boolean
  visibility: Visibility
  secret: Secret | undefined
  /** The server step under way, aborted when the export ends. */
  request: AbortController | undefined
  stopWatching: () => void
  cancelHold: () => void
}

/** Shows the export in `root` until the person is done or cancels; rejects with Aborted on `signal`. */
export function show(root: HTMLElement, options: show.Options): Promise<void> {
  const { wallet, host, signal, isTrusted = (event: Event) => event.isTrusted } = options
  const doc = root.ownerDocument
  const win = options.window ?? doc.defaultView ?? window
  if (signal.aborted) return Promise.reject(new Aborted())
  return new Promise((resolve, reject) => {
    const listeners = new AbortController()
    const view: View = {
      wallet,
      host,
      signal,
      win,
      doc,
      screen: render(doc),
      listen: (target, type, handler) => target.addEventListener(type, (event) => isTrusted(event) && handler(event as never), { signal: listeners.signal }),
      listeners,
      finish: (outcome) => (outcome === 'aborted' ? reject(new Aborted()) : resolve()),
      step: 'confirm',
      busy: false,
      visibility: 'waiting',
      secret: undefined,
      request: undefined,
      stopWatching: () => {},
      cancelHold: () => {},
    }
    view.stopWatching = (observesVisibility(win) ? watchIntersection : watchPage)(win, view.screen.section, (next) => watched(view, next))
    view.cancelHold = holdToConfirm(win, view.screen.hold, {
      listen: view.listen,
      signal: listeners.signal,
      ready: () => view.visibility === 'ready' && view.step === 'reveal',
      done: () => reveal(view),
    })
    wire(view)
    go(view, 'confirm')
    root.append(view.screen.section)
    view.screen.start.focus({ preventScroll: true })
  })
}

/** The person's ways through the export: start, the code, cancel, Escape; and the caller's abort. */
function wire(view: View) {
  const { screen, listen } = view
  view.signal.addEventListener('abort', () => settle(view, 'aborted'), { signal: view.listeners.signal })
  listen(screen.cancel, 'click', () => settle(view, 'done'))
  listen(view.doc, 'keydown', (event) => event.key === 'Escape' && settle(view, 'done'))
  // A sign-in of the last 5 minutes is fresh enough (docs/embedded-wallet.md §3); otherwise a code is mailed first.
  listen(screen.start, 'click', () =>
    run(view, exportKeyText.starting, async (signal) => {
      const { email, sent } = await view.wallet.exportCode(view.host, signal)
      if (!sent) return unlock(view, undefined, signal)
      screen.sent.textContent = format(exportKeyText.codeSent, { email })
      go(view, 'code')
      screen.input.focus()
    }),
  )
  listen(screen.code, 'submit', (event) => {
    event.preventDefault()
    const code = screen.input.value.replace(/\s/g, '')
    if (!/^\d{6}$/.test(code)) return say(view, secureText.codeInvalid, true)
    void run(view, exportKeyText.verifying, (signal) => unlock(view, code, signal))
  })
}


function go(view: View, next: Step) {
  const { screen } = view
  view.step = next
  screen.section.dataset.step = next
  screen.confirm.hidden = next !== 'confirm'
  screen.code.hidden = next !== 'code'
  screen.reveal.hidden = next !== 'reveal'
  screen.secret.hidden = next !== 'shown'
  screen.cancel.textContent = next === 'shown' ? exportKeyText.done : exportKeyText.cancel
  if (next !== 'shown') screen.secret.replaceChildren()
}

function settle(view: View, outcome: 'done' | 'aborted') {
  view.listeners.abort()
  view.request?.abort()
  view.stopWatching()
  view.cancelHold()
  view.secret = undefined
  view.screen.section.remove()
  view.finish(outcome)
}


function watched(view: View, next: Visibility) {
  const { screen } = view
  view.visibility = next
  screen.section.dataset.visibility = next
  screen.hold.setAttribute('aria-disabled', String(next !== 'ready'))
  if (next !== 'hidden') {
    if (screen.status.textContent === exportKeyText.hidden) say(view, '')
    return
  }
  view.cancelHold()
  // Covered or hidden: the secret leaves the page until the person holds to reveal it again.
  if (view.step === 'shown') go(view, 'reveal')
  if (view.step === 'reveal') say(view, exportKeyText.hidden, true)
}

/** The hold is done: the phrase and the key go on the page. */
function reveal(view: View) {
  if (!view.secret) return
  view.screen.secret.replaceChildren(...secretView(view.doc, view.secret, view.listen, (text, alert) => say(view, text, alert)))
  go(view, 'shown')
  say(view, '')
}

/** The entropy released for this export, as the phrase and keys; the bytes are zeroed at once. */
async function unlock(view: View, code: string | undefined, signal: AbortSignal) {
  const entropy = await view.wallet.exportSecret(view.host, code, signal)
  try {
    view.secret = { ...Shares.exportable(entropy), solanaKey: Solana.exportable(entropy) }
  } finally {
    entropy.fill(0)
  }
  view.screen.input.value = ''
  go(view, 'reveal')
  view.screen.hold.focus()
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

/** The phrase as numbered words and each key on its own, each with its own copy button. */
function secretView(doc: Document, secret: Secret, listen: Listen, say: (text: string, alert?: boolean) => void) {
  const words = element(doc, 'ol', 'export-words')
  words.setAttribute('aria-label', exportKeyText.phrase)
  for (const word of secret.mnemonic.split(' ')) words.append(element(doc, 'li', '', word))
  const copy = (text: string) => () =>
    navigator.clipboard.writeText(text).then(
      () => say(exportKeyText.copied),
      () => say(exportKeyText.copyFailed, true),
    )
  const copyButton = (label: string, text: string) => {
    const node = button(doc, 'approval-reject', label)
    listen(node, 'click', copy(text))
    return node
  }
  return [
    element(doc, 'h2', 'approval-label', exportKeyText.phrase),
    words,
    copyButton(exportKeyText.copyPhrase, secret.mnemonic),
    ...keyView(doc, exportKeyText.privateKey, secret.privateKey),
    copyButton(exportKeyText.copyKey, secret.privateKey),
    ...keyView(doc, exportKeyText.solanaKey, secret.solanaKey),
    element(doc, 'p', 'approval-summary', exportKeyText.solanaKeyHint),
    copyButton(exportKeyText.copySolanaKey, secret.solanaKey),
  ]
}

/** A key under its heading, named by it for screen readers. */
function keyView(doc: Document, label: string, value: string): HTMLElement[] {
  const key = element(doc, 'p', 'approval-value export-key', value)
  key.dataset.mono = ''
  key.setAttribute('aria-label', label)
  return [element(doc, 'h2', 'approval-label', label), key]
}

function button(doc: Document, className: string, text: string): HTMLButtonElement {
  const node = element(doc, 'button', className, text)
  node.type = 'button'
  return node
}
