import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['{shared,sdk,frame-app,secure-site,api,devnet}/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    restoreMocks: true,
  },
})
