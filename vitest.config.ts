import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  // Tests run the SDK's sources, unbuilt, as its `source` export condition does for tsx (docs/architecture.md §11).
  resolve: {
    alias: [
      { find: /^@doorway\/sdk$/, replacement: fileURLToPath(new URL('sdk/src/index.ts', import.meta.url)) },
      { find: /^@doorway\/sdk\/(siwx|internal\/siwx)$/, replacement: fileURLToPath(new URL('sdk/src/$1', import.meta.url)) },
    ],
  },
  define: {
    __DOORWAY_SECURE_URL__: JSON.stringify('http://127.0.0.1:5175/'),
    __DOORWAY_API_URL__: JSON.stringify('http://127.0.0.1:8787'),
    __DOORWAY_RELAY_URL__: JSON.stringify('ws://127.0.0.1:8790'),
  },
  test: {
    include: ['{shared,sdk,frame-app,secure-site,api,devnet}/src/**/*.test.{ts,tsx}', 'secure-site/server/src/**/*.test.ts', 'secure-site/common/**/*.test.ts', 'secure-site/*.test.ts', 'storage/src/**/*.test.ts', 'frame-app/build/**/*.test.ts', 'scripts/**/*.test.ts', 'examples/*/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Many tests run against real anvil chains and servers: on a busy 2-core CI machine a test can take
    // longer than vitest's default 5 s without being wrong (seen: api/src/indexer.test.ts under load).
    testTimeout: 20_000,
    restoreMocks: true,
    sequence: { hooks: 'stack' }, // afterAll in reverse order: devnet/src/testDapp.ts useDevnet relies on it
  },
})
