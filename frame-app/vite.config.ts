import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// spec §9: the default secure-site origin can be overridden by an environment variable.
const secureUrl = process.env.DOORWAY_SECURE_URL ?? 'http://127.0.0.1:5175/'
// The blockchain API, wallet catalogue and analytics (spec §7); self-hosted locally by api/.
const apiUrl = process.env.DOORWAY_API_URL ?? 'http://127.0.0.1:8787'

export default defineConfig({
  plugins: [react()],
  define: { __DOORWAY_SECURE_URL__: JSON.stringify(secureUrl), __DOORWAY_API_URL__: JSON.stringify(apiUrl) },
  build: { target: 'es2022', sourcemap: true, modulePreload: { polyfill: false } },
})
