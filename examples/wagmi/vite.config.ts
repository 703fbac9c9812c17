import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { urls } from '@doorway/devnet/stack'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Served by the local stack's demo origin at /wagmi/ (devnet/src/start.ts), under the demo's strict CSP:
// external module scripts only, nothing inline.
export default defineConfig({
  root: here('.'),
  base: '/wagmi/',
  plugins: [react()],
  // The session demo (src/Session.tsx) asks the local api for the chain's bundler; DOORWAY_API_PORT moves it.
  define: { __DOORWAY_API__: JSON.stringify(urls.api) },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
  },
})
