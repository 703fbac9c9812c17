import '../approval/approval.css'
import '../export/export.css'
import './security.css'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { secureText } from '@doorway/shared/texts/email'
import { securityText } from '@doorway/shared/texts/embedded'
import { Aborted } from '../approval/Approval.js'
import { run, say } from '../approval/steps.js'
import { element, type Listen, observesVisibility, type Visibility, watchIntersection, watchPage } from '../approval/guard.js'
import * as Describe from './describe.js'
import type * as Manage from './Manage.js'

// The person's devices and the wallet's activity (docs/embedded-wallet.md §10), rendered by the
// secure-site in its own frame: each device with its browser, the site it last signed in at and when it
// was last used; Remove on every other one, confirmed with a fresh code (the code step as the export's)
// on a screen that has stayed visible (guard.ts); and the audit log in words, checked here against the
// vault's signed head, with a warning when the log was changed outside the wallet. No innerHTML: the
// CSP's Trusted Types allow none. The frame learns only that the person is done.

export declare namespace show {
  type Options = {
    /** Manage.manager(wallet) in main.ts; a fake in the tests. */
    manager: Manage.Manager
    /** The dapp's origin, named in the code mail and the audit log. */
    host: string
    /** Aborts when the modal closes or the view goes away. */
    signal: AbortSignal
    window?: Window
    /** Which events the person made. Tests replace it, as jsdom cannot make trusted events. */
    isTrusted?: (event: Event) => boolean
    /** The locale and time zone of times and dates; the browser's unless a test says. */
    zone?: Describe.Zone
    now?: () => number
  }
}

type Step = 'loading' | 'list' | 'confirm' | 'code'

/** The screen on the page: what `show` was given, its elements, and where the person is. */
type View = {
  readonly manager: Manage.Manager
  readonly host: string
  readonly signal: AbortSignal
  readonly win: Window
  readonly doc: Document
  readonly screen: Screen
  readonly listen: Listen
  readonly listeners: AbortController
  readonly finish: (outcome: 'done' | 'aborted') => void
  readonly zone: Describe.Zone
  readonly now: () => number
  step: Step
  busy: boolean
  visibility: Visibility
  /** The device the person chose to remove, until it is removed or kept. */
  target: Manage.DeviceSummary | undefined
  /** The server step under way, aborted when the screen ends. */
  request: AbortController | undefined
  stopWatching: () => void
}

/** Shows the screen in `root` until the person is done; rejects with Aborted on `signal`. */
export function show(root: HTMLElement, options: show.Options): Promise<void> {
  const { signal, isTrusted = (event: Event) => event.isTrusted } = options
  const doc = root.ownerDocument
  const win = options.window ?? doc.defaultView ?? window
  if (signal.aborted) return Promise.reject(new Aborted())
  return new Promise((resolve, reject) => {
    const listeners = new AbortController()
    const view: View = {
      manager: options.manager,
      host: options.host,
      signal,
      win,
      doc,
      screen: render(doc),
      listen: (target, type, handler) => target.addEventListener(type, (event) => isTrusted(event) && handler(event as never), { signal: listeners.signal }),
      listeners,
      finish: (outcome) => (outcome === 'aborted' ? reject(new Aborted()) : resolve()),
      zone: options.zone ?? {},
      now: options.now ?? Date.now,
      step: 'loading',
      busy: false,
      visibility: 'waiting',
      target: undefined,
      request: undefined,
      stopWatching: () => {},
    }
    view.stopWatching = (observesVisibility(win) ? watchIntersection : watchPage)(win, view.screen.section, (next) => watched(view, next))
    wire(view)
    go(view, 'loading')
    root.append(view.screen.section)
    view.screen.title.focus({ preventScroll: true })
    void run(view, securityText.loading, (request) => load(view, request))
  })
}

