import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react'
import './Tabs.css'

export type Tab<K extends string> = { key: K; label: string; panel: () => ReactNode }

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs; only the selected tab is in the tab order. */
export function Tabs<K extends string>(props: { label: string; tabs: Tab<K>[]; selected: K; onSelect(key: K): void }) {
  const { label, tabs, selected, onSelect } = props
  const id = useId()
  const listRef = useRef<HTMLDivElement>(null)
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.key === selected)
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key]
    if (next === undefined) return
    event.preventDefault()
    const tab = tabs[(next + tabs.length) % tabs.length]!
    onSelect(tab.key)
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${id}-${tab.key}`)}`)?.focus()
  }
  const current = tabs.find((t) => t.key === selected) ?? tabs[0]!
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} ref={listRef} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            id={`${id}-${tab.key}`}
            type="button"
            role="tab"
            aria-selected={tab.key === current.key}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === current.key ? 0 : -1}
            onClick={() => onSelect(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${current.key}`} tabIndex={0}>
        {current.panel()}
      </div>
    </div>
  )
}
