export { createModal } from './Modal.js'
export type { Events, Modal, NetworkOption, OpenResult, Options, State } from './types.js'
