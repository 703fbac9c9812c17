// The script-tag build: `<script src="doorway.js">` exposes `window.Doorway.createModal`.
import * as Modal from './Modal.js'
import type { Modal as ModalType, Options } from './types.js'

// A classic script cannot code-split: the Wallet Standard chunk is a module served beside this file
// (sdk/vite.config.ts, `--mode standard`). A classic script's import() resolves against the script's own
// URL (HTML: its base URL is its response's URL), so no document.currentScript is needed. A variable keeps
// the bundler from resolving it.
const chunk = './doorway-standard.js'

export const createModal = (options: Options): ModalType =>
  Modal.createModal(options, () => import(/* @vite-ignore */ chunk) as Promise<typeof import('./standard/index.js')>)
