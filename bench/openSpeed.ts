/**
 * Open speed side by side (issue 14): a hand-rolled React modal in a plain page (the floor) and the
 * same page opening Doorway (bench/pages), interleaved in one run, fresh page each time, in Chromium
 * at 1x and 4x CPU. Reported as medians with the Doorway / floor ratio:
 * - click → wallet options: from pointerdown to the first animation frame presenting the wallet rows,
 *   on one clock (performance.timeOrigin + performance.now()) across the page and the frame. For
 *   Doorway that is the later of the host's first frame after open() and the frame's last drawing of
 *   its view (drawn ahead while closed, so normally before the click);
 * - JS fetched before any click, in all frames (gzip -9 of each script body), after the page settled;
 * - button visible: the Connect Wallet button's first paint (Element Timing).
 */
import { gzipSync } from 'node:zlib'
import type { Browser, CDPSession, Frame } from '@playwright/test'
import { urls } from '@doorway/devnet/stack'

export const runs = 9
const rates = [1, 4] as const
const kinds = ['floor', 'doorway'] as const
type Kind = (typeof kinds)[number]

/** The issue's targets. */
export const targets = { clickToOptionsMs: { 1: 16, 4: 50 }, jsBeforeIntentKb: 110 }

type Run = { clickToOptionsMs: number; jsBytes: number; doorwayJsBytes: number; buttonVisibleMs: number; drawnBeforeClick: boolean }
export type Report = Record<(typeof rates)[number], Record<Kind, Run[]>>

const frameOrigin = new URL(urls.frame).origin
const secureOrigin = new URL(urls.secure).origin
const polling = 10

export async function measure(browser: Browser, options: { sdkGzip: number; blockNonLoopback(context: import('@playwright/test').BrowserContext): Promise<unknown> }): Promise<Report> {
  const report = { 1: { floor: [], doorway: [] }, 4: { floor: [], doorway: [] } } as Report
  for (const rate of rates)
    for (let i = 0; i < runs; i++)
      for (const kind of kinds) report[rate][kind].push(await once(browser, kind, rate, options))
  return report
}

async function once(browser: Browser, kind: Kind, rate: number, options: Parameters<typeof measure>[1]): Promise<Run> {
  const context = await browser.newContext()
  await options.blockNonLoopback(context)
  try {
    const page = await context.newPage()
    const scripts: Promise<{ url: string; bytes: number }>[] = []
    page.on('response', (response) => {
      const url = response.url()
      if (!/\.m?js(\?|$)/.test(url)) return
      scripts.push(response.body().then((body) => ({ url, bytes: gzipSync(body, { level: 9 }).length }), () => ({ url, bytes: 0 })))
    })
    const sessions: CDPSession[] = [await context.newCDPSession(page)]
    await throttle(sessions, rate)
    await page.goto(`${urls.demo}bench/${kind}.html`)
    const buttonVisibleMs = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          new PerformanceObserver((list) => {
            const entry = list.getEntries()[0] as PerformanceEntry & { renderTime: number }
            resolve(entry.renderTime)
          }).observe({ type: 'element', buffered: true }),
        ),
    )
    let frame: Frame | undefined
    if (kind === 'doorway') {
      // The SDK loads its frame after the page's first paint.
      frame = page.frames().find(isFrame) ?? (await page.waitForEvent('framenavigated', { predicate: isFrame }))
      // Settled: the frame drew its wallet options (or it is not ready, and the click shows that).
      await frame.waitForFunction(() => !!document.querySelector('.view button') && performance.getEntriesByName('doorway:drawn').length > 0, undefined, { polling })
      sessions.push(await context.newCDPSession(frame))
      await throttle(sessions, rate)
    }
    await page.waitForLoadState('networkidle')
    const fetched = await Promise.all(scripts)
    const jsBytes = fetched.reduce((sum, s) => sum + s.bytes, 0)
    const doorwayJsBytes = options.sdkGzip + fetched.filter((s) => s.url.startsWith(frameOrigin) || s.url.startsWith(secureOrigin)).reduce((sum, s) => sum + s.bytes, 0)

    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const shown = await page.waitForFunction(() => globalThis.bench.clickAt !== undefined && globalThis.bench.shownAt !== undefined && globalThis.bench, undefined, { polling })
    const { clickAt, shownAt } = (await shown.jsonValue()) as { clickAt: number; shownAt: number }
    let presentedAt = shownAt
    let drawnBeforeClick = true
    if (frame) {
      // The frame's view as it was last drawn, on the same clock; if it was drawn after the click,
      // the options appeared only then.
      const drawn = await frame.evaluate(() => {
        const marks = performance.getEntriesByName('doorway:drawn')
        return performance.timeOrigin + marks[marks.length - 1]!.startTime
      })
      drawnBeforeClick = drawn <= clickAt
      presentedAt = Math.max(shownAt, drawn)
    }
    return { clickToOptionsMs: presentedAt - clickAt, jsBytes, doorwayJsBytes, buttonVisibleMs, drawnBeforeClick }
  } finally {
    await context.close()
  }
}

