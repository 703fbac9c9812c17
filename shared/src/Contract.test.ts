import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, expectTypeOf, test } from 'vitest'
import * as Contract from './Contract.js'
import * as S from './contracts/Described.js'
import * as JsonSchema from './contracts/JsonSchema.js'
import * as OpenApi from './contracts/OpenApi.js'
import * as Provider from './contracts/onramp.js'
import * as Schema from './Schema.js'

const address = Contract.field(S.string({ pattern: /^0x[0-9a-fA-F]{40}$/ }), 'Invalid address: expected a 0x-prefixed 40-hex-digit address')
const token = S.object({ symbol: S.string({ max: 16 }), value: S.optional(S.number) })
const table = {
  balance: Contract.route({
    method: 'GET',
    path: '/v1/account/:address/balance',
    summary: 'Balances',
    params: { address },
    query: {
      projectId: Contract.field(S.string({ min: 1 })),
      page: Contract.field(S.optional(S.string({ pattern: /^[0-9]+$/ })), (value) => `Invalid page: ${String(value)} is no number`),
    },
    result: S.object({ balances: S.array(token, 8) }),
    errors: [400, 403],
  }),
  register: Contract.route({
    method: 'POST',
    path: '/v1/names/:zone/:name',
    summary: 'Registers a name',
    body: { signature: Contract.field(S.string({ pattern: /^0x[0-9a-fA-F]+$/ }), 'Invalid signature: expected hex'), note: Contract.field(S.optional(S.string())) },
    result: S.object({ success: S.boolean }),
    status: 201,
    errors: [400, 409],
  }),
  image: Contract.route({ method: 'GET', path: '/image/:id', summary: 'An image', media: 'image/svg+xml', errors: [404] }),
}
type Table = typeof table

describe('check', () => {
  test('behavior: the checked fields in declared order; an unchecked field is let through for its handler', () => {
    const query: Record<string, string> = { projectId: '', page: '2' }
    expect(Contract.check(table.balance.query, (name) => query[name])).toEqual({ values: { projectId: '', page: '2' } })
  })

  test('error: the first refused field gives its whole text, fixed or told from the value', () => {
    expect(Contract.check(table.balance.params, () => '0x12')).toEqual({ invalid: 'Invalid address: expected a 0x-prefixed 40-hex-digit address' })
    expect(Contract.check(table.balance.query, (name) => (name === 'page' ? 'two' : undefined))).toEqual({ invalid: 'Invalid page: two is no number' })
  })

  test('behavior: no fields, no values', () => {
    expect(Contract.check(undefined, () => 'x')).toEqual({ values: {} })
  })
})

describe('match', () => {
  test.each([
    ['/v1/account/:address/balance', '/v1/account/0xabc/balance', { address: '0xabc' }],
    ['/v1/names/:zone/:name', '/v1/names/id/al%20ice', { zone: 'id', name: 'al%20ice' }],
    ['/a.b', '/a.b', {}],
  ])('behavior: %s matches %s', (template, pathname, params) => {
    expect(Contract.match(template, pathname)).toEqual(params)
  })

  test.each([
    ['/v1/account/:address/balance', '/v1/account/0xabc/balance/x'],
    ['/v1/account/:address/balance', '/v1/account//balance'],
    ['/a.b', '/axb'],
  ])('error: %s does not match %s', (template, pathname) => {
    expect(Contract.match(template, pathname)).toBeUndefined()
  })
})

describe('path', () => {
  test('behavior: params are percent-encoded, so none adds a path or a query', () => {
    expect(Contract.path('/v1/names/:zone/:name', { zone: 'id', name: '../x?y=1#z' })).toBe('/v1/names/id/..%2Fx%3Fy%3D1%23z')
    expect(Contract.paramNames('/v1/names/:zone/:name')).toEqual(['zone', 'name'])
  })
})

