// The UnsupportedChain view.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const unsupportedText = {
  message: "This app doesn't support your wallet's current network. Switch to a supported network to continue.",
  switchTo: 'Switch to {network}',
} as const
