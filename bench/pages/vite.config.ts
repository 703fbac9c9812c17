import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The side-by-side pages of `npm run bench` (issue 14), served by the local stack's demo origin at
// /bench/ (devnet/src/start.ts) under the demo's strict CSP: external module scripts only.
export default defineConfig({
  root: here('.'),
  base: '/bench/',
  plugins: [react()],
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: { input: { floor: here('floor.html'), doorway: here('doorway.html') } },
  },
})
