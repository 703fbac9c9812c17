import '../approval/approval.css'
import './login.css'
import * as Constants from '@doorway/shared/Constants'
import * as Email from '@doorway/shared/Email'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { secureText } from '@doorway/shared/texts/email'
import { Aborted } from '../approval/Approval.js'
import { element } from '../approval/guard.js'
import { type Account, Refusal } from '../wallet/Wallet.js'

// The embedded wallet's email and code screens (docs/embedded-wallet.md §6), drawn by the secure-site in
// its own frame over the modal's slot: the address and the one-time code are typed only in this DOM, and
// the frame learns only the outcome. The server's refusals (Wallet.Refusal, docs/embedded-wallet.md §4)
// shape them: a throttle counts down, a dead code asks for a new one, a 24 h lock leaves another email.

export declare namespace showEmail {
  type Options = {
    /** Mails the code for `email` (Wallet.connectEmail bound to the wallet and the attested host). */
    send(email: string, signal: AbortSignal): Promise<void>
    /** Prefill: the email typed last in this page's life, or ''. */
    email: string
    /** Why an email is asked, above the field (after a Farcaster sign-in, which gives none). */
    note?: string
    /** Aborted by the caller (view left, modal closed): the screen is removed, the promise rejects with Aborted. */
    signal: AbortSignal
    window?: Window
  }
}

/** The email screen on the page: what `showEmail` was given, its elements, and where the sending is. */
type EmailForm = {
  readonly shell: Shell<{ email: string } | 'close'>
  readonly options: showEmail.Options
  readonly input: HTMLInputElement
  readonly submit: HTMLButtonElement
  sending: boolean
  /** The last request timed out: Continue reads Try again. */
  retry: boolean
  /** When a throttle ends: Continue counts down until then. */
  until: number
}

/** Resolves once the code was mailed, with the normalized email; 'close' when the person pressed Escape. */
export function showEmail(root: HTMLElement, options: showEmail.Options): Promise<{ email: string } | 'close'> {
  return mount<{ email: string } | 'close'>(root, options, { label: secureText.label, close: 'close' }, (shell) => {
    const view: EmailForm = { shell, options, ...renderEmail(shell, options.email, options.note), sending: false, retry: false, until: 0 }
    shell.listen(view.input, 'input', () => redrawEmail(view))
    shell.listen(view.submit.form!, 'submit', (event) => {
      event.preventDefault()
      void send(view)
    })
    redrawEmail(view)
    return view.input
  })
}

function renderEmail(shell: Shell<unknown>, email: string, note?: string) {
  const { doc } = shell
  const form = element(doc, 'form', 'login-form')
  form.noValidate = true
  if (note) {
    const intro = element(doc, 'p', 'login-note', note)
    intro.id = `${shell.id}-note`
    form.append(intro)
  }
  const field = element(doc, 'div', 'login-field')
  const label = element(doc, 'label', 'login-label', secureText.label)
  const input = element(doc, 'input', 'login-input')
  input.id = label.htmlFor = `${shell.id}-email`
  Object.assign(input, { type: 'email', inputMode: 'email', autocomplete: 'email', spellcheck: false, placeholder: secureText.placeholder, value: email })
  input.setAttribute('aria-describedby', note ? `${shell.id}-note ${shell.status.id}` : shell.status.id)
  const submit = button(doc, 'login-primary', secureText.submit)
  submit.type = 'submit'
  field.append(label, input)
  form.append(field, shell.status, submit)
  shell.section.append(form)
  return { input, submit }
}

/** Draws the field and Continue from the state and the clock; a throttle redraws it each second. */
function redrawEmail(view: EmailForm) {
  tick(view.shell, (now) => {
    const { input, submit } = view
    const wait = secondsUntil(view.until, now)
    if (wait === 0) endThrottle(view.shell)
    input.disabled = view.sending
    submit.disabled = view.sending || wait > 0 || !input.value.trim()
    submit.textContent = view.sending
      ? secureText.sending
      : wait > 0 ? format(secureText.continueIn, { n: wait }) : view.retry ? secureText.retry : secureText.submit
    return [view.until]
  })
}

