/**
 * The secure-site server's route table (secure-site/server/API.md, docs/embedded-wallet.md; Contract.ts
 * says how a table is read): the embedded wallet's own API on the secure origin. The server registers
 * its handlers from it and checks their bodies with its fields (secure-site/server/src/http.ts); the
 * secure-site's client sends every call by its endpoint, typed from the table, and checks each answer
 * with `answers` (secure-site/src/wallet/Server.ts). Only the secure-site calls it, never the frame-app.
 *
 * What a table cannot say, the handlers do: the device signature (401 first, common/Stamp.ts), the
 * session and fresh auth (401 / 403), then the body, field by field in the declared order. A P-256
 * point on the curve and a sealed share's version byte are checked after the fields (they answer their
 * own 400), and POST /v1/export checks its fields by itself, since which it needs depends on the others.
 * POST /v1/devices answers 201, or 200 when the same key was enrolled already: a table names one status.
 *
 * The client's script takes only `answers` and the table's type: `fields` and `table` are made by pure
 * calls, so a bundler leaves them (their texts, summaries and checks) to the server.
 */
import * as Constants from '../Constants.js'
import * as Contract from '../Contract.js'
import * as Email from '../Email.js'
import * as Ids from '../Ids.js'
import * as S from './Described.js'

// ---- sizes --------------------------------------------------------------------------------------------

/** spec §5: a one-time code is this many digits. */
export const codeDigits = 6
/** A Shamir share of the wallet's 16-byte entropy: the x-coordinate byte and 16 bytes (common/Shares.ts). */
export const shareBytes = 17
/** An uncompressed P-256 point: 0x04 ‖ x ‖ y. */
export const pointBytes = 65
/**
 * A share sealed to a key (common/Seal.ts): version, ephemeral point, iv, the share, the GCM tag. No share
 * crosses the wire in clear (docs/embedded-wallet.md §2): R2 is sealed to the vault, uploads to the
 * server's transport key, and what comes back to the device's seal key.
 */
export const sealedShareBytes = 1 + pointBytes + 12 + shareBytes + 16
/** An ECDSA P-256 signature, r ‖ s (the vault's statements, common/Attest.ts). */
export const signatureBytes = 64

// ---- bytes --------------------------------------------------------------------------------------------

/**
 * base64url text of exactly `length` bytes, as its encoder writes it: no padding, and the last
 * character's unused bits zero, so each byte string has one text (the server compares and stores it).
 * The length fixes where the text ends: a rest of 1 byte is 2 characters whose last has 4 unused bits
 * (index 0, 16, 32 or 48: A Q g w), a rest of 2 bytes is 3 characters whose last has 2 (a multiple of 4).
 * A pattern alone says it, so the browser checks answers with Schema.ts's string and nothing more.
 */
const base64url = (length: number) =>
  S.string({ pattern: new RegExp(`^[\\w-]{${Math.floor(length / 3) * 4}}${['', '[\\w-][AQgw]', '[\\w-]{2}[AEIMQUYcgkosw048]'][length % 3]}$`) })

/** A field of bytes of an exact length; its 400 says whether the text is no base64url at all or the wrong length. */
export function bytes(name: string, length: number) {
  const chars = Math.ceil((length * 4) / 3)
  // 4 characters carry 3 bytes; a length of 1 mod 4 is never valid base64url.
  const looksLikeBase64url = (x: unknown) => typeof x === 'string' && x.length <= chars && /^[\w-]*$/.test(x) && x.length % 4 !== 1
  return Contract.field(base64url(length), (value) => (looksLikeBase64url(value) ? `Invalid ${name}: expected ${length} bytes as base64url` : `Invalid ${name}: expected base64url bytes`))
}

// ---- answers ------------------------------------------------------------------------------------------