describe('types', () => {
  test('behavior: a client types a call from the table type alone', () => {
    type Balance = Contract.At<Table, 'GET /v1/account/:address/balance'>
    const endpoints: Contract.Endpoint<Table>[] = ['GET /v1/account/:address/balance', 'POST /v1/names/:zone/:name', 'GET /image/:id']
    // @ts-expect-error: a method and path the table does not declare
    const unknown: Contract.Endpoint<Table> = 'POST /v1/account/:address/balance'
    const params: Contract.Params<Balance> = { address: '0x1' }
    // @ts-expect-error: a param the path does not name
    const extra: Contract.Params<Balance> = { address: '0x1', other: '' }
    const query: Contract.Query<Balance> = { page: 2, projectId: 'p' }
    // @ts-expect-error: a query the route does not declare
    const typo: Contract.Query<Balance> = { pages: 2 }
    const path: Contract.Path<Balance['path']> = `/v1/account/${params.address}/balance`
    // @ts-expect-error: a path the route does not have
    const wrongPath: Contract.Path<Balance['path']> = `/v1/account/${params.address}/balances`
    const result: Contract.Result<Balance> = { balances: [{ symbol: 'ETH' }] }
    const body: Contract.Body<Table['register']> = { signature: '0x1' }
    // @ts-expect-error: a body without its required field
    const missing: Contract.Body<Table['register']> = { note: 'x' }
    expectTypeOf(result.balances[0]!.value).toEqualTypeOf<number | undefined>()
    expectTypeOf<Contract.Checked<Table['register']['body']>['note']>().toBeUnknown()
    expect([endpoints, unknown, params, extra, query, typo, path, wrongPath, body, missing]).toHaveLength(10)
  })
})

describe('Described', () => {
  test('behavior: the guards check exactly as Schema.ts does', () => {
    const pairs: [Schema.Schema<unknown>, Schema.Schema<unknown>][] = [
      [S.string({ max: 3 }), Schema.string({ max: 3 })],
      [S.literal('a', 1), Schema.literal('a', 1)],
      [S.array(S.number, 2), Schema.array(Schema.number, 2)],
      [S.object({ a: S.optional(S.boolean) }), Schema.object({ a: Schema.optional(Schema.boolean) })],
      [S.record(S.string(), S.number, 1), Schema.record(Schema.string(), Schema.number, 1)],
    ]
    const values = ['ab', 'abcd', 'a', 1, 2, [1, 2], [1, 2, 3], {}, { a: true }, { a: 1 }, { b: 1 }, { b: 1, c: 2 }, null, undefined]
    for (const [described, plain] of pairs) for (const value of values) expect(described(value)).toBe(plain(value))
  })

  test('behavior: integer, refine and open', () => {
    expect([1, 1.5, -1, 11].map(S.integer({ min: 0, max: 10 }))).toEqual([true, false, false, false])
    const even = S.refine(S.number, (n) => n % 2 === 0)
    expect([2, 3, '2'].map(even)).toEqual([true, false, false])
    expect([{ a: 1, b: 2 }, { b: 2 }].map(S.open({ a: S.number }))).toEqual([true, false])
  })
})