async function send(view: EmailForm) {
  const { shell, input } = view
  if (view.sending || secondsUntil(view.until, Date.now()) > 0 || !input.value.trim()) return
  // spec §5: a valid format, checked here before anything is asked of the server.
  const email = Email.normalize(input.value)
  input.setAttribute('aria-invalid', String(!email))
  if (!email) {
    say(shell, secureText.invalid, true)
    return input.focus()
  }
  Object.assign(view, { sending: true, retry: false })
  say(shell, '')
  redrawEmail(view)
  try {
    await request(shell, (signal) => view.options.send(email, signal))
    shell.end({ email })
  } catch (error) {
    if (shell.ended()) return
    const refusal = failure(error)
    // What may work a moment later (no answer, no mail sent, no server) offers Try again.
    Object.assign(view, { sending: false, retry: refusal.timedOut || refusal.reason === 'mail' || refusal.message === secureText.unavailable })
    if (refusal.retryAfter) view.until = Date.now() + refusal.retryAfter * 1000
    say(shell, refusal.message, true, !!refusal.retryAfter)
    redrawEmail(view)
    input.focus()
  }
}

export declare namespace showCode {
  type Options = {
    email: string
    /** Wallet.connectOtp bound to the wallet. */
    verify(code: string, signal: AbortSignal): Promise<Account | 'VERIFY_DEVICE'>
    /** Mails a new code to the same email (Wallet.connectEmail again). */
    resend(signal: AbortSignal): Promise<void>
    /** Epoch ms when a new code may be asked for (30 s after the last one, spec §5). */
    resendAt: number
    signal: AbortSignal
    window?: Window
  }
}

type CodeOutcome = { account: Account } | { action: 'VERIFY_DEVICE' } | { action: 'otherEmail' | 'close' }

const digits = 6
/** Refusals after which this code can never work: only a new one helps (docs/embedded-wallet.md §4). */
const deadReasons = new Set(['exhausted', 'expired', 'used', 'otherDevice'])

/** The code screen on the page: what `showCode` was given, its elements, and what the server has said. */
type Code = {
  readonly shell: Shell<CodeOutcome>
  readonly options: showCode.Options
  readonly fields: HTMLInputElement[]
  readonly submit: HTMLButtonElement
  readonly resend: HTMLButtonElement
  readonly other: HTMLButtonElement
  busy: 'verifying' | 'sending' | undefined
  resendAt: number
  /** When a throttle ends: until then neither Continue nor Resend can succeed. */
  until: number
  /** This code can never work: the fields wait for a new one. */
  dead: boolean
  /** The email is locked for 24 h: only another email is left. */
  locked: boolean
}

/** The code step: six digit fields that submit when full, Resend after the throttle, or another email. */
export function showCode(root: HTMLElement, options: showCode.Options): Promise<CodeOutcome> {
  return mount<CodeOutcome>(root, options, { label: secureText.codeTitle, close: { action: 'close' } }, (shell) => {
    const view: Code = { shell, options, ...renderCode(shell, options.email), busy: undefined, resendAt: options.resendAt, until: 0, dead: false, locked: false }
    const { fields, submit, resend, other } = view
    fields.forEach((field, at) => wireDigit(view, field, at))
    shell.listen(submit.form!, 'submit', (event) => {
      event.preventDefault()
      void verify(view)
    })
    shell.listen(resend, 'click', () => void sendAgain(view))
    shell.listen(other, 'click', () => shell.end({ action: 'otherEmail' }))
    redraw(view)
    return fields[0]!
  })
}

