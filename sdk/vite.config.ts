import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

// Production builds set DOORWAY_FRAME_URL to the hosted frame; the default is the local stack's.
const frameUrl = process.env.DOORWAY_FRAME_URL ?? 'http://127.0.0.1:5174/'

export default defineConfig(({ mode }) => ({
  define: {
    __DOORWAY_FRAME_URL__: JSON.stringify(frameUrl),
    __DOORWAY_VERSION__: JSON.stringify(`html-doorway-${pkg.version}`),
  },
  build: {
    emptyOutDir: mode !== 'script',
    minify: true,
    sourcemap: true,
    target: 'es2022',
    lib:
      mode === 'script'
        ? { entry: 'src/script.ts', formats: ['iife'], name: 'Doorway', fileName: () => 'doorway.js' }
        : { entry: 'src/index.ts', formats: ['es'], fileName: () => 'doorway.mjs' },
  },
}))
