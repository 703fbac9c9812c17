// The one English message catalogue of the product. Each section is its own export so a bundle only
// carries the sections it imports. Texts are the spec's, verbatim (typos included): tests and users
// match on them.

// spec §5, §8 and the EIP-1193 standard texts
// The errors the host SDK and the channel can raise: their own section so the 7 KB SDK bundles only
// these (spec §5, §8 and EIP-1193 texts among them), not the whole catalogue.
export const somethingWentWrong = 'Something went wrong'
export const requestAborted = 'Request was aborted'
export const invalidAccountId = 'Invalid CAIP-10 address'
export const invalidChainId = 'Invalid CAIP-2 network id'
export const siweConfigAndSiwx = 'Cannot set both `siweConfig` and `siwx` options'
export const requestTimedOut = 'Request timed out'
export const frameUnavailable = 'Unable to load the wallet modal'
export const invalidOption = 'Invalid option `{option}`'
export const unknownWallet = 'Unknown wallet: it was not announced'
export const userRejected = 'User rejected the request.'
export const unauthorized = 'The requested method and/or account has not been authorized by the user.'
export const unsupportedMethod = 'The requested method is not supported by this Ethereum provider.'
export const disconnected = 'The provider is disconnected from all chains.'
export const chainDisconnected = 'The provider is disconnected from the specified chain.'
export const unrecognizedChain = 'Unrecognized chain ID.'

/** The same texts as one section, for the frame and tests. */
export const core = {
  somethingWentWrong,
  requestAborted,
  invalidAccountId,
  invalidChainId,
  siweConfigAndSiwx,
  requestTimedOut,
  frameUnavailable,
  invalidOption,
  unknownWallet,
  userRejected,
  unauthorized,
  unsupportedMethod,
  disconnected,
  chainDisconnected,
  unrecognizedChain,
} as const

export const errors = {
  featureOff: 'The {view} view needs features.{feature} to be on',
  notInitialized: 'The wallet modal is not initialised yet',
  // spec §8 toasts and thrown errors
  tokenBalanceUnavailable: 'Token Balance Unavailable',
  transactionStarted: 'Transaction started',
  sendTransactionFailed: 'Failed to send transaction. Please try again.',
  fetchTransactionsFailed: 'Failed to fetch transactions',
  gasPriceNetworkNotSupported: 'Network not supported for Gas Price',
  swapsNetworkNotSupported: 'Network not supported for Swaps',
  unsupportedChain: 'Unsupported chain',
  authenticationInitFailed: 'A problem occurred while trying initialize authentication',
  signatureDeclined: 'Signature declined',
  smartAccountsNotSupported: 'This application might not support Smart Accounts',
  // spec §8 sign-in (SIWX)
  siwxNotEnabled: 'SIWX is not enabled',
  noActiveCaipAddress: 'No ActiveCaipAddress found',
  noActiveCaipNetwork: 'No ActiveCaipNetwork or client found',
  noConnectionControllerClient: 'No ConnectionController client found',
  // spec §8 adapters and networks
  adapterNotFound: 'Adapter not found',
  caipNetworkNotFound: 'CaipNetwork not found',
  adapterForNamespaceNotFound: "Adapter for namespace {ns} doesn't exist",
  networkWithIdNotFound: 'Network with ID {id} not found',
  cannotRemoveLastNetwork: 'Cannot remove last network for a namespace',
  chainNotSupported: 'Chain is not supported',
  // spec §8 name registration; the API's first reason description is preferred over the fallbacks
  networkNotFound: 'Network not found',
  addressOrAuthConnectorNotFound: 'Address or auth connector not found',
  resolveNameFailed: 'Error resolving name',
  fetchNameSuggestionsFailed: 'Error fetching name suggestions',
  fetchNamesForAddressFailed: 'Error fetching names for address',
  registerNameFailed: 'Error registering name {name}',
  // spec §8 embedded-wallet generic messages ('Something went wrong' is shared above)
  anErrorOccurred: 'An error occurred',
  emailLoginDependencyUnavailable: 'Unable to load email login dependency',
  // spec §5 validation
  invalidSendInput: 'Please enter a valid amount and receiver address',
  emailLoginThrottled: 'Please try again after {n} seconds',
  // our own: the channel to the modal frame and createModal options (not in the spec)
  // EIP-1193 provider errors, standard texts (4001, 4100, 4200, 4900, 4901, 4902)
} as const