/** The person's ways through the screen: remove (confirm, then the code), keep, done, Escape; and the caller's abort. */
function wire(view: View) {
  const { screen, listen } = view
  view.signal.addEventListener('abort', () => settle(view, 'aborted'), { signal: view.listeners.signal })
  listen(screen.done, 'click', () => settle(view, 'done'))
  listen(view.doc, 'keydown', (event) => event.key === 'Escape' && settle(view, 'done'))
  listen(screen.keep, 'click', () => {
    if (view.busy) return
    view.target = undefined
    go(view, 'list')
  })
  listen(screen.confirm, 'click', () => {
    // Only on a screen seen for 500 ms: a covered or see-through frame cannot have a device removed blind (guard.ts).
    if (view.visibility === 'ready') void run(view, securityText.starting, (request) => start(view, request))
  })
  listen(screen.code, 'submit', (event) => {
    event.preventDefault()
    const code = screen.input.value.replace(/\s/g, '')
    if (!/^\d{6}$/.test(code)) return say(view, secureText.codeInvalid, true)
    void run(view, securityText.verifying, (request) => remove(view, code, request))
  })
}


function go(view: View, next: Step) {
  const { screen } = view
  view.step = next
  screen.section.dataset.step = next
  screen.overview.hidden = next !== 'list'
  screen.ask.hidden = next !== 'confirm'
  screen.code.hidden = next !== 'code'
  if (next !== 'code') screen.input.value = ''
}

function settle(view: View, outcome: 'done' | 'aborted') {
  view.listeners.abort()
  view.request?.abort()
  view.stopWatching()
  view.screen.section.remove()
  view.finish(outcome)
}


function watched(view: View, next: Visibility) {
  const { screen } = view
  view.visibility = next
  screen.section.dataset.visibility = next
  screen.confirm.setAttribute('aria-disabled', String(next !== 'ready'))
  if (next === 'hidden' && view.step === 'confirm') say(view, securityText.hidden, true)
  else if (screen.status.textContent === securityText.hidden) say(view, '')
}

/** The devices and the checked log, drawn anew. */
async function load(view: View, signal: AbortSignal) {
  const overview = await view.manager.overview(signal)
  const { screen, doc } = view
  screen.devices.replaceChildren(...overview.devices.map((device) => deviceItem(view, device)))
  const lines = Describe.activity(overview.entries, view.zone)
  screen.activity.replaceChildren(...lines.map(({ what, when }) => activityItem(doc, what, when)))
  if (lines.length === 0) screen.activity.append(element(doc, 'li', 'approval-summary', securityText.noActivity))
  integrity(view, overview.verdict)
  go(view, 'list')
}

function deviceItem(view: View, device: Manage.DeviceSummary): HTMLLIElement {
  const { doc, listen } = view
  const { name, site } = Describe.device(device)
  const item = element(doc, 'li', 'security-device')
  const heading = element(doc, 'p', 'security-device-name', name)
  if (device.current) heading.append(' ', element(doc, 'span', 'security-badge', securityText.thisBrowser))
  if (device.revoked) heading.append(' ', element(doc, 'span', 'security-badge', securityText.removedDevice))
  const used = format(securityText.lastUsed, { when: Describe.relative(device.lastSeen, view.now(), view.zone) })
  const added = format(securityText.added, { when: Describe.date(device.createdAt, view.zone) })
  item.append(heading, element(doc, 'p', 'approval-value', site), element(doc, 'p', 'approval-summary', `${used} · ${added}`))
  if (!device.current && !device.revoked) {
    const remove = button(doc, 'approval-reject security-remove', securityText.remove)
    remove.setAttribute('aria-label', format(securityText.removeLabel, { browser: name, origin: site }))
    listen(remove, 'click', () => !view.busy && ask(view, device))
    item.append(remove)
  }
  return item
}

function activityItem(doc: Document, what: string, when: string): HTMLLIElement {
  const item = element(doc, 'li', 'security-entry')
  item.append(element(doc, 'span', 'security-entry-what', what), element(doc, 'span', 'approval-summary', when))
  return item
}

/** The log's check, said plainly; a changed log as a warning with what it means. */
function integrity(view: View, verdict: Manage.Overview['verdict']) {
  const { screen } = view
  const changed = verdict.state === 'changed'
  screen.integrity.className = changed ? 'export-warning security-integrity' : 'approval-custody security-integrity'
  screen.integrity.dataset.state = verdict.state
  screen.integrity.setAttribute('role', changed ? 'alert' : 'status')
  const text = { verified: securityText.verified, unconfirmed: securityText.unconfirmed, changed: securityText.changed }[verdict.state]
  screen.integrity.replaceChildren(element(view.doc, 'strong', '', text))
  if (changed) screen.integrity.append(element(view.doc, 'span', 'security-integrity-hint', securityText.changedHint))
}