const isFrame = (frame: Frame) => frame.url().startsWith(frameOrigin)

async function throttle(sessions: CDPSession[], rate: number) {
  await Promise.all(sessions.map((session) => session.send('Emulation.setCPUThrottlingRate', { rate })))
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export function format(report: Report): string[] {
  const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10)
  const kb = (v: number) => `${(v / 1024).toFixed(1)} KB`.padStart(10)
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`.padStart(8)
  const verdict = (ok: boolean) => (ok ? 'within target' : 'OVER TARGET')
  const lines = [`Open speed side by side (issue 14): medians of ${runs} interleaved fresh-page runs each, Chromium`, `  ${''.padEnd(34)}${'floor'.padStart(10)}${'Doorway'.padStart(10)}   ratio`]
  for (const rate of rates) {
    const floor = report[rate].floor
    const doorway = report[rate].doorway
    const f = median(floor.map((r) => r.clickToOptionsMs))
    const d = median(doorway.map((r) => r.clickToOptionsMs))
    const target = targets.clickToOptionsMs[rate]
    lines.push(`  ${`click → wallet options, ${rate}x CPU`.padEnd(34)}${ms(f)}${ms(d)}${ratio(d, f)}   target ≤ ${target} ms: ${verdict(d <= target)}`)
  }
  for (const rate of rates) {
    const f = median(report[rate].floor.map((r) => r.buttonVisibleMs))
    const d = median(report[rate].doorway.map((r) => r.buttonVisibleMs))
    // The spread of each, to judge "within noise".
    const range = (runs: Run[]) => `${Math.min(...runs.map((r) => r.buttonVisibleMs)).toFixed(0)}–${Math.max(...runs.map((r) => r.buttonVisibleMs)).toFixed(0)}`
    lines.push(
      `  ${`button visible, ${rate}x CPU`.padEnd(34)}${ms(f)}${ms(d)}${ratio(d, f)}   (${(d - f >= 0 ? '+' : '') + (d - f).toFixed(1)} ms; runs ${range(report[rate].floor)} vs ${range(report[rate].doorway)} ms)`,
    )
  }
  const f = median(report[1].floor.map((r) => r.jsBytes))
  const d = median(report[1].doorway.map((r) => r.jsBytes))
  const own = median(report[1].doorway.map((r) => r.doorwayJsBytes))
  lines.push(`  ${'JS before any click, whole page'.padEnd(34)}${kb(f)}${kb(d)}${ratio(d, f)}`)
  lines.push(`  ${"  of which Doorway's (SDK + frames)".padEnd(34)}${''.padStart(10)}${kb(own)}           target ≤ ${targets.jsBeforeIntentKb} KB: ${verdict(own <= targets.jsBeforeIntentKb * 1024)}`)
  const late = Object.values(report).flatMap((r) => r.doorway).filter((r) => !r.drawnBeforeClick).length
  lines.push(`  Doorway runs whose options were drawn only after the click: ${late} of ${runs * rates.length}`)
  return lines
}
