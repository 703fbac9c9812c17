import type * as Esplora from './chains/Esplora.js'
import type { Config } from './config.js'
import type { Indexer } from './indexer.js'
import type { Rpc } from './rpc.js'
import type { Storage } from './storage/Storage.js'

/**
 * Everything a route needs, injected: tests swap the RPC for a counting one and the clock for a fake.
 * The indexer is shared by the history routes and the server's follower (server.ts). `esplora` reads the
 * Bitcoin networks (absent: Esplora.create over the config).
 */
export type Deps = { config: Config; rpc: Rpc; storage: Storage; now: () => number; indexer: Indexer; esplora?: Esplora.Esplora }
