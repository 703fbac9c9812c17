/**
 * A browser as a person recognises it in a mail ("Chrome 131 on Linux"), from the request's
 * User-Agent: what the approval mail names beside the origin and the time (docs/embedded-wallet.md §4).
 * Only ever shown, never trusted. `import * as Browser from './browser.js'`.
 */

const browsers: [RegExp, string][] = [
  [/Edg\/(\d+)/, 'Edge'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/(?:Chrome|Chromium|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
]
const systems: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/iPhone|iPad/, 'iOS'],
  [/Mac OS X/, 'macOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

export function describe(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512)
  const browser = browsers.map(([re, name]) => [ua.match(re), name] as const).find(([m]) => m)
  const system = systems.find(([re]) => re.test(ua))?.[1]
  const name = browser ? `${browser[1]} ${browser[0]![1]}` : 'An unknown browser'
  return system ? `${name} on ${system}` : name
}
