// The name views (issue 13): one lazy chunk, loaded when a person chooses a name.
export { RegisterAccountName } from './RegisterAccountName.js'
export { RegisterAccountNameSuccess } from './RegisterAccountNameSuccess.js'
