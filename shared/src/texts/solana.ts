// The Solana library chunk of the frame (issue 23): every text a Solana send or its confirmation
// shows. A section of the text catalogue (../Texts.ts) in a module of its own: only the Solana
// chunk carries it. The spec's own texts are taken from the catalogue, never copied, so they stay verbatim.
import { errors } from '../Texts.js'

export const solanaText = {
  // spec §5 Solana validation message
  invalidSend: errors.invalidSendInput,
  // spec §8 Solana send failure
  sendFailed: errors.sendTransactionFailed,
  native: { name: 'Solana', symbol: 'SOL' },
  // Our own (the spec is silent): why a send cannot be made or did not land.
  rpcUnavailable: 'The Solana network did not answer. Check your connection and try again.',
  rentReceiver: 'A new Solana account must receive at least {amount} SOL (the rent-exempt minimum).',
  rentSender:
    'This would leave your account with less than {amount} SOL, the rent-exempt minimum Solana requires. Send everything, or keep at least that much.',
  rentUnknown: 'Solana refused this transaction: an account would be left below the rent-exempt minimum.',
  insufficientSol: 'Not enough SOL: this send needs {needed} SOL with the network fee, and your account holds {balance} SOL.',
  insufficientSolForTokenAccount:
    "Not enough SOL: this send needs {needed} SOL for the network fee and the receiver's new token account, and your account holds {balance} SOL.",
  insufficientToken: 'Not enough {symbol}: your account holds {balance}.',
  insufficientFee: 'Not enough SOL to pay the network fee.',
  createsTokenAccount: "Includes {amount} SOL to open the receiver's token account for this token.",
  offCurveReceiver: 'This address belongs to a program, not a wallet: tokens sent to it are usually lost.',
  expired: 'The transaction expired before it landed (its blockhash is too old). Try again.',
  failed: 'The transaction failed on chain: {reason}',
  badWalletAnswer: "The wallet's answer is not a signed Solana transaction.",
  badSignature: 'The wallet returned a transaction whose signature does not match it.',
} as const
