/**
 * The tables of docs/sdk.md that are made from the SDK's sources, so that they cannot drift from it:
 * createModal's options (the TSDoc of `Options` in sdk/src/types.ts, the defaults of
 * sdk/src/internal/options.ts), the feature flags' defaults (Constants.defaultFeatures) and the events
 * (`Events`). Each sits between `<!-- name:start -->` and `<!-- name:end -->`. `npx tsx scripts/docs.ts`
 * rewrites them; scripts/docs.test.ts fails when docs/sdk.md differs from what this makes now. The
 * sources are read as text (TypeScript's parser), so nothing here reaches the SDK bundle.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as Constants from '@doorway/shared/Constants'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const page = join(root, 'docs/sdk.md')

/** One member of a type literal: its name, its type as written, and its TSDoc. */
export type Member = { name: string; type: string; optional: boolean; doc: string; tags: Record<string, string> }

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true)
}

/** The members of `type <name> = { … }` in `file` (`ns.Name` inside `declare namespace ns`), in their order. */
export function members(file: string, name: string): Member[] {
  const source = parse(file)
  const alias = find(source.statements, name.split('.'))
  if (!alias || !ts.isTypeLiteralNode(alias.type)) throw new Error(`${file}: no type literal ${name}`)
  return alias.type.members.filter((m) => ts.isPropertySignature(m) || ts.isMethodSignature(m)).map((member) => {
    const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc)
    const tags = Object.fromEntries(docs.flatMap((d) => d.tags ?? []).map((t) => [t.tagName.text, ts.getTextOfJSDocComment(t.comment) ?? '']))
    return {
      name: member.name.getText(source),
      // A method reads as its signature; a property as its type.
      type: ts.isMethodSignature(member) ? member.getText(source) : (member.type?.getText(source) ?? 'unknown'),
      optional: !!member.questionToken,
      doc: docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join(' '),
      tags,
    }
  })
}

function find(statements: readonly ts.Statement[], [head, ...rest]: string[]): ts.TypeAliasDeclaration | undefined {
  for (const statement of statements) {
    if (!rest.length && ts.isTypeAliasDeclaration(statement) && statement.name.text === head) return statement
    if (rest.length && ts.isModuleDeclaration(statement) && statement.name.text === head && statement.body && ts.isModuleBlock(statement.body))
      return find(statement.body.statements, rest)
  }
  return undefined
}

/** The initializers of `const <name> = { … }` in `file`, as written, by key. */
export function objectLiteral(file: string, name: string): Record<string, string> {
  const source = parse(file)
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.name.getText(source) !== name || !declaration.initializer || !ts.isObjectLiteralExpression(declaration.initializer)) continue
      return Object.fromEntries(
        declaration.initializer.properties.filter(ts.isPropertyAssignment).map((p) => [p.name.getText(source), p.initializer.getText(source)]),
      )
    }
  }
  throw new Error(`${file}: no object literal ${name}`)
}

/** A table cell: one line, and a `|` that does not end the cell. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
const code = (text: string) => `\`${cell(text)}\``

function table(head: string[], rows: string[][]): string {
  return [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n')
}

const literal = /^(true|false|\d+|'[^']*'|\[\]|\{\})$/

/** createModal's options: a required one says so, a default is options.ts's value or the option's `@default`. */
export function optionsTable(): string {
  const defaults = objectLiteral('sdk/src/internal/options.ts', 'defaults')
  const rows = members('sdk/src/types.ts', 'Options').map((m) => {
    const value = defaults[m.name]
    const tag = m.tags.default
    const fallback = value !== undefined ? code(value) : tag === undefined ? '' : literal.test(tag) ? code(tag) : cell(tag)
    return [code(m.name), code(m.type), m.optional ? fallback : '**required**', cell(m.doc)]
  })
  return table(['Option', 'Type', 'Default', 'Description'], rows)
}

/** Each feature flag with its default (Constants.defaultFeatures, which the SDK fills in). */
export function featuresTable(): string {
  const value = (v: unknown) => code(Array.isArray(v) ? `[${v.map((x) => `'${String(x)}'`).join(', ')}]` : String(v))
  return table(['Flag', 'Default'], Object.entries(Constants.defaultFeatures).map(([flag, v]) => [code(flag), value(v)]))
}

/** `modal.subscribe`'s events: what each callback gets and when. */
export function eventsTable(): string {
  const rows = members('sdk/src/types.ts', 'Events').map((m) => [code(m.name), code(m.type), cell(m.doc)])
  return table(['Event', 'Callback gets', 'When'], rows)
}

/** The members of a sign-in type: a function by its signature, a flag by its type; `?` marks an optional one. */
export function siwxTable(file: string, name: string): string {
  const rows = members(file, name).map((m) => [code(m.type === m.name ? m.name : m.type.startsWith(m.name) ? m.type : `${m.name}${m.optional ? '?' : ''}: ${m.type}`), cell(m.doc)])
  return table(['Member', 'Description'], rows)
}

export function sections(): Record<string, string> {
  return {
    options: optionsTable(),
    features: featuresTable(),
    events: eventsTable(),
    siwx: siwxTable('sdk/src/types.ts', 'Siwx'),
    'default-siwx': siwxTable('sdk/src/siwx/index.ts', 'createDefaultSiwx.Options'),
  }
}

/** `markdown` with the region between each section's markers replaced by the section. */
export function render(markdown: string, made: Record<string, string>): string {
  let out = markdown
  for (const [name, text] of Object.entries(made)) {
    const start = `<!-- ${name}:start -->`
    const end = `<!-- ${name}:end -->`
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from < 0 || to < from) throw new Error(`docs/sdk.md: no ${start} … ${end}`)
    out = `${out.slice(0, from + start.length)}\n${text}\n${out.slice(to)}`
  }
  return out
}

function main() {
  const before = readFileSync(page, 'utf8')
  const after = render(before, sections())
  if (after !== before) writeFileSync(page, after)
  console.log(after === before ? 'docs/sdk.md: up to date' : 'docs/sdk.md: tables rewritten')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