// spec §8 alerts: each is shown once; wallet-connect provider errors map onto these keys
export const alerts = {
  // spec §5: a missing project id raises a configuration alert
  projectIdNotConfigured: {
    title: 'Project ID Not Configured',
    message: 'A projectId is required. Pass projectId to createModal() — see the README.',
  },
  // spec §8: analytics HTTP 403
  invalidAppConfiguration: {
    title: 'Invalid App Configuration',
    message: 'Origin {origin} not found on Allowlist - update configuration',
  },
  switchNetworkNotFound: {
    title: 'Network Not Found',
    message: "Network not found - please make sure it is included in the 'networks' option",
  },
  socialsTimeout: {
    title: 'Invalid App Configuration',
    message: 'There was an issue loading the embedded wallet. Please verify that your domain is allowed.',
  },
  // wallet-connect provider errors (relay rejected the origin, the key or the session token)
  unverifiedDomain: {
    title: 'Invalid App Configuration',
    message: 'There was an issue loading the embedded wallet. Please verify that your domain is allowed.',
  },
  projectIdInvalid: {
    title: 'Invalid App Configuration',
    message: 'Invalid Project ID - update configuration',
  },
  sessionExpired: {
    title: 'Session Expired',
    message: 'Invalid session found - please check the time settings on your device',
  },
} as const

/** The `{name}` placeholders of a template, so a literal template checks its values at compile time. */
export type Placeholders<template extends string> = string extends template
  ? string
  : template extends `${string}{${infer key}}${infer rest}`
    ? key | Placeholders<rest>
    : never

/**
 * Fills `{name}` placeholders. A missing value throws rather than shipping a literal `{name}` to a user.
 * @example format(errors.registerNameFailed, { name: 'alice' }) // 'Error registering name alice'
 */
export function format<template extends string>(
  template: template,
  values: Record<Placeholders<template>, string | number>,
): string {
  const table = values as Record<string, string | number>
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (!Object.hasOwn(table, key)) throw new Error(`Missing value for placeholder {${key}}`)
    return String(table[key])
  })
}

/** Text the host SDK needs: kept apart so the SDK bundles only these few strings. */
export const sdk = {
  dialogLabel: 'Wallet connection',
  frameTitle: 'Doorway wallet',
  projectIdMissing: 'createModal(): projectId is missing',
} as const

