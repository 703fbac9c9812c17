import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { walletConnectOffline } from './build/walletConnectOffline.js'

// spec §9: the default secure-site origin can be overridden by an environment variable.
const secureUrl = process.env.DOORWAY_SECURE_URL ?? 'http://127.0.0.1:5175/'
// The blockchain API, wallet catalogue and analytics (spec §7); self-hosted locally by api/.
const apiUrl = process.env.DOORWAY_API_URL ?? 'http://127.0.0.1:8787'
// The WalletConnect relay: the hosted one in production, devnet/src/relay.ts in local builds.
const relayUrl = process.env.DOORWAY_RELAY_URL ?? 'wss://relay.walletconnect.org'
// Local and test builds (devnet/src/stack.ts sets this) have no internet: see walletConnectOffline.
export const local = process.env.DOORWAY_LOCAL_BUILD === '1'

export default defineConfig({
  plugins: [react(), ...(local ? [walletConnectOffline()] : [])],
  // The SDK's default store touches localStorage at load, which throws in a storage-blocked frame.
  resolve: { alias: { '@walletconnect/keyvaluestorage': fileURLToPath(new URL('src/features/walletConnect/keyValueStorageShim.ts', import.meta.url)) } },
  define: {
    __DOORWAY_SECURE_URL__: JSON.stringify(secureUrl),
    __DOORWAY_API_URL__: JSON.stringify(apiUrl),
    __DOORWAY_RELAY_URL__: JSON.stringify(relayUrl),
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    modulePreload: { polyfill: false },
    // Everything the first drawing needs is one chunk (issue 14): the same modules as the default
    // split's dozen preloaded chunks, in one request that compresses as a whole. Lazy chunks import it.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } } },
  },
})