/** Remove was pressed on `device`: say which, and wait for the person to confirm on a visible screen. */
function ask(view: View, device: Manage.DeviceSummary) {
  const { name, site } = Describe.device(device)
  view.target = device
  view.screen.question.textContent = format(securityText.confirmRemove, { browser: name, origin: site })
  go(view, 'confirm')
  say(view, '')
  view.screen.keep.focus()
}

/** Confirmed: a sign-in of the last 5 minutes is fresh enough; otherwise the code step. */
async function start(view: View, signal: AbortSignal): Promise<string | void> {
  const { email, sent } = await view.manager.removeCode(view.host, signal)
  if (!sent) return remove(view, undefined, signal)
  view.screen.sent.textContent = format(securityText.codeSent, { email })
  go(view, 'code')
  view.screen.input.focus()
}

async function remove(view: View, code: string | undefined, signal: AbortSignal): Promise<string> {
  const target = view.target
  if (!target) throw new Errors.DoorwayError(secureText.expired)
  say(view, securityText.removing)
  await view.manager.remove(target.id, code, signal)
  view.target = undefined
  await load(view, signal)
  view.screen.title.focus({ preventScroll: true })
  return securityText.removed
}

type Screen = {
  section: HTMLElement
  title: HTMLElement
  integrity: HTMLElement
  overview: HTMLElement
  devices: HTMLElement
  activity: HTMLElement
  ask: HTMLElement
  question: HTMLElement
  confirm: HTMLButtonElement
  keep: HTMLButtonElement
  code: HTMLFormElement
  sent: HTMLElement
  input: HTMLInputElement
  status: HTMLElement
  done: HTMLButtonElement
}

let screens = 0

function render(doc: Document): Screen {
  const id = `doorway-security-${++screens}`
  const section = element(doc, 'section', 'approval security')
  section.setAttribute('aria-labelledby', `${id}-title`)
  const title = element(doc, 'h1', 'approval-title', securityText.title)
  title.id = `${id}-title`
  title.tabIndex = -1
  const integrity = element(doc, 'p', 'approval-custody security-integrity')

  const devices = element(doc, 'ul', 'security-list')
  devices.setAttribute('aria-label', securityText.devices)
  const activity = element(doc, 'ol', 'security-list')
  activity.setAttribute('aria-label', securityText.activity)
  const overview = element(doc, 'div', 'export-step')
  // The log's check first: a log changed outside the wallet is the first thing the person reads.
  overview.append(integrity, element(doc, 'h2', 'approval-label', securityText.devices), devices, element(doc, 'h2', 'approval-label', securityText.activity), activity)

  const question = element(doc, 'p', 'approval-summary')
  const confirm = button(doc, 'approval-approve', securityText.removeConfirm)
  confirm.setAttribute('aria-disabled', 'true')
  const keep = button(doc, 'approval-reject', securityText.keep)
  const choices = element(doc, 'div', 'approval-actions')
  choices.append(keep, confirm)
  const ask = element(doc, 'div', 'export-step')
  ask.append(question, element(doc, 'p', 'approval-summary', securityText.confirmHint), choices)

  const code = element(doc, 'form', 'export-step')
  code.noValidate = true
  const sent = element(doc, 'p', 'approval-summary')
  const label = element(doc, 'label', 'approval-label', securityText.codeLabel)
  const input = element(doc, 'input', 'export-code')
  input.id = label.htmlFor = `${id}-code`
  Object.assign(input, { inputMode: 'numeric', autocomplete: 'one-time-code', maxLength: 6, spellcheck: false })
  const verify = button(doc, 'approval-approve', securityText.verify)
  verify.type = 'submit'
  code.append(sent, label, input, verify)

  const status = element(doc, 'p', 'approval-status')
  confirm.setAttribute('aria-describedby', (status.id = `${id}-status`))
  const done = button(doc, 'approval-reject', securityText.done)
  const actions = element(doc, 'div', 'export-actions')
  actions.append(done)
  section.append(title, element(doc, 'p', 'approval-custody', securityText.custody), overview, ask, code, status, actions)
  return { section, title, integrity, overview, devices, activity, ask, question, confirm, keep, code, sent, input, status, done }
}

function button(doc: Document, className: string, text: string): HTMLButtonElement {
  const node = element(doc, 'button', className, text)
  node.type = 'button'
  return node
}
