import { useEffect, useRef } from 'react'

/**
 * The next page of a list: asked for when the end of the list scrolls into view, and by a visible
 * button for keyboard users. The button stays while a page loads (busy, not removed) so focus stays on it.
 */
export function LoadMore({ label, loading, shown, onMore }: { label: string; loading: boolean; shown: number; onMore(): void }) {
  const sentinel = useRef<HTMLDivElement>(null)
  const more = useRef(onMore)
  more.current = onMore
  // A new observer after each page: it reports at once whether the end is still in view (a short page).
  useEffect(() => {
    const element = sentinel.current
    if (loading || !element || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && more.current(), { rootMargin: '0px 0px 160px 0px' })
    observer.observe(element)
    return () => observer.disconnect()
  }, [loading, shown])
  return (
    <div className="load-more" ref={sentinel}>
      <button type="button" className="secondary-button" aria-disabled={loading} onClick={() => !loading && onMore()}>
        {loading && <span className="spinner" aria-hidden="true" />}
        {label}
      </button>
    </div>
  )
}
