import { defineConfig, type LibraryOptions, type Plugin } from 'vite'
import pkg from './package.json' with { type: 'json' }

// Production builds set DOORWAY_FRAME_URL to the hosted frame; the default is the local stack's.
const frameUrl = process.env.DOORWAY_FRAME_URL ?? 'http://127.0.0.1:5174/'

// Five builds into one dist; the default one runs first and empties it. `--mode siwx` is
// `@doorway/sdk/siwx`, a module of its own that the script build never loads. `--mode standard` is the
// Wallet Standard chunk (src/standard/), one module that both builds fetch lazily; `--mode wallet` is the
// chunk it fetches in turn, the Doorway wallet.
function lib(mode: string): LibraryOptions {
  if (mode === 'script') return { entry: 'src/script.ts', formats: ['iife'], name: 'Doorway', fileName: () => 'doorway.js' }
  if (mode === 'siwx') return { entry: 'src/siwx/index.ts', formats: ['es'], fileName: () => 'siwx.mjs' }
  if (mode === 'standard') return { entry: 'src/standard/index.ts', formats: ['es'], fileName: () => 'doorway-standard.js' }
  if (mode === 'wallet') return { entry: 'src/standard/doorway.ts', formats: ['es'], fileName: () => 'doorway-wallet.js' }
  return { entry: 'src/index.ts', formats: ['es'], fileName: () => 'doorway.mjs' }
}

// The ESM entry imports the chunk's own build rather than a split of this one: a split chunk would leave
// in the entry whatever the chunk alone uses of the modules they share (Protocol's Wallet Standard schemas).
const standardChunk: Plugin = {
  name: 'doorway-standard-chunk',
  enforce: 'pre',
  resolveId: (id) => (id === './standard/index.js' ? { id: './doorway-standard.js', external: true } : null),
}

// The Doorway wallet (src/standard/doorway.ts) is the Wallet Standard chunk's own lazy chunk, built by `--mode wallet`.
const walletChunk: Plugin = {
  name: 'doorway-wallet-chunk',
  enforce: 'pre',
  resolveId: (id) => (id === './doorway.js' ? { id: './doorway-wallet.js', external: true } : null),
}

// Schema's constructors have no side effects: marked so, the schemas of Protocol that the SDK never
// checks (the secure-site's, the frame's own params) leave its bundle.
const pureSchemas = ['string', 'literal', 'oneOf', 'optional', 'array', 'union', 'object', 'record']

export default defineConfig(({ mode }) => ({
  plugins: mode === 'production' ? [standardChunk] : mode === 'standard' ? [walletChunk] : [],
  define: {
    __DOORWAY_FRAME_URL__: JSON.stringify(frameUrl),
    __DOORWAY_VERSION__: JSON.stringify(`html-doorway-${pkg.version}`),
  },
  build: {
    emptyOutDir: mode === 'production',
    minify: true,
    sourcemap: true,
    target: 'es2022',
    lib: lib(mode),
    // viem stays the dapp's: its bundler keeps one copy for this and wagmi or whatever else uses it.
    rollupOptions: {
      treeshake: { manualPureFunctions: pureSchemas, propertyReadSideEffects: false },
      ...(mode === 'siwx' && { external: [/^viem(\/|$)/] }),
      // Lib mode leaves ES output's whitespace and pure annotations for the dapp's bundler; these chunks are
      // fetched as they are by the script build, so they ship minified and without comments.
      ...((mode === 'standard' || mode === 'wallet') && { output: { minify: true, comments: false } }),
    },
  },
}))