/** The frame-app's interface text. View titles double as the dialog's accessible name. */
export const ui = {
  frame: {
    standalone: 'This page is the Doorway wallet modal. It opens inside a site that uses Doorway.',
  },
  modal: { close: 'Close', back: 'Back', loading: 'Loading', dismissAlert: 'Dismiss alert' },
  views: {
    Connect: 'Connect Wallet',
    Account: 'Account',
    AllWallets: 'All Wallets',
    ConnectingWalletConnectBasic: 'WalletConnect',
    ApproveTransaction: 'Approve Transaction',
    SIWXSignMessage: 'Sign In',
    ConnectingExternal: 'Connecting',
    ConnectingWalletConnect: 'WalletConnect',
    ConnectingSiwe: 'Sign In',
    ConnectingFarcaster: 'Farcaster',
    EmailVerifyOtp: 'Confirm Email',
    ExportWallet: 'Export Wallet',
    UnsupportedChain: 'Switch Network',
    RegisterAccountName: 'Choose Name',
    RegisterAccountNameSuccess: 'Name Registered',
    Networks: 'Choose Network',
    Send: 'Send',
    SendAmount: 'Send',
    SendReceiver: 'Send',
    SendPreview: 'Review Send',
    SendConfirm: 'Confirm Send',
    SendResult: 'Transaction',
    Receive: 'Receive',
    Swap: 'Swap',
    SwapSelectToken: 'Select Token',
    SwapPreview: 'Review Swap',
    SwapResult: 'Swap',
    OnRamp: 'Buy Crypto',
  },
  // Honest placeholders: what is not built yet says so, and shows no made-up data.
  later: {
    siwx: 'Sign-in with your wallet is not available in this version yet.',
    farcaster: 'Farcaster login is not available in this version yet.',
    names: 'Name registration is not available in this version yet.',
    socials: 'Login with {providers} is not available in this version yet.',
    onramp: 'Buying crypto is not available in this version yet.',
  },
  connect: {
    or: 'or',
    installed: 'Installed',
    recent: 'Recent',
    waiting: 'Continue in {wallet}',
    waitingHint: 'Accept the connection request in your wallet.',
    declined: 'Connection declined',
    declinedHint: 'You declined the request in {wallet}. You can try again.',
    failed: 'Connection failed',
    retry: 'Try again',
    walletMissing: 'This wallet is no longer available on this page.',
    email: 'Email',
    socials: 'Social login',
    wallets: 'Wallets',
    continueWithWallet: 'Continue with a wallet',
    featured: 'Featured wallets',
    recommended: 'Recommended wallets',
    legalPrefix: 'By connecting your wallet, you agree to our',
    terms: 'Terms of Service',
    and: 'and',
    privacy: 'Privacy Policy',
  },
  socials: {
    google: 'Google',
    x: 'X',
    discord: 'Discord',
    farcaster: 'Farcaster',
    github: 'GitHub',
    apple: 'Apple',
    facebook: 'Facebook',
  },
  secure: {
    title: 'Doorway secure wallet',
    loading: 'Secure wallet frame: loading',
    ready: 'Secure wallet frame: connected to {origin}',
    error: 'Secure wallet frame: could not be reached',
  },
  // The embedded wallet's login in the modal (spec §2 Connect, §5 rules, §7 30 s timeouts).
  email: {
    label: 'Email',
    placeholder: 'you@example.com',
    submit: 'Continue',
    sending: 'Sending code',
    invalid: 'Enter a valid email address',
    codeTitle: 'Enter the code',
    codeSent: 'We sent a 6-digit code to {email}',
    codeMailHint: 'It can take a few seconds to arrive. The code expires in 10 minutes.',
    digit: 'Digit {n} of 6',
    codeGroup: 'One-time code',
    verifying: 'Checking the code',
    codeInvalid: 'Enter the 6 digits of the code',
    resend: 'Resend code',
    resendIn: 'Resend code in {n} s',
    resent: 'A new code is on its way',
    otherEmail: 'Use another email',
    timedOut: 'The secure wallet did not answer in 30 seconds. Check your connection and try again.',
    unavailable: 'The secure wallet could not be reached. Try again in a moment.',
    retry: 'Try again',
    // the server's refusals (notes/embedded-wallet.md §4.4), one message each
    wrong: 'That code is not right. {n} attempts left.',
    wrongLast: 'That code is not right. This was the last attempt: request a new code.',
    expired: 'This code has expired. Request a new code.',
    used: 'This code was already used. Request a new code.',
    exhausted: 'Too many wrong attempts. Request a new code.',
    otherDevice: 'This code was requested from another browser. Request a new code here.',
    locked: 'Too many failed attempts for this email. Sign-in is locked for 24 hours.',
    hourly: 'Too many codes for this email this hour. Please try again after {n} seconds',
    tampered: 'The wallet could not be rebuilt safely on this device, so nothing was signed.',
    mailFailed: 'The code email could not be sent. Try again in a moment.',
  },
  embedded: {
    name: 'Email wallet',
    signOut: 'Sign out',
    signedOut: 'Signed out of the email wallet on this device',
    fund: 'Fund 1 ETH (devnet)',
    approveTitle: 'Approve in the secure wallet',
    approveHint: 'The request is shown by the secure wallet, on its own origin. Review it there.',
    notAllowed: 'Action not allowed: {method}',
    export: 'Export wallet',
    exportHint: 'Your recovery phrase and key are shown only by the secure wallet, on its own origin.',
  },
  // Key export, rendered by the secure-site itself (notes/embedded-wallet.md §4.8).
  exportKey: {
    title: 'Export your wallet',
    warning: 'Your recovery phrase and private key give full control of this wallet. Anyone who sees them can take your funds. Doorway will never ask you for them.',
    confirm: 'To continue, confirm it is you: unless you signed in during the last 5 minutes, we send a code to the email of this wallet.',
    codeSent: 'We sent a 6-digit code to {email}.',
    start: 'Continue',
    starting: 'Checking your sign-in…',
    codeLabel: 'Code from the email',
    verify: 'Confirm',
    verifying: 'Checking the code…',
    reveal: 'Reveal',
    holdReveal: 'Hold to reveal',
    revealHint: 'Make sure nobody can see your screen.',
    phrase: 'Recovery phrase',
    privateKey: 'Private key',
    copyPhrase: 'Copy recovery phrase',
    copyKey: 'Copy private key',
    copied: 'Copied',
    copyFailed: 'Could not copy: select the text instead',
    done: 'Done',
    cancel: 'Cancel',
    hidden: 'This screen is covered or hidden, so nothing is shown.',
  },
  // Rendered by the secure-site itself, in its own frame (notes/embedded-wallet.md §4.7).
  approve: {
    title: 'Approve request',
    from: 'From',
    to: 'To',
    network: 'Network',
    value: 'Value',
    fee: 'Max network fee',
    data: 'Data',
    call: 'Call',
    contractCreation: 'New contract',
    message: 'Message',
    messageHex: 'Message (hex)',
    typedData: 'Typed data',
    domain: 'Domain',
    primaryType: 'Type',
    host: 'Requested by',
    hostReported: '{origin} (reported by the modal)',
    hostAttested: '{origin} (checked by the browser)',
    methods: {
      personal_sign: 'Sign a message',
      eth_signTypedData_v4: 'Sign typed data',
      eth_sendTransaction: 'Send a transaction',
    },
    approve: 'Approve',
    hold: 'Hold to approve',
    reject: 'Reject',
    waitVisible: 'Approve becomes available once this request has been fully visible for a moment.',
    hidden: 'This request is covered or hidden, so it cannot be approved.',
    custody: 'Automatic recovery: the operator\'s server and vault together could recover this wallet.',
  },
  account: {
    copy: 'Copy address',
    copied: 'Address copied',
    copyFailed: 'Could not copy the address',
    balance: 'Balance',
    balanceUnavailable: 'Balance unavailable',
    disconnect: 'Disconnect',
    unsupportedNetwork: 'Unsupported network',
    notConnected: 'No wallet is connected.',
    connect: 'Connect a wallet',
    network: 'Network',
    sections: 'Account sections',
    tokens: 'Tokens',
    nfts: 'NFTs',
    activity: 'Activity',
    historyOff: 'Transaction history is turned off for this app.',
    actions: 'Wallet actions',
    // The wallet features of walletFeaturesOrder (spec §1), as Account's action buttons.
    features: { onramp: 'Buy', swaps: 'Swap', receive: 'Receive', send: 'Send' },
  },
  walletConnect: {
    entry: 'WalletConnect',
    entryTag: 'QR code',
    anyWallet: 'your wallet',
    ways: 'Ways to connect',
    tabs: { qrcode: 'QR Code', mobile: 'Mobile', browser: 'Browser', web: 'Web App', desktop: 'Desktop' },
    scan: 'Scan this QR code with your phone',
    qr: 'QR code to connect {wallet}',
    creating: 'Preparing a connection',
    relayTimeout: 'The connection service did not answer. Check your internet connection and try again.',
    copyLink: 'Copy link',
    copied: 'Link copied',
    copyFailed: 'Could not copy the link',
    open: 'Open {wallet}',
    noWallet: "Don't have {wallet}?",
    get: 'Get',
    webHint: '{wallet} opens in a new tab, where you accept the connection.',
    desktopHint: 'Open the {wallet} app on this computer and accept the connection.',
    browserHint: 'Install the {wallet} browser extension, then reload this page to connect with it.',
    getExtension: 'Get the extension',
    declinedHint: 'The connection was declined in {wallet}. Try again for a new code.',
    otherWallets: 'Wallets',
  },
  allWallets: {
    search: 'Search wallets',
    list: 'All wallets',
    empty: 'No wallet matches your search.',
    failed: 'The wallet list could not be loaded.',
  },
  // The Activity tab (spec §2 transaction history display).
  activity: {
    operations: {
      send: 'Sent',
      receive: 'Received',
      trade: 'Swapped',
      mint: 'Minted',
      burn: 'Burned',
      approve: 'Approved',
      deposit: 'Deposited',
      withdraw: 'Withdrew',
      borrow: 'Borrowed',
      repay: 'Repaid',
      claim: 'Claimed',
      execute: 'Executed',
      deploy: 'Deployed',
    },
    status: { confirmed: 'Confirmed', failed: 'Failed', pending: 'Pending' },
    to: 'To {address}',
    from: 'From {address}',
    route: '{from} → {to}',
    nft: 'NFT',
    explorer: '{entry}: view on the explorer',
    empty: 'No activity yet',
    loadMore: 'Load more',
    retry: 'Retry',
  },
  nfts: {
    empty: 'No NFTs yet',
    failed: 'NFTs could not be loaded.',
    count: '×{n}',
    owned: '{n} owned',
    loadMore: 'Load more',
    retry: 'Retry',
  },
  tokens: {
    unavailable: 'Token balances could not be loaded.',
    retry: 'Try again',
    retryIn: 'in {seconds} s',
    empty: 'No tokens on this network yet.',
  },
  send: {
    tokens: 'Tokens you can send',
    noTokens: 'This account holds no tokens on this network.',
    preparing: 'Preparing the send',
    amount: 'Amount',
    balance: 'Balance: {amount}',
    max: 'Max',
    maxHint: 'Max keeps back the network fee',
    inUsd: 'Value in US dollars',
    receiver: 'Address or name',
    receiverHint: 'An address (0x followed by 40 hex digits) or a name such as alice.doorway.id',
    resolving: 'Looking up {name}',
    resolvedTo: '{name} is {address}',
    continue: 'Continue',
    toSelf: 'This is your own address.',
    toToken: 'This is a token contract: tokens sent to it are usually lost for good.',
    sending: 'Sending',
    to: 'To',
    network: 'Network',
    fee: 'Network fee',
    estimating: 'Estimating the network fee',
    insufficientGas: 'Not enough {symbol} to pay the network fee.',
    insufficientTotal: 'Not enough {symbol} for this amount plus the network fee.',
    feeFailed: 'The network fee could not be estimated: {reason}',
    send: 'Send',
    tryAgain: 'Try again',
    confirmIn: 'Confirm in {wallet}',
    confirmHint: 'Approve the transaction in your wallet. Nothing is sent until you do.',
    rejected: 'You cancelled the transaction in your wallet. Nothing was sent.',
    timedOut: 'Your wallet did not answer in time. Nothing was sent; you can try again.',
    hash: 'Transaction hash',
    copyHash: 'Copy transaction hash',
    hashCopied: 'Transaction hash copied',
    copyFailed: 'Could not copy the transaction hash',
    explorer: 'View on the explorer',
    pending: 'Pending',
    confirmed: 'Confirmed',
    failed: 'Failed on chain',
    done: 'Done',
    // issue 8: clear errors for open({ view: 'Send', arguments }) (our own, not in the spec)
    badArgument: 'Invalid Send argument `{name}`: {reason}',
    argumentReasons: {
      assetAddress: 'expected a token contract address (0x… or CAIP-10) on one of the app networks',
      amount: 'expected a positive decimal number such as 0.01',
      to: 'expected an address or a name',
      chainId: 'expected one of the app networks',
      unknown: 'not one of assetAddress, amount, to, chainId',
    },
    assetNotHeld: 'This account holds no {token} on {network}.',
    // Field errors, beside the field; the spec's own message sums them up (spec §5).
    errors: {
      amountRequired: 'Enter an amount greater than 0.',
      amountDecimals: '{symbol} has at most {decimals} decimals.',
      amountAboveBalance: 'Insufficient funds: the amount is more than your balance.',
      receiverInvalid: 'Enter a valid address (0x followed by 40 hex digits) or a name.',
      receiverChecksum: 'This address has a wrong checksum: check it for a typo.',
    },
  },
  // issue 11: the Swap flow (our own texts; the spec names only 'Network not supported for Swaps')
  swap: {
    pay: 'You pay',
    receive: 'You receive',
    payAmount: 'Amount to pay',
    receiveAmount: 'Amount to receive',
    receiveHint: 'From the quote; the exchange sets it',
    payToken: 'Token to pay: {symbol}',
    receiveToken: 'Token to receive: {symbol}',
    chooseToken: 'Choose a token',
    flip: 'Switch the tokens to pay and receive',
    max: 'Max',
    maxHint: 'Max keeps back the network fee',
    balance: 'Balance: {amount}',
    inUsd: 'Value in US dollars',
    search: 'Search by name or symbol',
    yourTokens: 'Your tokens',
    allTokens: 'All tokens',
    noMatch: 'No token matches “{query}”.',
    noTokens: 'No tokens can be swapped on {network} yet.',
    loadingTokens: 'Loading the tokens you can swap',
    tokenNotFound: 'No token {token} can be swapped on {network}.',
    preparing: 'Preparing the swap',
    quoting: 'Getting a quote',
    quoteFor: 'Quote: {amount} for {pay}',
    rate: 'Rate',
    rateValue: '1 {from} = {rate} {to}',
    priceImpact: 'Price impact',
    highImpact: 'High price impact ({impact}): the pool gives you much less than the market. Try a smaller amount.',
    fee: 'Exchange fee',
    networkFee: 'Network fee',
    minimum: 'You receive at least',
    slippage: 'Slippage tolerance',
    slippageCustom: 'Custom slippage (%)',
    slippageHint: 'The swap is cancelled if the price moves against you by more than this.',
    percent: '{value} %',
    review: 'Review swap',
    retry: 'Retry',
    errors: {
      amountRequired: 'Enter an amount greater than 0.',
      amountDecimals: '{symbol} has at most {decimals} decimals.',
      notEnough: 'Not enough {symbol}',
      notEnoughForFee: 'Not enough {symbol} to pay the network fee',
      chooseTokens: 'Choose the tokens to pay and receive.',
      noLiquidity: 'No liquidity for this pair: nothing can be swapped between {from} and {to} yet.',
      aboveReserves: 'This amount is more than the pool can trade. Try a smaller amount.',
      noRoute: 'No route from {from} to {to}.',
      quoteFailed: 'The quote failed: {reason}',
      slippage: 'Enter a slippage from 0.01 % to 50 %.',
    },
    steps: 'Step {n} of {total}',
    approveTitle: 'Approve {symbol}',
    approveHint: 'Lets the exchange take the {symbol} you swap. Asked once per amount.',
    approveButton: 'Approve {symbol}',
    approving: 'Waiting for the approval to be confirmed',
    approved: '{symbol} approved',
    approveFailed: 'The approval failed on chain. Nothing was swapped.',
    swapTitle: 'Swap {from} for {to}',
    swapButton: 'Swap',
    confirmIn: 'Confirm in {wallet}',
    rejected: 'You cancelled the request in your wallet. Nothing was swapped.',
    timedOut: 'Your wallet did not answer in time. Nothing was swapped; you can try again.',
    quoteRefreshed: 'The quote was more than 30 seconds old: these are the new numbers.',
    pending: 'Swap pending',
    confirmed: 'Swap confirmed',
    failed: 'Swap failed',
    received: 'Received',
    sent: 'Paid',
    reverted: 'The price moved more than your {slippage} slippage; nothing was swapped.',
    backToSwap: 'Back to the swap',
    // issue 11: clear errors for open({ view: 'Swap', arguments })
    badArgument: 'Invalid Swap argument `{name}`: {reason}',
    argumentReasons: {
      token: 'expected a token symbol, a contract address (0x… or CAIP-10) on one of the app networks, or ETH',
      amount: 'expected a positive decimal number such as 0.01',
      sameToken: 'must be another token than fromToken',
      unknown: 'not one of fromToken, toToken, amount',
    },
  },
  receive: {
    qr: 'QR code of your address',
    address: 'Your address',
    copy: 'Copy address',
    networks: 'Networks this address receives on',
    warning: 'Send only assets on these networks to this address. Assets sent on another network may be lost.',
  },
  networks: { list: 'Networks', active: 'Active', testnet: 'Testnet', switching: 'Switching network' },
  unsupported: {
    message: "This app doesn't support your wallet's current network. Switch to a supported network to continue.",
    switchTo: 'Switch to {network}',
  },
} as const
