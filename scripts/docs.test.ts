import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import * as Docs from './docs.js'

describe('docs/sdk.md', () => {
  test('behavior: its generated tables are what scripts/docs.ts makes now (run `npx tsx scripts/docs.ts`)', () => {
    const page = readFileSync(Docs.page, 'utf8')
    expect(Docs.render(page, Docs.sections())).toBe(page)
  })
})

describe('optionsTable', () => {
  test('behavior: a row per option of `Options`, with options.ts defaults and required ones marked', () => {
    const rows = Docs.optionsTable().split('\n').slice(2)
    expect(rows.length).toBe(Docs.members('sdk/src/types.ts', 'Options').length)
    expect(rows.find((row) => row.startsWith('| `projectId` '))).toContain('**required**')
    expect(rows.find((row) => row.startsWith('| `sdkType` '))).toContain("`'appkit'`")
  })

  test("param: a `|` in a type does not end the cell", () => {
    expect(Docs.optionsTable()).toContain("`'dark' \\| 'light'`")
  })
})

describe('render', () => {
  test('behavior: replaces only what is between the markers', () => {
    const page = 'a\n<!-- x:start -->\nold\n<!-- x:end -->\nb'
    expect(Docs.render(page, { x: 'new' })).toBe('a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb')
  })

  test('error: a section without its markers', () => {
    expect(() => Docs.render('no markers', { x: 'new' })).toThrow('<!-- x:start -->')
  })
})
