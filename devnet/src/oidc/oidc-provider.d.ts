// oidc-provider 9 ships no types: the part of its API the devnet provider uses (provider.ts), as its
// documentation describes it. Ambient, so it covers `import … from 'oidc-provider'` everywhere.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

  /** The part of a koa context with `ctx.oidc` that the configuration's functions and events read. */
  export type KoaContextWithOIDC = {
    oidc: {
      params?: Record<string, unknown>
      session?: { accountId?: string }
      responseMode?: string
      result?: InteractionResults
      client?: { clientId: string }
      provider: Provider
    }
    type: string
    body: unknown
    status: number
  }

  export type Account = {
    accountId: string
    claims(use: 'id_token' | 'userinfo', scope: string): Promise<Record<string, Json>> | Record<string, Json>
  }

  export type InteractionResults = {
    login?: { accountId: string; remember?: boolean }
    consent?: { grantId?: string }
    select_account?: Record<string, never>
    error?: string
    error_description?: string
  }

  export type PromptDetail = {
    name: string
    reasons: string[]
    details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; login_hint?: string }
  }

  export type Interaction = {
    uid: string
    prompt: PromptDetail
    params: Record<string, unknown>
    session?: { accountId: string; uid?: string }
    grantId?: string
    returnTo: string
    exp: number
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string })
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    save(): Promise<string>
  }

  export type AccessToken = {
    accountId: string
    clientId: string
    scope?: string
    readonly isExpired: boolean
  }

  export class Check {
    constructor(reason: string, description: string, check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>)
    static REQUEST_PROMPT: true
    static NO_NEED_TO_PROMPT: false
  }

  export class Prompt {
    constructor(options: { name: string; requestable?: boolean }, ...checks: Check[])
    name: string
    checks: Check[] & { add(check: Check, index?: number): void }
  }

  type Policy = Prompt[] & { get(name: string): Prompt | undefined; add(prompt: Prompt, index?: number): void }

  export const interactionPolicy: { base(): Policy; Check: typeof Check; Prompt: typeof Prompt }

  export const errors: { SessionNotFound: new (message: string) => Error & { status: number } }

  type ErrorOut = { error: string; error_description?: string }

  export type Configuration = {
    clients: Record<string, Json>[]
    jwks: { keys: JsonWebKey[] }
    cookies: {
      names: { session: string; interaction: string; resume: string }
      keys: string[]
      long: { signed: boolean }
      short: { signed: boolean }
    }
    claims: Record<string, string[] | null>
    scopes: string[]
    responseTypes: string[]
    pkce: { required: () => boolean }
    clientAuthMethods: string[]
    conformIdTokenClaims: boolean
    allowOmittingSingleRegisteredRedirectUri: boolean
    clientBasedCORS: () => boolean
    features: Record<string, { enabled: boolean }>
    ttl: Record<string, number>
    interactions: { policy: Policy; url: (ctx: KoaContextWithOIDC, interaction: Interaction) => string }
    expiresWithSession: () => Promise<boolean>
    loadExistingGrant: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>
    findAccount: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined>
    renderError: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => void
  }

  export class Provider {
    constructor(issuer: string, configuration: Configuration)
    readonly issuer: string
    Grant: typeof Grant & { find(id: string): Promise<Grant | undefined> }
    AccessToken: { find(value: string): Promise<AccessToken | undefined> }
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: InteractionResults, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
    on(event: 'authorization.success', listener: (ctx: KoaContextWithOIDC, out: Record<string, string>) => void): this
    on(event: 'server_error', listener: (ctx: KoaContextWithOIDC, error: Error) => void): this
  }

  export default Provider
}