function renderCode(shell: Shell<CodeOutcome>, email: string) {
  const { doc } = shell
  const form = element(doc, 'form', 'login-form')
  form.noValidate = true
  const intro = element(doc, 'div', 'login-intro')
  intro.append(element(doc, 'p', 'login-sent', format(secureText.codeSent, { email })), element(doc, 'p', 'login-hint', secureText.codeMailHint))
  const group = element(doc, 'div', 'login-digits')
  group.setAttribute('role', 'group')
  group.setAttribute('aria-label', secureText.codeGroup)
  const fields = Array.from({ length: digits }, (_, at) => {
    const field = element(doc, 'input', 'login-digit')
    // The first field takes a whole code: the keyboard's suggestion, a paste, or a test's fill.
    Object.assign(field, { inputMode: 'numeric', autocomplete: at === 0 ? 'one-time-code' : 'off', maxLength: at === 0 ? digits : 1, spellcheck: false })
    field.setAttribute('aria-label', format(secureText.digit, { n: at + 1 }))
    field.setAttribute('aria-describedby', shell.status.id)
    return field
  })
  group.append(...fields)
  const submit = button(doc, 'login-primary', secureText.submit)
  submit.type = 'submit'
  const resend = button(doc, 'login-secondary', secureText.resend)
  const other = button(doc, 'login-secondary', secureText.otherEmail)
  form.append(intro, group, shell.status, submit, resend, other)
  shell.section.append(form)
  return { fields, submit, resend, other }
}

/** Typing, pasting, Backspace and the arrows in one digit field. */
function wireDigit(view: Code, field: HTMLInputElement, at: number) {
  const { shell, fields } = view
  shell.listen(field, 'input', () => fill(view, at, field.value))
  shell.listen(field, 'paste', (event) => {
    event.preventDefault()
    fill(view, at, (event as ClipboardEvent).clipboardData?.getData('text') ?? '')
  })
  // A filled field is replaced by the next digit typed in it (maxLength 1 would refuse it otherwise).
  shell.listen(field, 'focus', () => field.select())
  shell.listen(field, 'keydown', (event) => {
    if (event.key === 'Backspace' && !field.value && at > 0) {
      event.preventDefault()
      fields[at - 1]!.value = ''
      fields[at - 1]!.focus()
      redraw(view)
    } else if (event.key === 'ArrowLeft' && at > 0) fields[at - 1]!.focus()
    else if (event.key === 'ArrowRight' && at < digits - 1) fields[at + 1]!.focus()
  })
}

/** Typed or pasted at field `at`: the digits fill it and the ones after; a full code is checked at once. */
function fill(view: Code, at: number, typed: string) {
  const { fields } = view
  const chars = typed.replace(/\D/g, '').slice(0, digits - at).split('')
  if (chars.length === 0) fields[at]!.value = ''
  chars.forEach((char, i) => (fields[at + i]!.value = char))
  invalid(view, false)
  redraw(view)
  if (/^\d{6}$/.test(code(view)) && !blocked(view, Date.now())) return void verify(view)
  if (chars.length > 0) fields[Math.min(at + chars.length, digits - 1)]!.focus()
}

const code = (view: Code) => view.fields.map((field) => field.value).join('')

/** Whether a code cannot be checked now: a request under way, a dead code, the lock or a throttle. */
const blocked = (view: Code, now: number) => !!view.busy || view.dead || view.locked || secondsUntil(view.until, now) > 0

/** Draws the code screen's fields and buttons from its state and the clock; a countdown redraws it each second. */
function redraw(view: Code) {
  tick(view.shell, (now) => {
    const { fields, submit, resend } = view
    const wait = secondsUntil(view.until, now)
    const resendWait = view.locked ? 0 : secondsUntil(Math.max(view.resendAt, view.until), now)
    if (wait === 0) endThrottle(view.shell)
    for (const field of fields) field.disabled = !!view.busy || view.dead || view.locked
    submit.disabled = blocked(view, now) || !/^\d{6}$/.test(code(view))
    submit.textContent = wait > 0 ? format(secureText.continueIn, { n: wait }) : secureText.submit
    resend.disabled = !!view.busy || view.locked || resendWait > 0
    // A dead code leaves a new one as the way on: it is the main action then.
    resend.className = view.dead ? 'login-primary' : 'login-secondary'
    resend.textContent = view.dead
      ? resendWait > 0 ? format(secureText.newCodeIn, { n: resendWait }) : secureText.newCode
      : resendWait > 0 ? format(secureText.resendIn, { n: resendWait }) : secureText.resend
    return [view.until, view.resendAt]
  })
}

