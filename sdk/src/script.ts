// The script-tag build: `<script src="doorway.js">` exposes `window.Doorway.createModal`.
export { createModal } from './Modal.js'
