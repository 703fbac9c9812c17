/**
 * The server steps of a secure-site screen that asks for a fresh code (key export, removing a device):
 * one step at a time, under the 30 s bound of spec §7, with what it is doing and how it ended said on the
 * screen's status line. Nothing is lost on a refusal: the screen stays where it was.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { secureText } from '@doorway/shared/texts/email'

/** What the steps need of a screen: its window, the caller's signal, its status line, and the step under way. */
export type Stepper = {
  readonly win: Window
  /** The caller's: aborted when the modal closes; a step ending after it says nothing. */
  readonly signal: AbortSignal
  readonly screen: { readonly status: HTMLElement }
  busy: boolean
  /** The step under way, aborted when the screen ends. */
  request: AbortController | undefined
}

/** Says `text` on the status line, as an alert when it is one (read out at once), else as a status. */
export function say(view: Stepper, text: string, alert = false) {
  view.screen.status.setAttribute('role', alert ? 'alert' : 'status')
  view.screen.status.textContent = text
}

/** Runs `work` as the screen's one step: `working` said meanwhile, then what it answers (or nothing), or its refusal as an alert. */
export async function run(view: Stepper, working: string, work: (signal: AbortSignal) => Promise<string | void>) {
  if (view.busy) return
  view.busy = true
  say(view, working)
  const current = (view.request = new AbortController())
  let timedOut = false
  const timer = view.win.setTimeout(() => ((timedOut = true), current.abort()), Constants.embeddedRequestTimeoutMs)
  try {
    say(view, (await work(current.signal)) ?? '')
  } catch (error) {
    if (view.signal.aborted) return
    say(view, timedOut ? secureText.timedOut : error instanceof Errors.DoorwayError ? error.message : secureText.unavailable, true)
  } finally {
    view.win.clearTimeout(timer)
    view.busy = false
  }
}
