import { defineConfig, type LibraryOptions } from 'vite'
import pkg from './package.json' with { type: 'json' }

// Production builds set DOORWAY_FRAME_URL to the hosted frame; the default is the local stack's.
const frameUrl = process.env.DOORWAY_FRAME_URL ?? 'http://127.0.0.1:5174/'

// Three builds into one dist; the default one runs first and empties it. `--mode siwx` is
// `@doorway/sdk/siwx`, a module of its own that the script build never loads.
function lib(mode: string): LibraryOptions {
  if (mode === 'script') return { entry: 'src/script.ts', formats: ['iife'], name: 'Doorway', fileName: () => 'doorway.js' }
  if (mode === 'siwx') return { entry: 'src/siwx/index.ts', formats: ['es'], fileName: () => 'siwx.mjs' }
  return { entry: 'src/index.ts', formats: ['es'], fileName: () => 'doorway.mjs' }
}

export default defineConfig(({ mode }) => ({
  define: {
    __DOORWAY_FRAME_URL__: JSON.stringify(frameUrl),
    __DOORWAY_VERSION__: JSON.stringify(`html-doorway-${pkg.version}`),
  },
  build: {
    emptyOutDir: mode !== 'script' && mode !== 'siwx',
    minify: true,
    sourcemap: true,
    target: 'es2022',
    lib: lib(mode),
    // viem stays the dapp's: its bundler keeps one copy for this and wagmi or whatever else uses it.
    rollupOptions: mode === 'siwx' ? { external: [/^viem(\/|$)/] } : {},
  },
}))
