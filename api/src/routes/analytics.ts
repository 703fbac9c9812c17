/**
 * Analytics (spec §7): GET /getAnalyticsConfig says whether a project's events are wanted; POST /e
 * stores one event after checking its fields and the host app's origin against the project allowlist.
 * Sending stays opt-in on the dapp side too (DESIGN §10, features.analytics).
 */
import * as S from '@doorway/shared/Schema'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export const maxPropsBytes = 16 * 1024
const maxBodyBytes = 32 * 1024

/** Each body field, its check, and what the 400 says was expected. */
const fields = {
  eventId: { check: S.string({ min: 8, max: 64, pattern: /^[0-9a-f-]+$/i }), expected: 'a uuid-like id of 8 to 64 hex digits and hyphens' },
  url: { check: S.url, expected: 'an http(s) URL' },
  domain: { check: isOrigin, expected: 'the host app origin, like https://app.example' },
  timestamp: { check: (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0, expected: 'milliseconds since the epoch, a non-negative integer' },
  props: { check: isProps, expected: `a JSON object of at most ${maxPropsBytes} bytes` },
} as const

type Event = { eventId: string; url: string; domain: string; timestamp: number; props: Record<string, unknown> }

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()

  app.get('/getAnalyticsConfig', (c) => {
    const projectId = Http.project(c, config.projects)
    return c.json({ isAnalyticsEnabled: enabled(config, projectId) })
  })

  const limit = bodyLimit({ maxSize: maxBodyBytes, onError: (c) => c.json({ message: `Body larger than ${maxBodyBytes} bytes` }, 413) })
  app.post('/e', limit, async (c) => {
    const projectId = Http.project(c, config.projects)
    const event = check(await Http.json(c))
    // spec §8: the frame shows this message in the 'Invalid App Configuration' alert.
    if (!allowed(config, projectId, event.domain)) throw new Http.HttpError(403, `Origin ${event.domain} not found on Allowlist - update configuration`)
    // A project that turned analytics off gets its events accepted and discarded, not an alert.
    if (enabled(config, projectId)) await storage.analytics.add({ projectId, ...event })
    return c.json({ success: true }, 202)
  })

  return app
}

function check(body: Record<string, unknown>): Event {
  for (const [name, { check, expected }] of Object.entries(fields)) {
    if (!check(body[name])) throw Http.badRequest(`Invalid ${name}: expected ${expected}`)
  }
  const { eventId, url, domain, timestamp, props } = body as Event
  return { eventId, url, domain, timestamp, props }
}

function enabled(config: Config, projectId: string): boolean {
  return config.projects[projectId]?.analytics ?? true
}

function allowed(config: Config, projectId: string, origin: string): boolean {
  return (config.projects[projectId]?.origins ?? []).some((entry) => originOf(entry) === origin)
}

/** An origin exactly as `location.origin` writes it: http(s), no path, no trailing slash. */
function isOrigin(x: unknown): x is string {
  return S.url(x) && originOf(x) === x
}

function isProps(x: unknown): x is Record<string, unknown> {
  return S.isPlainObject(x) && Buffer.byteLength(JSON.stringify(x)) <= maxPropsBytes
}

/** The origin of a configured allowlist entry, so 'https://app.example/' matches 'https://app.example'. */
function originOf(entry: string): string {
  try {
    return new URL(entry).origin
  } catch {
    return entry
  }
}
