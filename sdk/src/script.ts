// The script-tag build: `<script src="doorway.js">` exposes `window.Doorway.createModal`.
import * as Modal from './Modal.js'
import type { Modal as ModalType, Options } from './types.js'

// A classic script cannot code-split: the Wallet Standard chunk is a module served beside this file
// (sdk/vite.config.ts, `--mode standard`). Where this file is, is known only while it runs.
const src = (document.currentScript as HTMLScriptElement | null)?.src

export const createModal = (options: Options): ModalType =>
  Modal.createModal(options, async () => import(/* @vite-ignore */ new URL('doorway-standard.js', src).href) as Promise<typeof import('./standard/index.js')>)
