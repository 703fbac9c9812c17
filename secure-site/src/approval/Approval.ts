import './approval.css'
import { codes, DoorwayError } from '@doorway/shared/Errors'
import { format, requestAborted } from '@doorway/shared/Texts'
import { approveText } from '@doorway/shared/texts/approve'
import type { Row } from './describe.js'
import { element, holdToConfirm, type Listen, observesVisibility, type Visibility, watchIntersection, watchPage } from './guard.js'

// The approval screen the secure-site renders in its own frame (docs/embedded-wallet.md §7), behind guard.ts: Approve
// counts only the person's own input on a screen that has been visible for a while.

export { holdMs, visibleMs } from './guard.js'

/** The request was aborted (closed modal, timeout) before the person decided. */
export class Aborted extends DoorwayError {
  override readonly name: string = 'Aborted'

  constructor() {
    // docs/embedded-wallet.md §6: a pending request that is aborted rejects with 4001
    super(requestAborted, { code: codes.userRejected })
  }
}

export declare namespace ask {
  type Options = {
    /** What is asked, in words: an EVM request's description (describe.ts) or a Solana one's (describeSolana.ts). */
    description: { title: string; rows: readonly Row[]; hostLabel?: string }
    /** The dapp's origin: attested by `location.ancestorOrigins`, or as the frame reported it. */
    host: { origin: string; attested: boolean }
    /** Aborts when the modal closes or the request times out. */
    signal: AbortSignal
    window?: Window
    /** Which events the person made. Tests replace it, as jsdom cannot make trusted events. */
    isTrusted?: (event: Event) => boolean
  }
  type ReturnType = 'approved' | 'rejected'
}

type Outcome = 'approved' | 'rejected' | 'aborted'

/**
 * Shows the request in `root` until the person approves or rejects it, or `signal` aborts (rejects with
 * Aborted). 'approved' is returned at most once per call: the key is used only on pending → approved.
 */
export function ask(root: HTMLElement, options: ask.Options): Promise<ask.ReturnType> {
  const { signal, isTrusted = (event: Event) => event.isTrusted } = options
  const win = options.window ?? root.ownerDocument.defaultView ?? window
  if (signal.aborted) return Promise.reject(new Aborted())
  return new Promise((resolve, reject) => {
    const hold = !observesVisibility(win)
    const screen = render(root.ownerDocument, options, hold)
    const listeners = new AbortController()
    const listen: Listen = (target, type, handler) =>
      target.addEventListener(type, (event) => isTrusted(event) && handler(event as never), { signal: listeners.signal })
    let pending = true
    let ready = false
    let cancelHold = () => {}

    root.append(screen.section)
    const stopWatching = (hold ? watchPage : watchIntersection)(win, screen.section, (visibility) => {
      ready = visibility === 'ready'
      if (!ready) cancelHold()
      show(screen, visibility)
    })
    const settle = (outcome: Outcome) => {
      if (!pending) return
      pending = false
      listeners.abort()
      stopWatching()
      cancelHold()
      screen.section.remove()
      if (outcome === 'aborted') reject(new Aborted())
      else resolve(outcome)
    }
    const approve = () => ready && settle('approved')

    signal.addEventListener('abort', () => settle('aborted'), { signal: listeners.signal })
    listen(screen.reject, 'click', () => settle('rejected'))
    listen(root.ownerDocument, 'keydown', (event) => event.key === 'Escape' && settle('rejected'))
    if (hold) cancelHold = holdToConfirm(win, screen.approve, { listen, signal: listeners.signal, ready: () => ready, done: approve })
    else listen(screen.approve, 'click', approve)
    screen.reject.focus()
  })
}

type Screen = {
  section: HTMLElement
  status: HTMLElement
  approve: HTMLButtonElement
  reject: HTMLButtonElement
}

let screens = 0

/** Values up to this long sit beside their label (a network, an amount, a fee). */
const inlineChars = 28

function render(doc: Document, { description, host }: ask.Options, hold: boolean): Screen {
  const id = `doorway-approval-${++screens}`
  // The request fills the frame's slot: what is asked titles it and the decision closes it, both always in
  // view; only a long request's details scroll between them (docs/embedded-wallet.md §7).
  const section = element(doc, 'section', 'approval approval-request')
  section.setAttribute('aria-labelledby', `${id}-title`)
  const title = element(doc, 'h1', 'approval-title', description.title)
  title.id = `${id}-title`
  const hostLine = host.attested ? approveText.hostAttested : approveText.hostReported
  const hostRow: Row = { label: description.hostLabel ?? approveText.host, value: format(hostLine, { origin: host.origin }) }
  const rows = element(doc, 'dl', 'approval-rows')
  for (const row of [hostRow, ...description.rows]) {
    // A short word or amount beside its label; addresses, data and messages under it.
    const item = element(doc, 'div', !row.mono && row.value.length <= inlineChars ? 'approval-row approval-row-inline' : 'approval-row')
    if (row.tone === 'warning') item.classList.add('approval-row-warning')
    // A batch's "Call 1 of 2" starts the rows of that call: its term stands out, its value is empty.
    if (row.heading) item.classList.add('approval-row-heading')
    const value = element(doc, 'dd', 'approval-value', row.value)
    if (row.mono) value.dataset.mono = ''
    item.append(element(doc, 'dt', 'approval-label', row.label), value)
    rows.append(item)
  }
  const status = element(doc, 'p', 'approval-status')
  status.id = `${id}-status`
  status.setAttribute('role', 'status')
  const reject = element(doc, 'button', 'approval-reject', approveText.reject)
  const approve = element(doc, 'button', 'approval-approve', hold ? approveText.hold : approveText.approve)
  for (const button of [reject, approve]) button.type = 'button'
  // aria-disabled rather than disabled: Approve stays in the Tab order and says why it waits.
  approve.setAttribute('aria-describedby', status.id)
  if (hold) approve.append(element(doc, 'span', 'approval-progress'))
  const actions = element(doc, 'div', 'approval-actions')
  actions.append(reject, approve)
  const details = element(doc, 'div', 'approval-details')
  details.append(rows, element(doc, 'p', 'approval-custody', approveText.custody))
  section.append(title, details, status, actions)
  const screen = { section, status, approve, reject }
  show(screen, 'waiting')
  return screen
}

function show(screen: Screen, visibility: Visibility) {
  screen.approve.setAttribute('aria-disabled', String(visibility !== 'ready'))
  screen.section.dataset.visibility = visibility
  screen.status.textContent = visibility === 'waiting' ? approveText.waitVisible : visibility === 'hidden' ? approveText.hidden : ''
}
