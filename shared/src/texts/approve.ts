// Rendered by the secure-site itself, in its own frame (docs/embedded-wallet.md §7).
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const approveText = {
  from: 'From',
  to: 'To',
  network: 'Network',
  chainNumbered: 'Chain {id}',
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
} as const
