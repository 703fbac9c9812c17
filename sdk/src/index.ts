import * as Modal from './Modal.js'
import type { Modal as ModalType, Options } from './types.js'

/** The modal (docs/sdk.md). Its Wallet Standard chunk is a module of its own, imported only when the dapp has a solana network. */
export const createModal = (options: Options): ModalType => Modal.createModal(options, () => import('./standard/index.js'))
export type {
  Account,
  AccountTypes,
  Adapter,
  CustomWallet,
  Events,
  Features,
  Modal,
  NetworkOption,
  OpenOptions,
  OpenResult,
  Options,
  Provider,
  SendArguments,
  SiweConfig,
  Siwx,
  SiwxData,
  SiwxInput,
  SiwxMessage,
  SiwxSession,
  State,
  SwapArguments,
  Tokens,
  ViewName,
} from './types.js'
