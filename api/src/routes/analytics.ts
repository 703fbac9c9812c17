/**
 * Analytics (spec §7): GET /getAnalyticsConfig says whether a project's events are wanted; POST /e
 * stores one event after checking its fields and the host app's origin against the project allowlist.
 * Sending stays opt-in on the dapp side too (DESIGN §10, features.analytics).
 */
import * as Api from '@doorway/shared/contracts/api'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export const maxPropsBytes = Api.maxPropsBytes
const maxBodyBytes = 32 * 1024

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.analyticsConfig, ({ projectId }) => ({ isAnalyticsEnabled: enabled(config, projectId) }))

  // Each field of the event is checked by the table (shared/src/contracts/api.ts), the origin here.
  const limit = bodyLimit({ maxSize: maxBodyBytes, onError: (c) => c.json({ message: `Body larger than ${maxBodyBytes} bytes` }, 413) })
  on(
    Api.table.event,
    async ({ projectId, body: event }) => {
      // spec §8: the frame shows this message in the 'Invalid App Configuration' alert.
      if (!allowed(config, projectId, event.domain)) throw new Http.HttpError(403, `Origin ${event.domain} not found on Allowlist - update configuration`)
      // A project that turned analytics off gets its events accepted and discarded, not an alert.
      if (enabled(config, projectId)) await storage.analytics.add({ projectId, ...event })
      return { success: true } as const
    },
    limit,
  )

  return app
}

function enabled(config: Config, projectId: string): boolean {
  return config.projects[projectId]?.analytics ?? true
}

function allowed(config: Config, projectId: string, origin: string): boolean {
  return (config.projects[projectId]?.origins ?? []).some((entry) => originOf(entry) === origin)
}

/** The origin of a configured allowlist entry, so 'https://app.example/' matches 'https://app.example'. */
function originOf(entry: string): string {
  try {
    return new URL(entry).origin
  } catch {
    return entry
  }
}