describe('JsonSchema.from', () => {
  test('behavior: each builder as JSON Schema 2020-12', () => {
    const schema = S.object({
      name: S.string({ min: 1, max: 64, pattern: /^[a-z]+$/ }),
      kind: S.literal('a', 'b'),
      one: S.literal('x'),
      tags: S.optional(S.array(S.string(), 4)),
      avatar: S.union(S.url, S.literal(null)),
      count: S.integer({ min: 0 }),
      time: S.refine(S.string({ max: 40 }), (x) => !Number.isNaN(Date.parse(x)), { format: 'date-time' }),
      attributes: S.record(S.string({ max: 8 }), S.unknown, 2),
      extra: S.open({ id: S.boolean }),
    })
    expect(JsonSchema.from(schema)).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "attributes": {
            "additionalProperties": {},
            "maxProperties": 2,
            "propertyNames": {
              "maxLength": 8,
              "type": "string",
            },
            "type": "object",
          },
          "avatar": {
            "anyOf": [
              {
                "description": "An http(s) URL",
                "format": "uri",
                "maxLength": 2048,
                "type": "string",
              },
              {
                "const": null,
              },
            ],
          },
          "count": {
            "minimum": 0,
            "type": "integer",
          },
          "extra": {
            "properties": {
              "id": {
                "type": "boolean",
              },
            },
            "required": [
              "id",
            ],
            "type": "object",
          },
          "kind": {
            "enum": [
              "a",
              "b",
            ],
          },
          "name": {
            "maxLength": 64,
            "minLength": 1,
            "pattern": "^[a-z]+$",
            "type": "string",
          },
          "one": {
            "const": "x",
          },
          "tags": {
            "items": {
              "maxLength": 4096,
              "type": "string",
            },
            "maxItems": 4,
            "type": "array",
          },
          "time": {
            "format": "date-time",
            "maxLength": 40,
            "type": "string",
          },
        },
        "required": [
          "name",
          "kind",
          "one",
          "avatar",
          "count",
          "time",
          "attributes",
          "extra",
        ],
        "type": "object",
      }
    `)
  })

  test('behavior: a value the guard accepts, the JSON Schema accepts', () => {
    const schema = S.object({ a: S.string({ max: 4 }), b: S.optional(S.array(S.integer({ min: 1 }), 2)), c: S.union(S.literal(null), S.number) })
    const validate = new Ajv2020({ strict: true }).compile(JsonSchema.from(schema))
    for (const value of [{ a: 'x', c: null }, { a: 'xyzw', b: [1, 2], c: 1.5 }, { a: 'x', c: 1, d: 1 }, { a: 'toolong', c: 1 }, { a: 'x', b: [0], c: 1 }])
      expect(validate(value)).toBe(schema(value))
  })

  test('error: a guard written by hand, or a pattern with flags, has no JSON Schema', () => {
    expect(() => JsonSchema.from((x): x is string => typeof x === 'string')).toThrow('not built by contracts/Described.ts')
    expect(() => JsonSchema.from(S.object({ a: Schema.string() }))).toThrow('not built by contracts/Described.ts')
    expect(() => JsonSchema.from(S.string({ pattern: /^a$/i }))).toThrow('A pattern with flags')
  })
})

describe('OpenApi.document', () => {
  const document = OpenApi.document(table, { title: 'Test', version: '1' })

  test('behavior: a valid OpenAPI 3.1 document with every route', async () => {
    const result = await new Validator().validate(structuredClone(document))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(Object.keys(document.paths)).toEqual(['/v1/account/{address}/balance', '/v1/names/{zone}/{name}', '/image/{id}'])
  })

  test('behavior: params, query, body, the success status and the error answers', () => {
    const balance = document.paths['/v1/account/{address}/balance']!.get!
    expect(balance.parameters!.map((p) => [p.name, p.in, p.required])).toEqual([
      ['address', 'path', true],
      ['projectId', 'query', true],
      ['page', 'query', false],
    ])
    expect(Object.keys(balance.responses)).toEqual(['200', '400', '403'])
    const register = document.paths['/v1/names/{zone}/{name}']!.post!
    expect(register.requestBody!.content['application/json'].schema).toMatchObject({ required: ['signature'] })
    expect(Object.keys(register.responses)).toEqual(['201', '400', '409'])
    expect(document.paths['/image/{id}']!.get!.responses['200']!.content).toHaveProperty('image/svg+xml')
  })
})

describe('contracts/onramp.ts', () => {
  test('behavior: the onramp provider’s table describes as a valid OpenAPI 3.1 document', async () => {
    const document = OpenApi.document(Provider.table, { title: 'Onramp provider', version: '1' })
    const result = await new Validator().validate(structuredClone(document))
    expect([result.valid, result.errors]).toEqual([true, undefined])
  })
})