const id = /* @__PURE__ */ S.string({ pattern: Ids.pattern })
const time = /* @__PURE__ */ S.integer({ min: 0 })
const user = /* @__PURE__ */ S.object({ id, email: S.string({ max: 254 }) })
/** The provider's name for the person (spec §3 `user.username`) and their picture (social/profiles.ts bounds both). */
const username = /* @__PURE__ */ S.string({ min: 1, max: 100 })
const avatar = /* @__PURE__ */ S.string({ max: 500, pattern: /^https?:\/\// })
/** A live session's user: a social sign-in's session has the provider's name and picture too, when it gave them; older servers send neither. */
const sessionUser = /* @__PURE__ */ S.object({ id, email: S.string({ max: 254 }), username: S.optional(username), avatar: S.optional(avatar) })
const challenge = /* @__PURE__ */ S.object({ challengeId: id, expiresAt: time })
/** Farcaster's connect URI (its relay's page for the channel): https, or http on loopback for the devnet; it fits a QR code. */
const connectUri = /* @__PURE__ */ S.string({ max: 2_000, pattern: /^https?:\/\/[^\s]+$/ })
const evmAddress = /* @__PURE__ */ S.string({ pattern: /^0x[0-9a-fA-F]{40}$/ })
const sealed = /* @__PURE__ */ base64url(sealedShareBytes)
const signature = /* @__PURE__ */ base64url(signatureBytes)
const empty = /* @__PURE__ */ S.object({})

/** An entry of the audit log as GET /v1/audit lists it (API.md Details: how `hash` chains). */
export const auditEntry = /* @__PURE__ */ S.object({
  seq: S.integer({ min: 1 }),
  at: time,
  kind: S.string({ max: 64 }),
  detail: S.record(S.string({ max: 64 }), S.unknown, 64),
  hash: S.string({ pattern: /^[0-9a-f]{64}$/ }),
})

/**
 * The vault's signed statement of the audit chain's head (common/Attest.ts `auditHead`): the highest seq
 * it was told and that entry's hash. A log rewritten in the database no longer has this hash at this seq.
 */
export const auditHead = /* @__PURE__ */ S.object({ seq: S.integer({ min: 1 }), hash: S.string({ pattern: /^[0-9a-f]{64}$/ }), signature })

/** A device of the user as GET /v1/devices lists it: where it last verified a code, and whether it was removed. */
export const deviceSummary = /* @__PURE__ */ S.object({
  id,
  /** The device that asks. */
  current: S.boolean,
  createdAt: time,
  lastSeen: time,
  /** The dapp's origin at its last verified code; null for a device from before origins were kept. */
  origin: S.union(S.string({ max: 200 }), S.literal(null)),
  /** Whether the browser attested that origin (else the page reported it). */
  attested: S.boolean,
  /** "Chrome 131 on Linux", from its User-Agent at that code; shown, never trusted. */
  browser: S.union(S.string({ max: 120 }), S.literal(null)),
  revoked: S.boolean,
})

/** Each route's success answer, by endpoint: the table's results, and what the client checks answers with. */
export const answers = {
  'GET /healthz': S.object({ ok: S.literal(true) }),
  'POST /v1/devices': S.object({ deviceId: id }),
  'POST /v1/email/start': challenge,
  'POST /v1/email/cancel': empty,
  // create: a new user makes the wallet here; approve: an existing wallet waits for the person's approval of this device.
  'POST /v1/email/verify': S.object({ user, next: S.oneOf(['create', 'approve']) }),
  // R1 sealed to the device's seal key by the server, R2 re-sealed to it by the vault, with the vault's statements.
  // issue 24: a social sign-in's flow, bound to this device. `url` is this origin's /oauth/start?flow=, where the popup
  // goes; for farcaster, the relay's connect URI, which the modal shows as a QR code (the client checks which it expects).
  'POST /v1/social/start': S.object({ flowId: id, url: S.union(S.string({ max: 300, pattern: /^https?:\/\/[^\s]+\/oauth\/start\?flow=[0-9a-f]{32}$/ }), connectUri), expiresAt: time }),
  // pending while the person is at the provider (the server held the request up to `socialPollMs`, 5 s); done as email/verify answers.
  // needsEmail: a Farcaster account linked to no one (Farcaster gives no email): the flow waits for the email code that links it.
  'POST /v1/social/redeem': S.union(
    S.object({ state: S.literal('pending') }),
    S.object({ state: S.literal('needsEmail'), username: S.union(username, S.literal(null)), avatar: S.union(avatar, S.literal(null)) }),
    S.object({
      state: S.literal('done'),
      user,
      next: S.oneOf(['create', 'approve']),
      /** The provider's name for the person and their picture, when it gave them. */
      username: S.union(username, S.literal(null)),
      avatar: S.union(avatar, S.literal(null)),
    }),
  ),
  'POST /v1/social/cancel': empty,
  'POST /v1/recovery': S.union(
    S.object({ state: S.literal('pending') }),
    S.object({ state: S.literal('ready'), address: evmAddress, recovery1: sealed, recovery2: sealed, wallet: signature, reseal: signature }),
  ),
  'POST /v1/recovery/resend': S.object({ expiresAt: time }),
  'POST /v1/wallet': S.object({ attestation: signature }),
  'POST /v1/devices/share': empty,
  'POST /v1/session': S.object({ user: sessionUser, address: evmAddress, deviceShare: sealed }),
  'POST /v1/session/end': empty,
  'POST /v1/export/code': S.union(S.object({ fresh: S.literal(true) }), challenge),
  'POST /v1/export': S.object({ deviceShare: sealed }),
  // head: the vault's statement of the chain's head, null when it vouches for none (or did not answer).
  // Optional only while routes/session.ts still has its own handler, which routes/account.ts's shadows.
  'GET /v1/audit': S.object({ entries: S.array(auditEntry, Number.POSITIVE_INFINITY), head: S.union(auditHead, S.literal(null)) }),
  'POST /v1/session/check': empty,
  'GET /v1/devices': S.object({ devices: S.array(deviceSummary, Number.POSITIVE_INFINITY) }),
  'POST /v1/devices/revoke/code': S.union(S.object({ fresh: S.literal(true) }), challenge),
  'POST /v1/devices/revoke': empty,
} as const

// ---- fields -------------------------------------------------------------------------------------------

/** What a social flow signs in with: the six OAuth providers, and Farcaster (docs/embedded-wallet.md §5). */
export type FlowProvider = Constants.SocialProvider | 'farcaster'

/** What each body field is checked with, and the 400 it answers: the routes' and POST /v1/export's handler's. */
export const fields = /* @__PURE__ */ declareFields()

function declareFields() {
  const flowProviders = [...Constants.socialProviders, 'farcaster'] as const
  return {
    id: (name: string) => Contract.field(id, `Invalid ${name}: expected 32 lowercase hex digits`),
    // Any length: Email.normalize trims before it bounds.
    email: Contract.field(S.refine(S.string({ max: Number.POSITIVE_INFINITY }), (x) => Email.normalize(x) !== undefined, { format: 'email' }), 'Invalid email'),
    code: Contract.field(S.string({ pattern: new RegExp(`^\\d{${codeDigits}}$`) }), `Invalid code: expected ${codeDigits} digits`),
    /** The dapp's origin, as the mail shows it: http(s), nothing after the port, at most 200 characters. */
    host: Contract.field(S.refine(S.string({ max: 200 }), isOrigin, { format: 'uri', description: 'An http(s) origin' }), 'Invalid host: expected an http(s) origin'),
    /** spec §5: a social provider is one of google, github, apple, facebook, x, discord; or farcaster (Sign In With Farcaster). */
    provider: Contract.field(S.oneOf(flowProviders), `Invalid provider: expected one of ${flowProviders.join(', ')}`),
    address: Contract.field(evmAddress, 'Invalid address: expected a 0x-prefixed 40-hex-digit address'),
    attested: Contract.field(S.boolean, 'Invalid attested: expected true or false'),
    /** As `attested`, for the routes whose mail may name the host: absent, the host is marked reported. */
    attestedIfKnown: Contract.field(S.optional(S.boolean), 'Invalid attested: expected true or false'),
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return /^https?:$/.test(url.protocol) && url.origin === value
  } catch {
    return false
  }
}

// ---- routes -------------------------------------------------------------------------------------------

const signed = 'Signed by the device key (doorway-sig); '

export const table = /* @__PURE__ */ declareTable()
export type Table = ReturnType<typeof declareTable>

function declareTable() {
  return { ...signInRoutes(), ...socialRoutes(), ...sessionRoutes(), ...accountRoutes() }
}

/** Enrolling a device, signing in by code, creating the wallet, storing a device's share. */
function signInRoutes() {
  return {
    healthz: Contract.route({ method: 'GET', path: '/healthz', summary: 'Whether the server is up (not signed)', result: answers['GET /healthz'], errors: [] }),
    enrol: Contract.route({
      method: 'POST',
      path: '/v1/devices',
      summary: 'Enrols a device key, signed by that key; 200 instead of 201 when the same key is enrolled already',
      body: { deviceId: fields.id('deviceId'), publicKey: bytes('publicKey', pointBytes), sealKey: bytes('sealKey', pointBytes) },
      result: answers['POST /v1/devices'],
      status: 201,
      errors: [400, 401, 409, 413, 429],
    }),
    emailStart: Contract.route({
      method: 'POST',
      path: '/v1/email/start',
      summary: `${signed}mails a sign-in code to the email, naming the host (marked reported unless the browser attested it)`,
      body: { email: fields.email, host: fields.host, attested: fields.attested },
      result: answers['POST /v1/email/start'],
      errors: [400, 401, 413, 429, 503],
    }),
    emailVerify: Contract.route({
      method: 'POST',
      path: '/v1/email/verify',
      summary: `${signed}verifies the code: the user, and whether this device creates the wallet or waits for the person's approval (the vault mails the link); \`link\`, this device's Farcaster flow that answered needsEmail, links that account to the email's user`,
      body: { challengeId: fields.id('challengeId'), code: fields.code, link: Contract.field(S.optional(id), 'Invalid link: expected 32 lowercase hex digits') },
      result: answers['POST /v1/email/verify'],
      errors: [400, 401, 404, 413, 429, 503],
    }),
    emailCancel: Contract.route({
      method: 'POST',
      path: '/v1/email/cancel',
      summary: `${signed}withdraws this device's unused code request (the person left the code step)`,
      body: { challengeId: fields.id('challengeId') },
      result: answers['POST /v1/email/cancel'],
      errors: [400, 401, 413],
    }),
    recovery: Contract.route({
      method: 'POST',
      path: '/v1/recovery',
      summary: `${signed}a session; pending until the person approves this device, then R1 and R2 sealed to its seal key with the vault's statements`,
      body: {},
      result: answers['POST /v1/recovery'],
      errors: [400, 401, 403, 404, 413, 429, 503],
    }),
    recoveryResend: Contract.route({
      method: 'POST',
      path: '/v1/recovery/resend',
      summary: `${signed}a session; has the vault mail a new approval link for this device, naming the host as the code mail did`,
      body: { host: fields.host, attested: fields.attested },
      result: answers['POST /v1/recovery/resend'],
      errors: [400, 401, 403, 404, 413, 429, 503],
    }),
    wallet: Contract.route({
      method: 'POST',
      path: '/v1/wallet',
      summary: `${signed}fresh auth; stores a new wallet: its address, this device's A and R1 sealed to the server, and R2 sealed to the vault, which registers it`,
      body: {
        address: fields.address,
        deviceShare: bytes('deviceShare', sealedShareBytes),
        recovery1: bytes('recovery1', sealedShareBytes),
        recovery2: bytes('recovery2', sealedShareBytes),
      },
      result: answers['POST /v1/wallet'],
      status: 201,
      errors: [400, 401, 403, 409, 413, 503],
    }),
    deviceShare: Contract.route({
      method: 'POST',
      path: '/v1/devices/share',
      summary: `${signed}fresh auth; stores this device's share A of the wallet, sealed to the server`,
      body: { deviceShare: bytes('deviceShare', sealedShareBytes) },
      result: answers['POST /v1/devices/share'],
      status: 201,
      errors: [400, 401, 403, 404, 413],
    }),
  }
}

/** A social sign-in (issue 24, docs/embedded-wallet.md §4.5): it ends where POST /v1/email/verify does. */
function socialRoutes() {
  return {
    socialStart: Contract.route({
      method: 'POST',
      path: '/v1/social/start',
      summary: `${signed}starts a social sign-in with the provider, bound to this device: the popup opens \`url\` (GET /oauth/start), which sends it to the provider with PKCE, state and nonce; for farcaster, \`url\` is the relay's connect URI (502, 503: the relay refused or did not answer)`,
      body: { provider: fields.provider, host: fields.host, attested: fields.attested },
      result: answers['POST /v1/social/start'],
      status: 201,
      errors: [400, 401, 404, 410, 413, 429, 502, 503],
    }),
    socialRedeem: Contract.route({
      method: 'POST',
      path: '/v1/social/redeem',
      summary: `${signed}by the device that started the flow: pending while the person is at the provider, then the user and whether this device creates the wallet or waits for the person's approval; a flow is redeemed once; needsEmail for a Farcaster account linked to no one`,
      body: { flowId: fields.id('flowId') },
      result: answers['POST /v1/social/redeem'],
      errors: [400, 401, 403, 404, 409, 410, 413, 429, 503],
    }),
    socialCancel: Contract.route({
      method: 'POST',
      path: '/v1/social/cancel',
      summary: `${signed}by the device that started the flow: ends it, so a late answer from the provider is refused`,
      body: { flowId: fields.id('flowId') },
      result: answers['POST /v1/social/cancel'],
      errors: [400, 401, 403, 413],
    }),
  }
}

/** What a live session may do: take its share, end, export the key, read its audit log. */
function sessionRoutes() {
  return {
    session: Contract.route({
      method: 'POST',
      path: '/v1/session',
      summary: `${signed}a live session: the user, the wallet's address and this device's share A`,
      body: {},
      result: answers['POST /v1/session'],
      errors: [400, 401, 413],
    }),
    sessionEnd: Contract.route({
      method: 'POST',
      path: '/v1/session/end',
      summary: `${signed}ends this device's session and deletes its share A`,
      body: {},
      result: answers['POST /v1/session/end'],
      errors: [400, 401, 413],
    }),
    exportCode: Contract.route({
      method: 'POST',
      path: '/v1/export/code',
      summary: `${signed}a session; fresh when this device verified a code within 5 min, else mails an export code naming the host (marked reported unless attested)`,
      body: { host: fields.host, attested: fields.attestedIfKnown },
      result: answers['POST /v1/export/code'],
      errors: [400, 401, 413, 429, 503],
    }),
    export: Contract.route({
      method: 'POST',
      path: '/v1/export',
      summary: `${signed}a session; an export code (challengeId and code), or the host alone with fresh auth: this device's share A`,
      // checked by the handler: a code and its challenge, or the host alone (API.md)
      body: { challengeId: Contract.field(S.optional(id)), code: Contract.field(S.optional(fields.code.schema)), host: Contract.field(S.optional(fields.host.schema)) },
      result: answers['POST /v1/export'],
      errors: [400, 401, 403, 413, 429],
    }),
    audit: Contract.route({
      method: 'GET',
      path: '/v1/audit',
      summary: `${signed}a session; the user's audit log, hash-chained`,
      result: answers['GET /v1/audit'],
      errors: [401, 403],
    }),
  }
}

/** What the person sees and controls (docs/embedded-wallet.md §10): the session still alive, their devices, removing one. */
function accountRoutes() {
  return {
    sessionCheck: Contract.route({
      method: 'POST',
      path: '/v1/session/check',
      summary: `${signed}a live session: answers nothing, refuses (401) a device removed or signed out, before each signature`,
      body: {},
      result: answers['POST /v1/session/check'],
      errors: [400, 401, 413],
    }),
    devices: Contract.route({
      method: 'GET',
      path: '/v1/devices',
      summary: `${signed}a session; the user's devices, newest first: where each last verified a code, its browser, whether it was removed`,
      result: answers['GET /v1/devices'],
      errors: [401, 403],
    }),
    revokeCode: Contract.route({
      method: 'POST',
      path: '/v1/devices/revoke/code',
      summary: `${signed}a session; fresh when this device verified a code within 5 min, else mails a code to remove a device, naming the host (marked reported unless attested)`,
      body: { host: fields.host, attested: fields.attestedIfKnown },
      result: answers['POST /v1/devices/revoke/code'],
      errors: [400, 401, 403, 413, 429, 503],
    }),
    revoke: Contract.route({
      method: 'POST',
      path: '/v1/devices/revoke',
      summary: `${signed}a session; a code (challengeId and code) or fresh auth: removes another device of the user, ends its session, deletes its A and has the vault revoke it`,
      // challengeId and code together or neither: checked by the handler, as POST /v1/export's
      body: { deviceId: fields.id('deviceId'), challengeId: Contract.field(S.optional(id)), code: Contract.field(S.optional(fields.code.schema)) },
      result: answers['POST /v1/devices/revoke'],
      errors: [400, 401, 403, 404, 413, 429, 503],
    }),
  }
}
