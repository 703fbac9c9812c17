/**
 * RPC method policy as data (STYLE.md "config is data"). Methods that act for the account need an
 * authorised connection (EIP-1193 4100 otherwise); everything else needs a connection (4900).
 */
export const accountMethods: ReadonlySet<string> = new Set([
  'eth_sendTransaction',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_signTransaction',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_watchAsset',
])