function clear(view: Code) {
  for (const field of view.fields) field.value = ''
}

function invalid(view: Code, on: boolean) {
  for (const field of view.fields) field.setAttribute('aria-invalid', String(on))
}

async function verify(view: Code) {
  const typed = code(view)
  if (blocked(view, Date.now()) || !/^\d{6}$/.test(typed)) return
  view.busy = 'verifying'
  say(view.shell, secureText.verifying)
  redraw(view)
  try {
    const verified = await request(view.shell, (signal) => view.options.verify(typed, signal))
    view.shell.end(verified === 'VERIFY_DEVICE' ? { action: 'VERIFY_DEVICE' } : { account: verified })
  } catch (error) {
    if (!view.shell.ended()) refused(view, error)
  }
}

/** Resend, or "Send a new code" after a dead one: the fields start again and the next wait is 30 s (spec §5). */
async function sendAgain(view: Code) {
  if (view.busy || view.locked || secondsUntil(Math.max(view.resendAt, view.until), Date.now()) > 0) return
  view.busy = 'sending'
  say(view.shell, secureText.sending)
  redraw(view)
  try {
    await request(view.shell, (signal) => view.options.resend(signal))
  } catch (error) {
    if (!view.shell.ended()) refused(view, error)
    return
  }
  Object.assign(view, { busy: undefined, dead: false, resendAt: Date.now() + Constants.emailLoginThrottleMs })
  clear(view)
  invalid(view, false)
  say(view.shell, secureText.resent)
  redraw(view)
  view.fields[0]!.focus()
}

/** A refusal as the code screen shows it: the message, and what it leaves the person able to do. */
function refused(view: Code, error: unknown) {
  const refusal = failure(error)
  view.busy = undefined
  if (refusal.retryAfter) view.until = Date.now() + refusal.retryAfter * 1000
  if (refusal.reason === 'locked') view.locked = true
  if (refusal.reason !== undefined && deadReasons.has(refusal.reason)) view.dead = true
  const spent = view.locked || view.dead || refusal.reason === 'wrong'
  if (spent) clear(view)
  invalid(view, refusal.reason === 'wrong')
  say(view.shell, refusal.message, true, !!refusal.retryAfter)
  redraw(view)
  // Focus where the person goes on: the way out, the new code, a fresh first digit, or the kept code.
  if (view.locked) view.other.focus()
  else if (view.dead) view.resend.focus()
  else view.fields[spent ? 0 : digits - 1]!.focus()
}

/** What both screens share: the page, the status line, the request under way, the clock and the end. */
type Shell<outcome> = {
  readonly id: string
  readonly win: Window
  readonly doc: Document
  readonly section: HTMLElement
  readonly status: HTMLElement
  /** Listens until the screen ends. */
  readonly listen: <type extends keyof HTMLElementEventMap>(target: EventTarget, type: type, handler: (event: HTMLElementEventMap[type]) => void) => void
  readonly ended: () => boolean
  /** Removes the screen, aborts its request and settles the promise. */
  end(outcome: outcome | Aborted): void
  /** The request under way, aborted when the screen ends. */
  request: AbortController | undefined
  /** The next redraw of a countdown. */
  timer: ReturnType<Window['setTimeout']> | undefined
  /** A throttle's message, taken off the status line once the wait is over. */
  throttle: string | undefined
}

let screens = 0

