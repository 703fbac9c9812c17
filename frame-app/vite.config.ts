import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// spec §9: the default secure-site origin can be overridden by an environment variable.
const secureUrl = process.env.DOORWAY_SECURE_URL ?? 'http://127.0.0.1:5175/'

export default defineConfig({
  plugins: [react()],
  define: { __DOORWAY_SECURE_URL__: JSON.stringify(secureUrl) },
  build: { target: 'es2022', sourcemap: true, modulePreload: { polyfill: false } },
})
