// Test helpers for the screens behind guard.ts (jsdom has no IntersectionObserver v2).
import { vi } from 'vitest'

/** IntersectionObserver v2 as Chromium has it: the test says when the screen is seen. */
export class VisibilityObserver {
  static last: VisibilityObserver | undefined
  target: Element | undefined
  disconnected = false
  constructor(
    readonly callback: (entries: { isVisible: boolean; target: Element }[]) => void,
    readonly options: Record<string, unknown>,
  ) {
    VisibilityObserver.last = this
  }
  observe(target: Element) {
    this.target = target
  }
  disconnect() {
    this.disconnected = true
  }
  report(isVisible: boolean) {
    this.callback([{ isVisible, target: this.target! }])
  }
}
class VisibilityEntry {
  get isVisible() {
    return false
  }
}

export function withVisibilityObserver() {
  vi.stubGlobal('IntersectionObserver', VisibilityObserver)
  vi.stubGlobal('IntersectionObserverEntry', VisibilityEntry)
}
