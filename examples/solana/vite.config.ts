import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { urls } from '@doorway/devnet/stack'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// A Solana dapp built on @solana/wallet-adapter's Wallet Standard adapter, served by the local stack's
// demo origin at /solana/ (devnet/src/start.ts) under the demo's strict CSP: external scripts only.
export default defineConfig({
  root: here('.'),
  base: '/solana/',
  // The local Solana node (devnet solana/), which DOORWAY_SOLANA_PORT moves.
  define: { __SOLANA_RPC__: JSON.stringify(urls.solana) },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
  },
})
