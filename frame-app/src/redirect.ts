/**
 * The frame origin's redirect page (redirect.html; features/embedded/socialRedirect.ts): the dapp's page
 * arrives here in redirect mode and goes on to the secure-site's sign-in start, or, for any other
 * address, stays here and says so. Built on its own, with nothing of the app (frame-app/vite.config.ts).
 */
import { socialText } from '@doorway/shared/texts/social'
import { hopTarget } from './features/embedded/socialRedirect.js'

declare const __DOORWAY_SECURE_URL__: string

const target = hopTarget(location.href, __DOORWAY_SECURE_URL__)
document.querySelector('h1')!.textContent = socialText.progress
document.querySelector('p')!.textContent = target ? socialText.leaving : socialText.redirectInvalid
if (target) location.replace(target)
