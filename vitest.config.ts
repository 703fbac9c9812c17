import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  define: {
    __DOORWAY_SECURE_URL__: JSON.stringify('http://127.0.0.1:5175/'),
    __DOORWAY_API_URL__: JSON.stringify('http://127.0.0.1:8787'),
    __DOORWAY_RELAY_URL__: JSON.stringify('ws://127.0.0.1:8790'),
  },
  test: {
    include: ['{shared,sdk,frame-app,secure-site,api,devnet}/src/**/*.test.{ts,tsx}', 'secure-site/server/src/**/*.test.ts', 'frame-app/build/**/*.test.ts', 'scripts/**/*.test.ts', 'examples/*/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    restoreMocks: true,
    sequence: { hooks: 'stack' }, // afterAll in reverse order: devnet/src/testDapp.ts useDevnet relies on it
  },
})
