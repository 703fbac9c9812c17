import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { type Plugin, defineConfig } from 'vite'

// spec §9: the default secure-site origin can be overridden by an environment variable.
const secureUrl = process.env.DOORWAY_SECURE_URL ?? 'http://127.0.0.1:5175/'
// The blockchain API, wallet catalogue and analytics (spec §7); self-hosted locally by api/.
const apiUrl = process.env.DOORWAY_API_URL ?? 'http://127.0.0.1:8787'
// The WalletConnect relay: the hosted one in production, devnet/src/relay.ts in local builds.
const relayUrl = process.env.DOORWAY_RELAY_URL ?? 'wss://relay.walletconnect.org'
// Local and test builds (devnet/src/stack.ts sets this) have no internet: see walletConnectOffline.
const local = process.env.DOORWAY_LOCAL_BUILD === '1'

/**
 * WalletConnect's SDKs call hosted services on their own: Verify (an iframe to verify.walletconnect.org)
 * and pulse telemetry, which fires even with telemetryEnabled: false. They skip both only when their
 * `isTestRun()` is true (`process.env.IS_VITEST === "true"`, which a browser never has). Local builds
 * make that function true at build time; production builds never get this plugin, so Verify stays on.
 * If an SDK upgrade changes the function, the build fails here rather than silently calling out.
 */
function walletConnectOffline(): Plugin {
  const edits: Record<string, [from: string, to: string]> = {
    utils: ['typeof process<"u"&&process.env.IS_VITEST==="true"', 'true'],
    // In a test run the sign client looks for React Native's Linking on Node's `global`.
    'sign-client': ['global?.Linking', 'globalThis?.Linking'],
  }
  return {
    name: 'doorway:walletconnect-offline',
    transform(code, id) {
      const [, name] = /@walletconnect[\\/]([\w-]+)[\\/]dist[\\/]index\.js$/.exec(id) ?? []
      const edit = name && edits[name]
      if (!edit) return
      if (!code.includes(edit[0])) this.error(`walletConnectOffline: @walletconnect/${name} no longer has ${edit[0]}`)
      return { code: code.replaceAll(edit[0], edit[1]), map: null }
    },
  }
}

export default defineConfig({
  plugins: [react(), ...(local ? [walletConnectOffline()] : [])],
  // The SDK's default store touches localStorage at load, which throws in a storage-blocked frame.
  resolve: { alias: { '@walletconnect/keyvaluestorage': fileURLToPath(new URL('src/connectors/keyValueStorageShim.ts', import.meta.url)) } },
  define: {
    __DOORWAY_SECURE_URL__: JSON.stringify(secureUrl),
    __DOORWAY_API_URL__: JSON.stringify(apiUrl),
    __DOORWAY_RELAY_URL__: JSON.stringify(relayUrl),
  },
  build: { target: 'es2022', sourcemap: true, modulePreload: { polyfill: false } },
})
