import { defineConfig } from 'vite'
import { buildKeys } from './buildKeys.js'

// The only origin allowed to embed and talk to the secure-site.
const frameOrigin = new URL(process.env.DOORWAY_FRAME_URL ?? 'http://127.0.0.1:5174/').origin

export default defineConfig({
  define: {
    __DOORWAY_FRAME_ORIGIN__: JSON.stringify(frameOrigin),
    // The vault's and the server's public keys, pinned in the build and never fetched (docs/embedded-wallet.md §2).
    // Loading this config without them, to build or to serve, throws and says how to get them.
    ...buildKeys(process.env),
  },
  build: { target: 'es2022', sourcemap: true, modulePreload: { polyfill: false } },
})
