export { createModal } from './Modal.js'
export type { Events, Modal, NetworkOption, OpenOptions, OpenResult, Options, SendArguments, State } from './types.js'
