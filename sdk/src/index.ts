export { createModal } from './Modal.js'
export type { Events, Modal, NetworkOption, OpenOptions, OpenResult, Options, SendArguments, SiweConfig, Siwx, SiwxData, SiwxInput, SiwxMessage, SiwxSession, State } from './types.js'
