/**
 * RPC method policy as data (STYLE.md "config is data"). Methods that act for the account need an
 * authorised connection (EIP-1193 4100 otherwise); everything else needs a connection (4900).
 */

/** Methods that move or sign for the account: a success refreshes the native balance (spec §4). */
export const unsafeMethods: ReadonlySet<string> = new Set([
  'eth_sendTransaction',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_signTransaction',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_requestExecutionPermissions',
  'wallet_watchAsset',
])

/**
 * EIP-5792's reads name the account's capabilities or its batches: without an authorised connection there
 * is nothing to answer for (EIP-5792 §wallet_getCapabilities: an error unless the app is authorised for the
 * address; wallets answer wallet_getCallsStatus with 4100 too). They move nothing.
 */
const accountReads = ['wallet_getCapabilities', 'wallet_getCallsStatus', 'wallet_showCallsStatus'] as const

/** Methods that need an authorised connection: 4100 without one. */
export const accountMethods: ReadonlySet<string> = new Set([...unsafeMethods, ...accountReads])
