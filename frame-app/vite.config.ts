import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { build } from 'esbuild'
import { defineConfig, type Plugin } from 'vite'
import { walletConnectOffline } from './build/walletConnectOffline.js'

// spec §9: the default secure-site origin can be overridden by an environment variable.
const secureUrl = process.env.DOORWAY_SECURE_URL ?? 'http://127.0.0.1:5175/'
// The blockchain API, wallet catalogue and analytics (spec §7); self-hosted locally by api/.
const apiUrl = process.env.DOORWAY_API_URL ?? 'http://127.0.0.1:8787'
// The WalletConnect relay: the hosted one in production, devnet/src/relay.ts in local builds.
const relayUrl = process.env.DOORWAY_RELAY_URL ?? 'wss://relay.walletconnect.org'
// Local and test builds (devnet/src/stack.ts sets this) have no internet: see walletConnectOffline.
export const local = process.env.DOORWAY_LOCAL_BUILD === '1'

/**
 * The redirect page (src/redirect.ts; spec §7 social-redirect), built apart from the app: a page of its
 * own with one small script, which must not share (or pull in) the app's first chunk. Its words are the
 * catalogue's, which the script writes.
 */
const redirectPage: Plugin = {
  name: 'doorway-redirect-page',
  apply: 'build',
  async generateBundle() {
    const { outputFiles } = await build({
      entryPoints: [fileURLToPath(new URL('src/redirect.ts', import.meta.url))],
      bundle: true,
      write: false,
      minify: true,
      format: 'iife',
      target: 'es2022',
      define: { __DOORWAY_SECURE_URL__: JSON.stringify(secureUrl) },
    })
    this.emitFile({ type: 'asset', fileName: 'redirect.js', source: outputFiles[0]!.text })
    this.emitFile({
      type: 'asset',
      fileName: 'redirect.html',
      source: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Doorway</title>
<script src="redirect.js" defer></script>
</head>
<body>
<main><h1></h1><p></p></main>
</body>
</html>
`,
    })
  },
}

export default defineConfig({
  plugins: [react(), redirectPage, ...(local ? [walletConnectOffline()] : [])],
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
