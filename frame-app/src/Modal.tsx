/**
 * The modal card: a labelled dialog with a focus trap, the header, alerts, the current view and
 * toasts. It fills the transparent iframe and draws its own backdrop (docs/architecture.md §4).
 */
import * as Constants from '@doorway/shared/Constants'
import { ui } from '@doorway/shared/Texts'
import { useAtomValue, useSetAtom } from 'jotai'
import { type CSSProperties, Suspense, useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { configAtom } from './core/config.js'
import { closeModalAtom, loadingAtom, openAtom, shakeAtom } from './core/modal.js'
import { directionAtom, historyAtom, routeAtom } from './core/router.js'
import { accentOf, onAccent } from './core/theme.js'
import { View } from './views/View.js'
import { AlertBar } from './components/AlertBar.js'
import { Header } from './components/Header.js'
import { ToastView } from './components/ToastView.js'
import { useFocusTrap } from './components/useFocusTrap.js'

export const visibleMark = 'doorway:visible'
/** When a view was last drawn (open or not): the bench compares it with the click (issue 14). */
export const drawnMark = 'doorway:drawn'

export function Modal() {
  const config = useAtomValue(configAtom)
  const open = useAtomValue(openAtom)
  const loading = useAtomValue(loadingAtom)
  const shake = useAtomValue(shakeAtom)
  const close = useSetAtom(closeModalAtom)
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const trap = useFocusTrap(dialogRef)

  // Focus the dialog itself so its name is announced, and mark when it is on screen (bench).
  useLayoutEffect(() => {
    if (!open) return
    dialogRef.current?.focus()
    requestAnimationFrame(() => performance.mark(visibleMark))
  }, [open])

  // The host focuses the iframe after showModal(), and that focus reaches this process late. When it
  // lands with nothing inside focused (the first focus() raced it), the dialog takes it.
  useEffect(() => {
    if (!open) return
    const onFocus = () => {
      const dialog = dialogRef.current
      if (dialog && !dialog.contains(document.activeElement)) dialog.focus()
    }
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [open])

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close()
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open, close])

  if (!config) return null
  const accent = config.accent ?? accentOf(config.themeMode)
  const style = {
    '--accent': accent,
    '--on-accent': onAccent(accent),
    '--header-ms': `${Constants.headerTextAnimationMs}ms`,
    '--height-ms': `${Constants.modalHeightAnimationMs}ms`,
    '--view-ms': `${Constants.viewTransitionMs}ms`,
  } as CSSProperties

  return (
    <div
      className="backdrop"
      data-theme={config.themeMode}
      data-embedded={config.embedded}
      // Closed, the card stays drawn (the host keeps the dialog unseen and inert), so that opening
      // shows it already painted (issue 14); only assistive technology and focus are kept out.
      aria-hidden={!open}
      inert={!open}
      style={style}
      onPointerDown={(event) => event.target === event.currentTarget && close()}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal={!config.embedded}
        aria-labelledby={titleId}
        aria-busy={loading}
        tabIndex={-1}
        className="card"
        data-shake={shake}
        onKeyDown={trap}
      >
        <Header titleId={titleId} />
        <AlertBar />
        <Body />
        <ToastView />
        {loading && (
          <div className="loading-overlay" role="progressbar" aria-label={ui.modal.loading}>
            <span className="spinner" aria-hidden="true" />
          </div>
        )}
      </div>
    </div>
  )
}

/** Animates its height to the view's (spec §2: modal height 150 ms) and keys the view transition. */
function Body() {
  const route = useAtomValue(routeAtom)
  const depth = useAtomValue(historyAtom).length
  const direction = useAtomValue(directionAtom)
  const innerRef = useRef<HTMLDivElement>(null)
  const [height, setHeight] = useState<number>()
  useLayoutEffect(() => {
    const inner = innerRef.current
    if (!inner) return
    const observer = new ResizeObserver(() => setHeight(inner.offsetHeight))
    observer.observe(inner)
    return () => observer.disconnect()
  }, [])
  useLayoutEffect(() => void requestAnimationFrame(() => performance.mark(drawnMark)), [route, depth])
  return (
    <div className="body" style={{ height }}>
      <div ref={innerRef}>
        <div key={`${depth}:${route.view}`} className="view" data-direction={direction}>
          <Suspense fallback={<span className="spinner" role="progressbar" aria-label={ui.modal.loading} />}>
            <View route={route} />
          </Suspense>
        </div>
      </div>
    </div>
  )
}
