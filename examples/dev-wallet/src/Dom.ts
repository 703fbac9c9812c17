/**
 * Element helpers for the wallet's UI. Styles go through CSSOM only (`style.cssText`): the host page's
 * CSP may forbid inline style attributes and <style> tags, and CSSOM is not subject to it.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  css: string,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag)
  node.style.cssText = css
  node.append(...children)
  return node
}

export const font = 'font: 13px/1.4 system-ui, sans-serif; color: #111827;'

export const panel =
  'position: fixed; right: 16px; margin: 0; box-sizing: border-box; padding: 12px 14px; border: 1px solid #c7d2fe; ' +
  'border-radius: 12px; background: #fff; box-shadow: 0 8px 24px rgba(17, 24, 39, 0.18); z-index: 2147483647;'

export const button = (primary: boolean) =>
  `${font} padding: 6px 14px; border-radius: 8px; cursor: pointer; border: 1px solid #2457d6; ` +
  (primary ? 'background: #2457d6; color: #fff;' : 'background: #fff; color: #2457d6;')
