import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { chains, urls } from '@doorway/devnet/stack'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// One classic script for the host page (like an extension's injected script): an IIFE with no exports.
export default defineConfig({
  root: here('.'),
  // The chains the wallet knows at first: the local stack's, so DOORWAY_ANVIL_PORTS moves them too.
  define: {
    __DEV_WALLET_CHAINS__: JSON.stringify(Object.fromEntries(chains.map((c) => [c.id, c.rpcUrl]))),
    // The local Solana node (devnet solana/rpc.ts), which DOORWAY_SOLANA_PORT moves.
    __DEV_WALLET_SOLANA_RPC__: JSON.stringify(urls.solana),
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    target: 'es2022',
    lib: { entry: here('src/index.ts'), formats: ['iife'], name: 'doorwayDevWallet', fileName: () => 'dev-wallet.js' },
  },
})
