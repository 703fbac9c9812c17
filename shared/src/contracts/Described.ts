/**
 * Schema.ts's builders for contracts (Contract.ts): the same guards, each remembering how it was built,
 * so that contracts/JsonSchema.ts can describe it as JSON Schema for OpenAPI. Only the remembering is
 * here (about 25 bytes gzip in the frame, which checks the api's answers with these schemas); the
 * describing is in JsonSchema.ts, which only servers and tests import. The SDK never imports this module
 * (its 7 KB budget keeps Schema.ts bare).
 *
 * `import * as S from '@doorway/shared/contracts/Described'` reads as Schema.ts does: `S.object({ … })`.
 * Beside them, the builders Schema.ts lacks: refine, integer, open.
 */
import * as Schema from '../Schema.js'

export type { Infer, ObjectOf, Schema } from '../Schema.js'
// Constants need no recipe: JsonSchema.ts knows them by identity.
export { boolean, isPlainObject, number, unknown, url } from '../Schema.js'

type Builder = (...args: never[]) => Schema.Schema<unknown>
/** The builder a schema came from (one of this module's exports) and its arguments. */
export type Recipe = readonly [builder: Builder, args: readonly unknown[]]

const recipes = /* @__PURE__ */ new WeakMap<Schema.Schema<unknown>, Recipe>()

/** How `schema` was built, or undefined for a guard written by hand (which JsonSchema.ts refuses). */
export const recipeOf = (schema: Schema.Schema<unknown>): Recipe | undefined => recipes.get(schema)

/** `make`, its schemas remembering how they were built. */
function remembered<F extends Builder>(make: F): F {
  return function builder(...args: never[]) {
    const schema = make(...args)
    recipes.set(schema, [builder, args])
    return schema
  } as F
}

export const string = /* @__PURE__ */ remembered(Schema.string)
export const literal = /* @__PURE__ */ remembered(Schema.literal)
export const oneOf = /* @__PURE__ */ remembered(Schema.oneOf)
export const optional = /* @__PURE__ */ remembered(Schema.optional)
export const array = /* @__PURE__ */ remembered(Schema.array)
export const union = /* @__PURE__ */ remembered(Schema.union)
export const object = /* @__PURE__ */ remembered(Schema.object)
export const record = /* @__PURE__ */ remembered(Schema.record)

/**
 * `base` narrowed by a check no builder expresses (a CAIP-10 id, a parseable date); `json` is what the
 * JSON Schema adds to base's (a format, a description), so the document says what the check means.
 */
export const refine: {
  <T, U extends T>(base: Schema.Schema<T>, check: (value: T) => value is U, json?: Record<string, unknown>): Schema.Schema<U>
  <T>(base: Schema.Schema<T>, check: (value: T) => boolean, json?: Record<string, unknown>): Schema.Schema<T>
} = /* @__PURE__ */ remembered(
  <T>(base: Schema.Schema<T>, check: (value: T) => boolean): Schema.Schema<T> =>
    (x): x is T =>
      base(x) && check(x),
)

/** A safe integer within bounds (a count, a token's decimals). */
export const integer: (options?: integer.Options) => Schema.Schema<number> = /* @__PURE__ */ remembered(
  ({ min = -Infinity, max = Infinity }: integer.Options = {}) =>
    (x): x is number =>
      Number.isSafeInteger(x) && (x as number) >= min && (x as number) <= max,
)
export declare namespace integer {
  type Options = { min?: number; max?: number }
}

type Shape = Record<string, Schema.Schema<unknown>>

/**
 * A plain object with at least these keys: the keys it does not name are let through. For answers of
 * a provider outside this repo (Coinbase adds fields as it likes); our own answers use `object`.
 */
export const open: <S extends Shape>(shape: S) => Schema.Schema<Schema.ObjectOf<S> & Record<string, unknown>> = /* @__PURE__ */ remembered(
  <S extends Shape>(shape: S) =>
    (x: unknown): x is Schema.ObjectOf<S> & Record<string, unknown> =>
      Schema.isPlainObject(x) && Object.keys(shape).every((key) => shape[key]!(x[key])),
)
