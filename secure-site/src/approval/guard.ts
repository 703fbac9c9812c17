/**
 * What keeps a screen of the secure-site from being approved blind (docs/embedded-wallet.md §7):
 * the frame around it is not trusted, and may make this iframe transparent, cover it or click for the
 * person. A screen counts as seen once IntersectionObserver v2 has reported it visible for visibleMs;
 * where that observer is missing, only the page's visibility is known and the action is held instead.
 * Only the person's own (trusted) input counts. Used by the approval and the key export.
 */

/** How long a screen must stay visible before its action is enabled (docs/embedded-wallet.md §7). */
export const visibleMs = 500
/** How long the action is held where visibility cannot be observed (docs/embedded-wallet.md §7). */
export const holdMs = 800
// The shortest delay IntersectionObserver v2 accepts with trackVisibility.
const observerDelayMs = 100

export type Visibility = 'waiting' | 'hidden' | 'ready'
export type Listen = <type extends keyof HTMLElementEventMap>(
  target: EventTarget,
  type: type,
  handler: (event: HTMLElementEventMap[type]) => void,
) => void

/** IntersectionObserver v2 (Chromium): entries say whether the target is really seen, uncovered. */
type VisibilityWindow = Window & {
  IntersectionObserver?: new (
    callback: (entries: readonly (IntersectionObserverEntry & { isVisible?: boolean })[]) => void,
    options: IntersectionObserverInit & { trackVisibility: boolean; delay: number },
  ) => IntersectionObserver
  IntersectionObserverEntry?: { prototype: object }
}

export function observesVisibility(win: VisibilityWindow): boolean {
  const entry = win.IntersectionObserverEntry
  return typeof win.IntersectionObserver === 'function' && !!entry && 'isVisible' in entry.prototype
}

/** Calls `update` with 'ready' once `visible(true)` has held for visibleMs; any `visible(false)` restarts. */
function dwell(win: Window, update: (visibility: Visibility) => void) {
  let timer: ReturnType<Window['setTimeout']> | undefined
  let state: Visibility = 'waiting'
  const set = (next: Visibility) => {
    if (next !== state) update((state = next))
  }
  const stop = () => {
    win.clearTimeout(timer)
    timer = undefined
  }
  const visible = (seen: boolean) => {
    if (!seen) return stop(), set('hidden')
    if (state === 'ready' || timer !== undefined) return
    set('waiting')
    timer = win.setTimeout(() => ((timer = undefined), set('ready')), visibleMs)
  }
  return { visible, stop }
}

// docs/embedded-wallet.md §7, Porto's approach: visible means not covered, not transparent, not transformed.
export function watchIntersection(win: VisibilityWindow, target: Element, update: (visibility: Visibility) => void) {
  const gate = dwell(win, update)
  const observer = new win.IntersectionObserver!(
    (entries) => {
      const entry = entries[entries.length - 1]
      if (entry) gate.visible(entry.isVisible === true)
    },
    { trackVisibility: true, delay: observerDelayMs },
  )
  observer.observe(target)
  return () => (observer.disconnect(), gate.stop())
}

// Without IntersectionObserver v2 only the page's own visibility is known; hold-to-confirm covers the rest.
export function watchPage(win: Window, _target: Element, update: (visibility: Visibility) => void) {
  const gate = dwell(win, update)
  const onChange = () => gate.visible(win.document.visibilityState === 'visible')
  win.document.addEventListener('visibilitychange', onChange)
  onChange()
  return () => (win.document.removeEventListener('visibilitychange', onChange), gate.stop())
}

export declare namespace holdToConfirm {
  type Options = { listen: Listen; signal: AbortSignal; ready: () => boolean; done: () => void }
}

/** Approve fires after holdMs of a held pointer, Space or Enter; letting go early cancels. */
export function holdToConfirm(win: Window, button: HTMLButtonElement, { listen, signal, ready, done }: holdToConfirm.Options) {
  let timer: ReturnType<Window['setTimeout']> | undefined
  const start = () => {
    if (timer !== undefined || !ready()) return
    button.dataset.holding = ''
    timer = win.setTimeout(() => ((timer = undefined), delete button.dataset.holding, done()), holdMs)
  }
  const cancel = () => {
    win.clearTimeout(timer)
    timer = undefined
    delete button.dataset.holding
  }
  listen(button, 'pointerdown', (event) => event.button === 0 && start())
  listen(button, 'keydown', (event) => {
    if (event.key !== ' ' && event.key !== 'Enter') return
    event.preventDefault() // no click from the key: only the hold approves
    if (!event.repeat) start()
  })
  // Letting go only ever cancels, so any release counts, trusted or not.
  for (const type of ['pointerup', 'pointerleave', 'pointercancel', 'blur']) button.addEventListener(type, cancel, { signal })
  button.addEventListener('keyup', (event) => (event.key === ' ' || event.key === 'Enter') && cancel(), { signal })
  button.addEventListener('contextmenu', (event) => event.preventDefault(), { signal })
  return cancel
}

/** A class-named element with text: the screens are built without innerHTML. */
export function element<tag extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: tag,
  className: string,
  text?: string,
): HTMLElementTagNameMap[tag] {
  const node = doc.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}
