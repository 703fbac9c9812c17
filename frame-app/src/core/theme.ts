/** spec §2: theme mode defaults to dark; the default accent differs between light and dark. */
export const defaultAccent = { dark: '#667dff', light: '#4c5fe6' } as const

export function accentOf(mode: keyof typeof defaultAccent): string {
  return defaultAccent[mode]
}

/**
 * Text on the accent: black or white, whichever contrasts more (WCAG relative luminance), so a
 * dapp's own accent never leaves its buttons unreadable.
 */
export function onAccent(accent: string): '#000' | '#fff' {
  const channel = (i: number) => {
    const c = Number.parseInt(accent.slice(1 + 2 * i, 3 + 2 * i), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
  // Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05): equal at L ≈ 0.179.
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? '#000' : '#fff'
}
