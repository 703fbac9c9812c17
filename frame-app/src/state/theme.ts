/** spec §2: theme mode defaults to dark; the default accent differs between light and dark. */
export const defaultAccent = { dark: '#667dff', light: '#4c5fe6' } as const

export function accentOf(mode: keyof typeof defaultAccent): string {
  return defaultAccent[mode]
}
