/**
 * A route table (Contract.ts) as an OpenAPI 3.1.0 document, its schemas in JSON Schema 2020-12
 * (JsonSchema.ts). Servers publish it (the api at GET /openapi.json); tests validate it and check
 * answers against it. Never imported by the frame.
 */
import type * as Contract from '../Contract.js'
import * as JsonSchema from './JsonSchema.js'

export type Document = {
  openapi: '3.1.0'
  jsonSchemaDialect: string
  info: { title: string; version: string; description?: string }
  servers?: { url: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, JsonSchema.JsonSchema> }
}
type Operation = {
  operationId: string
  summary: string
  parameters?: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema.JsonSchema }[]
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema.JsonSchema } } }
  responses: Record<string, { description: string; content: Record<string, { schema: JsonSchema.JsonSchema }> }>
}

/** Every refusal of these servers: one plain message, never a stack or internals. */
export const errorSchema: JsonSchema.JsonSchema = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false }

const reasons: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  400: 'The request is malformed; the message says which field',
  401: 'The signature does not match',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict with the current state',
  410: 'Gone: it expired or was ended',
  413: 'The body is too large',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'An upstream server (a node, a provider) failed',
  503: 'Unavailable',
}

/** The OpenAPI path of a route path: `/a/:b` → `/a/{b}`. */
export const pathOf = (template: string) => template.replace(/:(\w+)/g, '{$1}')

export function document(table: Contract.Table, info: Document['info'], options: { servers?: { url: string }[] } = {}): Document {
  const paths: Document['paths'] = {}
  for (const [name, route] of Object.entries(table)) {
    const item = (paths[pathOf(route.path)] ??= {})
    item[route.method.toLowerCase()] = operation(name, route)
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info,
    ...(options.servers && { servers: options.servers }),
    paths,
    components: { schemas: { Error: errorSchema } },
  }
}

function operation(name: string, route: Contract.Route): Operation {
  const parameters = [
    ...Object.entries(route.params ?? {}).map(([param, field]) => ({ name: param, in: 'path' as const, required: true, schema: JsonSchema.from(field.schema) })),
    ...Object.entries(route.query ?? {}).map(([param, field]) => ({
      name: param,
      in: 'query' as const,
      required: !JsonSchema.isOptional(field.schema),
      schema: JsonSchema.from(field.schema),
    })),
  ]
  const success = route.result
    ? { 'application/json': { schema: JsonSchema.from(route.result) } }
    : { [route.media ?? 'application/octet-stream']: { schema: { type: 'string', contentMediaType: route.media } } }
  const responses: Operation['responses'] = { [route.status ?? 200]: { description: reasons[route.status ?? 200]!, content: success } }
  for (const status of route.errors) responses[status] = { description: reasons[status]!, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
  return {
    operationId: name,
    summary: route.summary,
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && { requestBody: { required: true, content: { 'application/json': { schema: bodySchema(route.body) } } } }),
    responses,
  }
}

function bodySchema(fields: Contract.Fields): JsonSchema.JsonSchema {
  const properties = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, JsonSchema.from(field.schema)]))
  const required = Object.keys(fields).filter((key) => !JsonSchema.isOptional(fields[key]!.schema))
  return { type: 'object', properties, ...(required.length > 0 && { required }) }
}
