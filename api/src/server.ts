/** Starts the api on Node: used by `api/src/main.ts` and by the local stack (`npm start`). */
import type { ChainId } from '@doorway/shared/Caip'
import { serve } from '@hono/node-server'
import * as App from './app.js'
import * as Assets from './assets.js'
import type { Config } from './config.js'
import * as Indexer from './indexer.js'
import * as Rpc from './rpc.js'
import * as Storage from './storage/Storage.js'

/** How often the follower reads new blocks when config.indexer.pollMs is absent. */
export const defaultPollMs = 1_000

export async function start(config: Config): Promise<{ url: string; stop(): Promise<void> }> {
  const storage = await Storage.open(config.storage)
  const rpc = Rpc.create(config)
  const indexer = Indexer.create({ rpc, storage })
  const app = App.create({ config, rpc, storage, now: Date.now, indexer })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s))
    s.once('error', reject)
  }).catch(async (error) => {
    await storage.close()
    throw error
  })
  // The index keeps up while blocks arrive, so a history request has little left to read.
  const chains = (Object.keys(config.networks) as ChainId[]).filter(Assets.isEvm)
  const follower = Indexer.follow(indexer, chains, { pollMs: config.indexer?.pollMs ?? defaultPollMs })
  return {
    url: config.publicUrl,
    stop: () =>
      follower
        .stop()
        .then(() => new Promise<void>((resolve) => server.close(() => resolve())))
        .then(() => storage.close()),
  }
}
