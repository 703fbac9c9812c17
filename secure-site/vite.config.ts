import { defineConfig } from 'vite'

// The only origin allowed to embed and talk to the secure-site.
const frameOrigin = new URL(process.env.DOORWAY_FRAME_URL ?? 'http://127.0.0.1:5174/').origin
// The vault's public key, pinned in the build and never fetched from the server (docs/embedded-wallet.md §2).
// `npm start` generates a dev vault and passes its key; a build without one cannot create wallets.
const vaultPublicKey = process.env.DOORWAY_VAULT_PUBLIC_KEY ?? ''
if (vaultPublicKey && !/^[\w-]{87}$/.test(vaultPublicKey)) throw new Error('DOORWAY_VAULT_PUBLIC_KEY must be a base64url P-256 point')

export default defineConfig({
  define: { __DOORWAY_FRAME_ORIGIN__: JSON.stringify(frameOrigin), __DOORWAY_VAULT_PUBLIC_KEY__: JSON.stringify(vaultPublicKey) },
  build: { target: 'es2022', sourcemap: true, modulePreload: { polyfill: false } },
})