/** Puts a screen in `root` until it ends; Escape ends it with `close`, the caller's signal with Aborted. */
function mount<outcome>(
  root: HTMLElement,
  options: { signal: AbortSignal; window?: Window | undefined },
  { label, close }: { label: string; close: outcome },
  build: (shell: Shell<outcome>) => HTMLElement,
): Promise<outcome> {
  const doc = root.ownerDocument
  const win = options.window ?? doc.defaultView ?? window
  if (options.signal.aborted) return Promise.reject(new Aborted())
  return new Promise((resolve, reject) => {
    const id = `doorway-login-${++screens}`
    const alive = new AbortController()
    const section = element(doc, 'section', 'approval login')
    section.setAttribute('aria-label', label)
    const status = element(doc, 'p', 'login-status')
    status.id = `${id}-status`
    status.setAttribute('role', 'status')
    const shell: Shell<outcome> = {
      id,
      win,
      doc,
      section,
      status,
      listen: (target, type, handler) => target.addEventListener(type, handler as EventListener, { signal: alive.signal }),
      ended: () => alive.signal.aborted,
      end: (outcome) => {
        if (alive.signal.aborted) return
        alive.abort()
        shell.request?.abort()
        win.clearTimeout(shell.timer)
        section.remove()
        if (outcome instanceof Aborted) reject(outcome)
        else resolve(outcome)
      },
      request: undefined,
      timer: undefined,
      throttle: undefined,
    }
    options.signal.addEventListener('abort', () => shell.end(new Aborted()), { signal: alive.signal })
    shell.listen(doc, 'keydown', (event) => event.key === 'Escape' && shell.end(close))
    const first = build(shell)
    root.append(section)
    first.focus({ preventScroll: true })
  })
}

/** The status line: role=status for progress and notices, role=alert for what went wrong. */
function say(shell: Shell<unknown>, text: string, alert = false, throttle = false) {
  shell.status.setAttribute('role', alert ? 'alert' : 'status')
  shell.status.textContent = text
  shell.throttle = throttle ? text : undefined
}

/** A throttle's "try again after n seconds" is no longer true once the wait is over. */
function endThrottle(shell: Shell<unknown>) {
  if (shell.throttle !== undefined && shell.status.textContent === shell.throttle) say(shell, '')
}

/** Whole seconds left until `until`, as the countdowns show them. */
function secondsUntil(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000))
}

/** Draws the screen now, and again whenever a countdown among the instants `draw` returns shows a new second. */
function tick(shell: Shell<unknown>, draw: (now: number) => number[]) {
  shell.win.clearTimeout(shell.timer)
  shell.timer = undefined
  if (shell.ended()) return
  const now = Date.now()
  const next = draw(now)
    .filter((until) => until > now)
    .map((until) => (until - now) % 1000 || 1000)
  if (next.length > 0) shell.timer = shell.win.setTimeout(() => tick(shell, draw), Math.min(...next))
}

/**
 * One request under the 30 s bound (spec §7), aborted too when the screen ends. It settles on the bound
 * even when the work ignores its signal, with the timeout as its error.
 */
async function request<result>(shell: Shell<unknown>, work: (signal: AbortSignal) => Promise<result>): Promise<result> {
  const current = (shell.request = new AbortController())
  const timer = shell.win.setTimeout(() => current.abort(new TimedOut()), Constants.embeddedRequestTimeoutMs)
  try {
    return await new Promise<result>((resolve, reject) => {
      current.signal.addEventListener('abort', () => reject(current.signal.reason))
      work(current.signal).then(resolve, reject)
    })
  } finally {
    shell.win.clearTimeout(timer)
    if (shell.request === current) shell.request = undefined
  }
}

class TimedOut extends Errors.DoorwayError {
  override readonly name: string = 'TimedOut'
  constructor() {
    super(secureText.timedOut)
  }
}

/** A failed request as the screens need it: what to say, the server's reason, and how long to wait. */
function failure(error: unknown): { message: string; reason?: string; retryAfter?: number; timedOut: boolean } {
  if (error instanceof Refusal) return { message: error.message, reason: error.reason, retryAfter: error.retryAfter, timedOut: false }
  if (error instanceof Errors.DoorwayError) return { message: error.message, timedOut: error instanceof TimedOut }
  return { message: secureText.unavailable, timedOut: false }
}

function button(doc: Document, className: string, text: string): HTMLButtonElement {
  const node = element(doc, 'button', className, text)
  node.type = 'button'
  return node
}
