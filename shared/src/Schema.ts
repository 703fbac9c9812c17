/**
 * Runtime checks for everything that crosses a boundary (postMessage ports, options, HTTP).
 * A schema is a type guard, so checks compose and narrow without a library: this module ships
 * inside the 7 KB SDK. The constructors are marked free of side effects, so a bundle drops the
 * schemas it never checks (the frame's initial chunk, issue 23; the SDK).
 */
export type Schema<T> = (value: unknown) => value is T
export type Infer<S> = S extends Schema<infer T> ? T : never

const maxString = 4096

export const unknown: Schema<unknown> = (_): _ is unknown => true
export const boolean: Schema<boolean> = (x): x is boolean => typeof x === 'boolean'
export const number: Schema<number> = (x): x is number => typeof x === 'number' && Number.isFinite(x)

/*@__NO_SIDE_EFFECTS__*/
export function string(options: string.Options = {}): Schema<string> {
  const { max = maxString, min = 0, pattern } = options
  return (x): x is string =>
    typeof x === 'string' && x.length >= min && x.length <= max && (!pattern || pattern.test(x))
}
export declare namespace string {
  type Options = { min?: number; max?: number; pattern?: RegExp }
}

/*@__NO_SIDE_EFFECTS__*/
export function literal<const T extends readonly (string | number | boolean | null)[]>(
  ...values: T
): Schema<T[number]> {
  return oneOf(values)
}

/** One of a list's values; takes the list itself, so an unused schema leaves no copy behind. */
/*@__NO_SIDE_EFFECTS__*/
export function oneOf<const T extends readonly (string | number | boolean | null)[]>(values: T): Schema<T[number]> {
  return (x): x is T[number] => values.includes(x as T[number])
}

/*@__NO_SIDE_EFFECTS__*/
export function optional<T>(schema: Schema<T>): Schema<T | undefined> {
  return (x): x is T | undefined => x === undefined || schema(x)
}

/*@__NO_SIDE_EFFECTS__*/
export function array<T>(item: Schema<T>, max = 256): Schema<T[]> {
  return (x): x is T[] => Array.isArray(x) && x.length <= max && x.every(item)
}

/*@__NO_SIDE_EFFECTS__*/
export function union<T extends Schema<unknown>[]>(...schemas: T): Schema<Infer<T[number]>> {
  return (x): x is Infer<T[number]> => schemas.some((s) => s(x))
}

type Shape = Record<string, Schema<unknown>>
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: undefined extends Infer<S[K]> ? K : never
}[keyof S]
export type ObjectOf<S extends Shape> = {
  [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]>
} & { [K in OptionalKeys<S>]?: Infer<S[K]> }

/** A plain object with exactly these keys: unknown keys are refused so nothing rides along. */
/*@__NO_SIDE_EFFECTS__*/
export function object<S extends Shape>(shape: S): Schema<ObjectOf<S>> {
  return (x): x is ObjectOf<S> => {
    if (!isPlainObject(x)) return false
    for (const key of Object.keys(x)) if (!Object.hasOwn(shape, key)) return false
    for (const key of Object.keys(shape)) if (!shape[key]!((x as Record<string, unknown>)[key])) return false
    return true
  }
}

export function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false
  const proto: unknown = Object.getPrototypeOf(x)
  return proto === Object.prototype || proto === null
}

/*@__NO_SIDE_EFFECTS__*/
export function record<K extends string, V>(key: Schema<K>, value: Schema<V>, max = 256): Schema<Partial<Record<K, V>>> {
  return (x): x is Partial<Record<K, V>> =>
    isPlainObject(x) && Object.keys(x).length <= max && Object.entries(x).every(([k, v]) => key(k) && value(v))
}

/** An http(s) URL (never javascript: or data:). */
export const url: Schema<string> = (x): x is string => {
  if (typeof x !== 'string' || x.length > 2048) return false
  try {
    return /^https?:$/.test(new URL(x).protocol)
  } catch {
    return false
  }
}
