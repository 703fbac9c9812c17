/**
 * spec §5: inside Telegram's web view the social login options are filtered: iOS removes google, Mac
 * removes x, Android removes facebook and x (the providers whose sign-in fails in that platform's web
 * view). Whether the page runs in Telegram is the host page's to say (the SDK's init: Telegram's web view
 * marks the top window, which the frame cannot see); the platform is the device's, from its user agent.
 */
export type Platform = 'ios' | 'mac' | 'android' | 'other'

export function platformOf(userAgent: string): Platform {
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios'
  if (/Android/.test(userAgent)) return 'android'
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'mac'
  return 'other'
}

const removed: Record<Platform, readonly string[]> = { ios: ['google'], mac: ['x'], android: ['facebook', 'x'], other: [] }

/** The dapp's socials as this device may offer them: unchanged outside Telegram. */
export function socialsFor<T extends string>(socials: readonly T[], telegram: boolean, userAgent: string): T[] {
  if (!telegram) return [...socials]
  const drop = removed[platformOf(userAgent)]
  return socials.filter((s) => !drop.includes(s))
}
