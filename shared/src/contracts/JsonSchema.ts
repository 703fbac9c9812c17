/**
 * Described.ts's schemas as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), from the recipe each
 * remembers. Servers and tests import this module, never the frame: describing costs the frame nothing.
 * A guard written by hand has no recipe and is refused with an error, so an OpenAPI document never
 * silently says less than the check does.
 */
import * as Schema from '../Schema.js'
import * as S from './Described.js'

export type JsonSchema = { [keyword: string]: unknown }

// Schema.ts's default bound on strings (its `maxString`).
const defaultMaxString = 4096

const constants = new Map<Schema.Schema<unknown>, JsonSchema>([
  [Schema.unknown, {}],
  [Schema.boolean, { type: 'boolean' }],
  [Schema.number, { type: 'number' }],
  [Schema.url, { type: 'string', format: 'uri', maxLength: 2048, description: 'An http(s) URL' }],
  [Schema.isPlainObject, { type: 'object' }],
])

/** The JSON Schema of `schema`; throws for a guard not built by Described.ts. */
export function from(schema: Schema.Schema<unknown>): JsonSchema {
  const known = constants.get(schema)
  if (known) return known
  const recipe = S.recipeOf(schema)
  if (!recipe) throw new Error(`A schema not built by contracts/Described.ts has no JSON Schema: ${schema.name || String(schema).slice(0, 80)}`)
  const [builder, args] = recipe
  const describe = describers.get(builder)
  if (!describe) throw new Error('contracts/JsonSchema.ts does not describe this builder')
  return describe(args)
}

/** Whether `schema` accepts undefined, i.e. is optional as an object member or a parameter. */
export function isOptional(schema: Schema.Schema<unknown>): boolean {
  return schema(undefined)
}

const describers = new Map<unknown, (args: readonly unknown[]) => JsonSchema>([
  [S.string, ([options = {}]) => string(options as Schema.string.Options)],
  [S.literal, (values) => enumOf(values)],
  [S.oneOf, ([values]) => enumOf(values as readonly unknown[])],
  // undefined is no JSON value: an optional schema is its inner one, and its member is not required
  [S.optional, ([inner]) => from(inner as Schema.Schema<unknown>)],
  [S.array, ([item, max = 256]) => ({ type: 'array', items: from(item as Schema.Schema<unknown>), maxItems: max })],
  [S.union, (schemas) => ({ anyOf: (schemas as Schema.Schema<unknown>[]).map(from) })],
  [S.object, ([shape]) => ({ ...objectOf(shape as Shape), additionalProperties: false })],
  [S.open, ([shape]) => objectOf(shape as Shape)],
  [
    S.record,
    ([key, value, max = 256]) => ({ type: 'object', propertyNames: from(key as Schema.Schema<unknown>), additionalProperties: from(value as Schema.Schema<unknown>), maxProperties: max }),
  ],
  [S.refine, ([base, , json]) => ({ ...from(base as Schema.Schema<unknown>), ...(json as JsonSchema | undefined) })],
  [S.integer, ([options = {}]) => integer(options as S.integer.Options)],
])

type Shape = Record<string, Schema.Schema<unknown>>

function objectOf(shape: Shape): JsonSchema {
  const properties = Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, from(schema)]))
  const required = Object.keys(shape).filter((key) => !isOptional(shape[key]!))
  return { type: 'object', properties, ...(required.length > 0 && { required }) }
}

function string({ min = 0, max = defaultMaxString, pattern }: Schema.string.Options): JsonSchema {
  // JSON Schema patterns take no flags: a case-insensitive one would say less than the check does.
  if (pattern?.flags) throw new Error(`A pattern with flags has no JSON Schema: /${pattern.source}/${pattern.flags}`)
  return {
    type: 'string',
    ...(min > 0 && { minLength: min }),
    ...(Number.isFinite(max) && { maxLength: max }),
    ...(pattern && { pattern: pattern.source }),
  }
}

function enumOf(values: readonly unknown[]): JsonSchema {
  return values.length === 1 ? { const: values[0] } : { enum: [...values] }
}

function integer({ min, max }: S.integer.Options): JsonSchema {
  return { type: 'integer', ...(min !== undefined && { minimum: min }), ...(max !== undefined && { maximum: max }) }
}
