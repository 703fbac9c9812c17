import { defineConfig } from 'vite'

// The only origin allowed to embed and talk to the secure-site.
const frameOrigin = new URL(process.env.DOORWAY_FRAME_URL ?? 'http://127.0.0.1:5174/').origin

export default defineConfig({
  define: { __DOORWAY_FRAME_ORIGIN__: JSON.stringify(frameOrigin) },
  build: { target: 'es2022', sourcemap: true, modulePreload: { polyfill: false } },
})
