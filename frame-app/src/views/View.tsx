/**
 * The view registry: config as data. Each view of spec §2 maps to its component and, for optional
 * interface parts (spec §1), the feature that must be on. Feature views are lazy chunks, fetched only
 * when rendered, which only happens when their feature is on.
 */
import type * as Protocol from '@doorway/shared/Protocol'
import { type ComponentType, lazy } from 'react'
import type { Route, RouteOf } from '../core/routes.js'
import { Connect, loadEmailLogin } from './Connect/Connect.js'

type Definition<V extends Route['view']> = {
  component: ComponentType<{ route: RouteOf<V> }>
  feature?: keyof Pick<Protocol.Features, 'send' | 'receive' | 'swaps' | 'onramp'>
}

// Only Connect is in the first chunk: it is drawn ahead while the modal is closed (issue 14). The
// views a click or a connection leads to load then; Account's chunk carries its Tokens tab.
const loadAccount = () => import('./Account/Account.js')
const Account = lazy(() => loadAccount().then((m) => ({ default: m.Account })))
const AllWallets = lazy(() => import('./AllWallets/AllWallets.js').then((m) => ({ default: m.AllWallets })))
const ConnectingExternal = lazy(() => loadConnectingExternal().then((m) => ({ default: m.ConnectingExternal })))
const Networks = lazy(() => import('./Networks/Networks.js').then((m) => ({ default: m.Networks })))
const UnsupportedChain = lazy(() => import('./UnsupportedChain/UnsupportedChain.js').then((m) => ({ default: m.UnsupportedChain })))
const loadSignInView = () => import('./SIWXSignMessage/SIWXSignMessage.js')
const loadConnectingExternal = () => import('./ConnectingExternal/ConnectingExternal.js')

/**
 * Once the person opened the modal (issue 14: never before), the small views a connection leads to
 * load in the background, so no spinner shows where the person waits on nothing: choosing a wallet,
 * the account, and the sign-in when the dapp asks for one.
 */
export function preloadAfterIntent(config: Protocol.Config) {
  void loadConnectingExternal()
  void loadAccount()
  if (config.siwx) void loadSignInView().then(() => import('../features/siwx/siwxFlow.js'))
}
const loadWalletConnectViews = () => import('./ConnectingWalletConnect/ConnectingWalletConnect.js')
// The Send flow's steps are one chunk (viem's encoder among them).
const loadSendViews = () => import('./Send/index.js')
const sendStep = <K extends keyof Awaited<ReturnType<typeof loadSendViews>>>(name: K) =>
  lazy(() => loadSendViews().then((m) => ({ default: m[name] })))
// The Swap flow's steps likewise (issue 11).
const loadSwapViews = () => import('./Swap/index.js')
const swapStep = <K extends keyof Awaited<ReturnType<typeof loadSwapViews>>>(name: K) =>
  lazy(() => loadSwapViews().then((m) => ({ default: m[name] })))
// The onramp's form and progress likewise (issue 12).
const loadOnRampViews = () => import('./OnRamp/index.js')
const onRampStep = <K extends keyof Awaited<ReturnType<typeof loadOnRampViews>>>(name: K) =>
  lazy(() => loadOnRampViews().then((m) => ({ default: m[name] })))
// The name views likewise (issue 13).
const loadNameViews = () => import('./RegisterAccountName/index.js')
const nameStep = <K extends keyof Awaited<ReturnType<typeof loadNameViews>>>(name: K) =>
  lazy(() => loadNameViews().then((m) => ({ default: m[name] })))

export const views: { [V in Route['view']]: Definition<V> } = {
  Connect: { component: Connect },
  Account: { component: Account },
  Networks: { component: () => <Networks /> },
  AllWallets: { component: AllWallets },
  // WalletConnect views are one lazy chunk (the QR encoder); the provider is another
  // (features/walletConnect/walletConnect.ts).
  ConnectingWalletConnectBasic: { component: lazy(() => loadWalletConnectViews().then((m) => ({ default: m.ConnectingWalletConnectBasic }))) },
  ConnectingWalletConnect: { component: lazy(loadWalletConnectViews) },
  ConnectingExternal: { component: ConnectingExternal },
  ApproveTransaction: { component: lazy(() => import('./ApproveTransaction/ApproveTransaction.js')) },
  ExportWallet: { component: lazy(() => import('./ExportWallet/ExportWallet.js')) },
  WalletSecurity: { component: lazy(() => import('./WalletSecurity/WalletSecurity.js')) },
  SmartSessionList: { component: lazy(() => import('./SmartSessionList/SmartSessionList.js')) },
  EmailLogin: { component: lazy(() => loadEmailLogin().then((m) => ({ default: m.EmailStep }))) },
  EmailVerifyOtp: { component: lazy(() => loadEmailLogin().then((m) => ({ default: m.EmailVerifyOtp }))) },
  EmailVerifyDevice: { component: lazy(() => loadEmailLogin().then((m) => ({ default: m.EmailVerifyDevice }))) },
  // Sign-in (issue 13): one view for both shapes, a chunk loaded only when the dapp turned sign-in on.
  SIWXSignMessage: { component: lazy(loadSignInView) },
  ConnectingSiwe: { component: lazy(loadSignInView) },
  ConnectingFarcaster: { component: lazy(() => import('./ConnectingFarcaster/ConnectingFarcaster.js')) },
  // Social sign-in (issue 24): reached only from Connect's social row, whose chunk it shares socialLogin.ts with.
  ConnectingSocial: { component: lazy(() => import('./ConnectingSocial/ConnectingSocial.js')) },
  UnsupportedChain: { component: UnsupportedChain },
  RegisterAccountName: { component: nameStep('RegisterAccountName') },
  RegisterAccountNameSuccess: { component: nameStep('RegisterAccountNameSuccess') },
  Send: { component: sendStep('Send'), feature: 'send' },
  SendAmount: { component: sendStep('SendAmount'), feature: 'send' },
  SendReceiver: { component: sendStep('SendReceiver'), feature: 'send' },
  SendPreview: { component: sendStep('SendPreview'), feature: 'send' },
  SendConfirm: { component: sendStep('SendConfirm'), feature: 'send' },
  SendResult: { component: sendStep('SendResult'), feature: 'send' },
  Receive: { component: lazy(() => import('./Receive/Receive.js')), feature: 'receive' },
  Swap: { component: swapStep('Swap'), feature: 'swaps' },
  SwapSelectToken: { component: swapStep('SwapSelectToken'), feature: 'swaps' },
  SwapPreview: { component: swapStep('SwapPreview'), feature: 'swaps' },
  SwapResult: { component: swapStep('SwapResult'), feature: 'swaps' },
  OnRamp: { component: onRampStep('OnRamp'), feature: 'onramp' },
  OnRampProgress: { component: onRampStep('OnRampProgress'), feature: 'onramp' },
}

export function View({ route }: { route: Route }) {
  const { component: Component } = views[route.view] as Definition<typeof route.view>
  return <Component route={route as never} />
}

/** The feature a view needs, if any: opening it with the feature off is refused. */
export function featureOf(view: Route['view']) {
  return views[view].feature
}
