// issue 13: names (our own texts; spec §5 rule, §8 errors are in `errors`)
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const namesText = {
  choose: 'Choose a name',
  label: 'Name',
  hint: 'At least 4 characters: letters, digits and hyphens (-).',
  rules: {
    tooShort: 'A name has at least 4 characters.',
    characters: 'Only letters, digits and hyphens (-) are allowed.',
  },
  checking: 'Checking {name}',
  available: '{name} is available',
  taken: '{name} is taken',
  suggestions: 'Available names',
  register: 'Register name',
  confirmIn: 'Confirm in {wallet}',
  confirmHint: 'Sign the message in your wallet to prove this account is yours. It costs nothing.',
  registering: 'Registering {name}',
  registered: '{name} is now your name',
  registeredHint: 'People can send to this name instead of your address.',
  backToAccount: 'Back to account',
} as const
