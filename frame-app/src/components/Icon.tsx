/** Inline icons: decorative, so always aria-hidden; the button around them carries the label. */
const paths = {
  close: 'M6 6l12 12M18 6L6 18',
  back: 'M15 5l-7 7 7 7',
  check: 'M5 12l5 5 9-11',
  alert: 'M12 7v6m0 4h.01',
  info: 'M12 11v6m0-10h.01',
  chevron: 'M9 5l7 7-7 7',
  wallet: 'M4 7h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H4zM4 7V6a2 2 0 0 1 2-2h10M16 13h.01',
  copy: 'M9 9h10v10H9zM5 15V5h10',
  mail: 'M4 6h16v12H4zM4 7l8 6 8-6',
} as const

export function Icon({ name }: { name: keyof typeof paths }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20">
      <path d={paths[name]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
