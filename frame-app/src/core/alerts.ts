/** Alerts (spec §8): configuration and provider problems, each shown once per modal. */
import { atom } from 'jotai'

export type Alert = { key: string; title: string; message: string }

export const alertAtom = atom<Alert | null>(null)
const shownAtom = atom(() => new Set<string>())

export const raiseAlertAtom = atom(null, (get, set, alert: Alert) => {
  const shown = get(shownAtom)
  if (shown.has(alert.key)) return
  shown.add(alert.key)
  set(alertAtom, alert)
})

export const dismissAlertAtom = atom(null, (_get, set) => set(alertAtom, null))
