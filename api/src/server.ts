/** Starts the api on Node: used by `api/src/main.ts` and by the local stack (`npm start`). */
import { serve } from '@hono/node-server'
import * as App from './app.js'
import type { Config } from './config.js'
import * as Rpc from './rpc.js'
import * as Storage from './storage/Storage.js'

export async function start(config: Config): Promise<{ url: string; stop(): Promise<void> }> {
  const storage = await Storage.open(config.storage)
  const app = App.create({ config, rpc: Rpc.create(config), storage, now: Date.now })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s))
    s.once('error', reject)
  }).catch(async (error) => {
    await storage.close()
    throw error
  })
  return {
    url: config.publicUrl,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => storage.close()),
  }
}
